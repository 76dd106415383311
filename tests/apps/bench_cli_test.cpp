// `graphrun bench` end to end on the CPU: every driver runs on generated and
// shipped graphs and prints a Markdown table row per graph; --csv writes the
// same table; a file that cannot be read is reported and skipped; a malformed
// generated-graph spec, no input at all, or a GPU-only option on the CPU is a
// usage error (exit 2).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cli_support.hpp"

namespace fs = std::filesystem;

namespace {

using graphrun::test::describe;
using graphrun::test::slurp;
using Result = graphrun::test::CliResult;

const std::string karate = GRAPHRUN_SOURCE_DIR "/datasets/karate/karate.txt.gz";

// `graphrun bench ARGS` in the scratch folder.
class BenchCliTest : public graphrun::test::CliFixture {
 protected:
  Result bench(const std::string& args) { return run("bench " + args); }
};

TEST_F(BenchCliTest, EveryDriverPrintsARowPerGraph) {
  const std::string inputs =
      " gen:rmat:9 gen:grid:20x30 gen:lfr:600:0.2:8:30 '" + karate + "' --threads 2 --reps 1";
  for (const std::string driver : {"spmv", "pagerank", "bfs", "spgemm"}) {
    SCOPED_TRACE(driver);
    const Result r = bench(driver + inputs + (driver == "bfs" ? " --sources 2" : ""));
    ASSERT_EQ(r.status, 0) << describe(r);
    EXPECT_NE(r.out.find("| --- |"), std::string::npos) << r.out;  // a Markdown table
    EXPECT_NE(r.out.find("| gen:rmat:9 |"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("| gen:grid:20x30 |"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("| gen:lfr:600:0.2:8:30 |"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("| karate |"), std::string::npos) << r.out;
  }
}

// The ratios to the anchor are summed up per size class, never over all
// graphs at once: one graph of each class gives one row of each.
TEST_F(BenchCliTest, RatiosAreSummedUpPerSizeClass) {
  // A 20x30 grid and 1,048,442 stored entries: one small graph, one medium.
  for (const std::string driver : {"spmv", "pagerank"}) {
    SCOPED_TRACE(driver);
    const Result r = bench(driver + " gen:grid:20x30 gen:uniform:65536:16 --threads 2 --reps 1");
    ASSERT_EQ(r.status, 0) << describe(r);
    const auto summary = r.out.find("Per size class");
    ASSERT_NE(summary, std::string::npos) << r.out;
    EXPECT_NE(r.out.find("| < 10^6 edges | 1 |", summary), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("| 10^6 - 10^7 edges | 1 |", summary), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find(">= 10^7 edges", summary), std::string::npos) << r.out;
  }
}

// --weighted gives an unweighted graph's entries values, so that both sides
// read A's values, and says so above the table.
TEST_F(BenchCliTest, SpmvWeightedSaysBothSidesReadValues) {
  const Result plain = bench("spmv gen:rmat:8 --reps 1 --threads 2");
  ASSERT_EQ(plain.status, 0) << describe(plain);
  EXPECT_EQ(plain.out.find("--weighted"), std::string::npos) << plain.out;
  const Result r = bench("spmv gen:rmat:8 '" + karate + "' --reps 1 --threads 2 --weighted");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_NE(r.out.find("Every entry valued (--weighted)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("| karate |"), std::string::npos) << r.out;
}

TEST_F(BenchCliTest, CsvHoldsTheTable) {
  const Result r = bench("spmv gen:uniform:500:4 --reps 1 --csv table.csv");
  ASSERT_EQ(r.status, 0) << describe(r);
  const std::string csv = slurp(work_ / "table.csv");
  std::istringstream lines(csv);
  std::string header, row;
  std::getline(lines, header);
  std::getline(lines, row);
  EXPECT_EQ(header.rfind("graph,", 0), 0u) << csv;
  EXPECT_EQ(row.rfind("gen:uniform:500:4,", 0), 0u) << csv;
}

TEST_F(BenchCliTest, UnreadableFilesAreSkippedWithAMessage) {
  const Result r = bench("pagerank no-such-file.txt gen:rmat:7 --reps 1");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_NE(r.err.find("skipping no-such-file.txt"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("| gen:rmat:7 |"), std::string::npos) << r.out;
}

TEST_F(BenchCliTest, MalformedSpecsAndMissingInputsAreUsageErrors) {
  for (const std::string args :
       {"spmv gen:rmat:x", "spmv gen:rmat:40", "spmv gen:grid:10", "spmv gen:torus:3",
        "bfs gen:uniform:10", "pagerank", "spgemm", "spgemm gen:rmat:7 --tune dense-words=4",
        "spmv gen:lfr:1000:1.5", "spmv gen:lfr:1000:0.3:90", "spmv gen:lfr:x",
        "spmv gen:lfr:100:0.3:10:50:7"}) {
    SCOPED_TRACE(args);
    const Result r = bench(args);
    EXPECT_EQ(r.status, 2) << describe(r);
    EXPECT_EQ(r.err.rfind("graphrun: error: ", 0), 0u) << r.err;
  }
}

}  // namespace
