// What the command-line tests share: a scratch folder per test with a work/
// subfolder in which `graphrun` runs, its stdout and stderr captured outside
// it (so work/ holds only what graphrun wrote), and small file helpers.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "support/run_command.hpp"

namespace graphrun::test {

namespace fs = std::filesystem;

using CliResult = CommandResult;

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
    return run_command("cd '" + work_.string() + "' && '" GRAPHRUN_EXE "' " + args,
                       root_ / "stdout", root_ / "stderr");
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
