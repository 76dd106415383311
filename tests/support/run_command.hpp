// Runs a program through the shell and captures its exit status, stdout and
// stderr: the command-line tests (CliFixture) and the tests of the standalone
// programs (e.g. graphrun-scale-check) share it.
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

// For failure messages: the status and both streams.
inline std::string describe(const CommandResult& r) {
  return "status " + std::to_string(r.status) + "\nstdout:\n" + r.out + "\nstderr:\n" + r.err;
}

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// Runs COMMAND with stdin from /dev/null, its stdout and stderr sent to the
// files OUT and ERR (left in place, outside wherever the command writes).
inline CommandResult run_command(const std::string& command, const std::filesystem::path& out,
                                 const std::filesystem::path& err) {
  const std::string cmd = command + " >'" + out.string() + "' 2>'" + err.string() + "' </dev/null";
  const int raw = std::system(cmd.c_str());
  CommandResult r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

// The same with the streams captured in temporary files, removed afterwards.
inline CommandResult run_command(const std::string& command) {
  namespace fs = std::filesystem;
  const fs::path base = fs::temp_directory_path() / ("graphrun-run-" + std::to_string(::getpid()) +
                                                     "-" + std::to_string(std::rand()));
  const fs::path out = base.string() + ".out", err = base.string() + ".err";
  CommandResult r = run_command(command, out, err);
  std::error_code ec;
  fs::remove(out, ec);
  fs::remove(err, ec);
  return r;
}

}  // namespace graphrun::test
