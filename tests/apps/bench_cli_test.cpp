// `graphrun bench` end to end on the CPU: every driver runs on generated and
// shipped graphs and prints a Markdown table row per graph; --csv writes the
// same table; a file that cannot be read is reported and skipped; a malformed
// generated-graph spec or no input at all is a usage error (exit 2).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

struct Result {
  int status = -1;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

const std::string karate = GRAPHRUN_SOURCE_DIR "/datasets/karate/karate.txt.gz";

class BenchCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/graphrun-bench-cli-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    root_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  Result run(const std::string& args) {
    const fs::path out = root_ / "stdout", err = root_ / "stderr";
    const std::string cmd = "cd '" + root_.string() + "' && '" GRAPHRUN_EXE "' bench " + args +
                            " >'" + out.string() + "' 2>'" + err.string() + "' </dev/null";
    const int raw = std::system(cmd.c_str());
    Result r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
  }
  fs::path root_;
};

std::string describe(const Result& r) {
  return "status " + std::to_string(r.status) + "\nstdout:\n" + r.out + "\nstderr:\n" + r.err;
}

TEST_F(BenchCliTest, EveryDriverPrintsARowPerGraph) {
  const std::string inputs = " gen:rmat:9 gen:grid:20x30 '" + karate + "' --threads 2 --reps 1";
  for (const std::string driver : {"spmv", "pagerank", "bfs", "spgemm"}) {
    SCOPED_TRACE(driver);
    const Result r = run(driver + inputs + (driver == "bfs" ? " --sources 2" : ""));
    ASSERT_EQ(r.status, 0) << describe(r);
    EXPECT_NE(r.out.find("| --- |"), std::string::npos) << r.out;  // a Markdown table
    EXPECT_NE(r.out.find("| gen:rmat:9 |"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("| gen:grid:20x30 |"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("| karate |"), std::string::npos) << r.out;
  }
}

TEST_F(BenchCliTest, CsvHoldsTheTable) {
  const Result r = run("spmv gen:uniform:500:4 --reps 1 --csv table.csv");
  ASSERT_EQ(r.status, 0) << describe(r);
  const std::string csv = slurp(root_ / "table.csv");
  std::istringstream lines(csv);
  std::string header, row;
  std::getline(lines, header);
  std::getline(lines, row);
  EXPECT_EQ(header.rfind("graph,", 0), 0u) << csv;
  EXPECT_EQ(row.rfind("gen:uniform:500:4,", 0), 0u) << csv;
}

TEST_F(BenchCliTest, UnreadableFilesAreSkippedWithAMessage) {
  const Result r = run("pagerank no-such-file.txt gen:rmat:7 --reps 1");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_NE(r.err.find("skipping no-such-file.txt"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("| gen:rmat:7 |"), std::string::npos) << r.out;
}

TEST_F(BenchCliTest, MalformedSpecsAndMissingInputsAreUsageErrors) {
  for (const std::string args : {"spmv gen:rmat:x", "spmv gen:rmat:40", "spmv gen:grid:10",
                                 "spmv gen:torus:3", "bfs gen:uniform:10", "pagerank", "spgemm"}) {
    SCOPED_TRACE(args);
    const Result r = run(args);
    EXPECT_EQ(r.status, 2) << describe(r);
    EXPECT_EQ(r.err.rfind("graphrun: error: ", 0), 0u) << r.err;
  }
}

}  // namespace
