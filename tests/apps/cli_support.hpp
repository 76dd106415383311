// What the command-line tests share: a scratch folder per test with a work/
// subfolder in which `graphrun` runs, its stdout and stderr captured outside
// it (so work/ holds only what graphrun wrote), and small file helpers.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace graphrun::test {

namespace fs = std::filesystem;

struct CliResult {
  int status = -1;  // exit status; -1 when graphrun did not exit normally
  std::string out, err;
};

inline std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// For failure messages: the status and both streams.
inline std::string describe(const CliResult& r) {
  return "status " + std::to_string(r.status) + "\nstdout:\n" + r.out + "\nstderr:\n" + r.err;
}

class CliFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/graphrun-cli-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    root_ = tmpl;
    work_ = root_ / "work";
    fs::create_directory(work_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }

  // Runs `graphrun ARGS` inside work/, stdin from /dev/null.
  CliResult run(const std::string& args) {
    const fs::path out = root_ / "stdout", err = root_ / "stderr";
    const std::string cmd = "cd '" + work_.string() + "' && '" GRAPHRUN_EXE "' " + args + " >'" +
                            out.string() + "' 2>'" + err.string() + "' </dev/null";
    const int raw = std::system(cmd.c_str());
    CliResult r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
  }

  void write(const std::string& name, const std::string& content) {
    std::ofstream f(work_ / name, std::ios::binary);
    f << content;
  }

  std::set<std::string> work_files() const {
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(work_)) names.insert(e.path().filename().string());
    return names;
  }

  fs::path root_, work_;
};

}  // namespace graphrun::test
