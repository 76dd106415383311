// OutputFile: all or nothing.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "graphrun/io/write.hpp"
#include "io_test_support.hpp"

namespace graphrun::io::test {
namespace {

std::vector<std::string> entries(const TempDir& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir.path())) names.push_back(e.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(OutputFile, NotCommittedLeavesNothing) {
  TempDir dir;
  {
    OutputFile out(dir.file("result.tsv"));
    std::fputs("half a result\n", out.stream());
    EXPECT_EQ(entries(dir).size(), 1u);  // the temporary file, while writing
  }
  EXPECT_TRUE(entries(dir).empty());
}

// A run stopped by a signal while its output is half-written: the child
// process dies of the signal as it would have, and no temporary is left.
TEST(OutputFile, InterruptedRunLeavesNoTemporary) {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    TempDir dir;
    const std::string target = dir.file("result.tsv");
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      OutputFile out(target);
      std::fputs("half a result\n", out.stream());
      std::fflush(out.stream());
      ::raise(sig);
      ::_exit(0);  // not reached
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status)) << "signal " << sig;
    EXPECT_EQ(WTERMSIG(status), sig);
    EXPECT_TRUE(entries(dir).empty()) << "signal " << sig << " left " << entries(dir).front();
  }
}

TEST(OutputFile, CommittedFileIsInPlaceWithoutTemporary) {
  TempDir dir;
  {
    OutputFile out(dir.file("result.tsv"));
    std::fputs("all of it\n", out.stream());
    EXPECT_FALSE(fs::exists(dir.file("result.tsv")));
    out.commit();
    out.commit();  // harmless
  }
  EXPECT_EQ(entries(dir), std::vector<std::string>{"result.tsv"});
  EXPECT_EQ(read_file(dir.file("result.tsv")), "all of it\n");
}

TEST(OutputFile, FailedRunKeepsThePreviousFile) {
  TempDir dir;
  write_file(dir.file("result.tsv"), "old\n");
  try {
    OutputFile out(dir.file("result.tsv"));
    std::fputs("new but interrupted\n", out.stream());
    throw std::runtime_error("interrupted");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(read_file(dir.file("result.tsv")), "old\n");
  EXPECT_EQ(entries(dir), std::vector<std::string>{"result.tsv"});
}

TEST(OutputFile, MissingDirectoryNamesPathAndReason) {
  const std::string path = "/nonexistent/graphrun/out.tsv";
  try {
    OutputFile out(path);
    ADD_FAILURE() << "expected an error";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(path), std::string::npos) << what;
    EXPECT_NE(what.find("No such file or directory"), std::string::npos) << what;
  }
}

TEST(OutputFile, FailedRenameIsAnErrorAndLeavesNoTemporary) {
  TempDir dir;
  fs::create_directory(dir.file("taken"));  // a directory where the file should go
  OutputFile out(dir.file("taken"));
  std::fputs("data\n", out.stream());
  try {
    out.commit();
    ADD_FAILURE() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(dir.file("taken")), std::string::npos) << e.what();
  }
  EXPECT_EQ(entries(dir), std::vector<std::string>{"taken"});
}

TEST(OutputFile, DashIsStdout) {
  OutputFile out("-");
  EXPECT_EQ(out.stream(), stdout);
  out.commit();
}

}  // namespace
}  // namespace graphrun::io::test
