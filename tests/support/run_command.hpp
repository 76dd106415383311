// Runs a program through the shell and captures its exit status, stdout and
// stderr (for tests of the standalone programs, e.g. graphrun-scale-check).
#pragma once

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace graphrun::test {

struct CommandResult {
  int status = -1;  // exit status; -1 when the program did not exit normally
  std::string out, err;
};

inline CommandResult run_command(const std::string& command) {
  namespace fs = std::filesystem;
  const fs::path base = fs::temp_directory_path() / ("graphrun-run-" + std::to_string(::getpid()) +
                                                     "-" + std::to_string(std::rand()));
  const fs::path out = base.string() + ".out", err = base.string() + ".err";
  const std::string cmd = command + " >'" + out.string() + "' 2>'" + err.string() + "' </dev/null";
  const int raw = std::system(cmd.c_str());
  CommandResult r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  const auto slurp = [](const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
  };
  r.out = slurp(out);
  r.err = slurp(err);
  std::error_code ec;
  fs::remove(out, ec);
  fs::remove(err, ec);
  return r;
}

}  // namespace graphrun::test
