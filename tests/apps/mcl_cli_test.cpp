// End-to-end tests of `graphrun mcl`: ABC input written back by name, in
// mcl's order and format (the same bytes as `mcl --abc` where the program is
// installed), numeric edge lists, --output written atomically, and the
// errors (inflation out of range, negative weights, a missing file), which
// exit with status 2 and write nothing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli_support.hpp"

namespace fs = std::filesystem;

namespace {

using graphrun::test::describe;
using graphrun::test::slurp;

class MclCli : public graphrun::test::CliFixture {
 protected:
  fs::path write(const std::string& name, const std::string& text) {
    const fs::path p = work_ / name;
    std::ofstream(p) << text;
    return p;
  }
};

// Two triangles joined by one edge, with protein-like names; the second
// triangle is named first, so mcl's order (first appearance) shows.
const char* const two_triangles =
    "YKR068C\tYDR108W\t1\n"
    "YDR108W\tYGR166W\n"
    "YGR166W\tYKR068C\t2\n"
    "YBR254C\tYDR407C\n"
    "YDR407C\tYMR218C\n"
    "YMR218C\tYBR254C\n"
    "YGR166W\tYBR254C\t0.5\n";

TEST_F(MclCli, AbcClustersByNameInMclsOrder) {
  write("net.abc", two_triangles);
  const auto r = run("mcl net.abc --abc -q");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, "YKR068C\tYDR108W\tYGR166W\nYBR254C\tYDR407C\tYMR218C\n");
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST_F(MclCli, SameBytesAsTheMclProgram) {
  if (std::system("command -v mcl >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "the mcl program is not installed";
  const fs::path in = fs::path(GRAPHRUN_SOURCE_DIR) / "datasets" / "lesmis" / "lesmis.txt.gz";
  for (const char* inflation : {"1.4", "2", "4"}) {
    const std::string flags = std::string(" --abc -I ") + inflation;
    const auto ours = run("mcl '" + in.string() + "'" + flags + " -q -o ours.txt");
    ASSERT_EQ(ours.status, 0) << describe(ours);
    const std::string cmd = "cd '" + work_.string() + "' && zcat '" + in.string() + "' | mcl - " +
                            flags + " -te 2 -o theirs.txt 2>/dev/null";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    EXPECT_EQ(slurp(work_ / "ours.txt"), slurp(work_ / "theirs.txt")) << "-I " << inflation;
  }
}

// --reorder renumbers inside the run only: the same bytes as mcl's on a named
// graph, the ordering's time in the summary, and an unknown ordering refused.
TEST_F(MclCli, ReorderKeepsTheOutputAndNamesItsTime) {
  const fs::path in = fs::path(GRAPHRUN_SOURCE_DIR) / "datasets" / "lesmis" / "lesmis.txt.gz";
  const auto plain = run("mcl '" + in.string() + "' --abc -q -o plain.txt");
  ASSERT_EQ(plain.status, 0) << describe(plain);
  for (const char* order : {"rabbit", "rcm", "degree"}) {
    const auto r = run("mcl '" + in.string() + "' --abc --reorder " + order + " -o ordered.txt");
    ASSERT_EQ(r.status, 0) << describe(r);
    EXPECT_EQ(slurp(work_ / "ordered.txt"), slurp(work_ / "plain.txt")) << order;
    EXPECT_NE(r.err.find(std::string("ordering ") + order), std::string::npos) << r.err;
  }
  // auto: 77 vertices are too few to renumber.
  const auto automatic = run("mcl '" + in.string() + "' --abc --reorder auto -o auto.txt");
  ASSERT_EQ(automatic.status, 0) << describe(automatic);
  EXPECT_EQ(slurp(work_ / "auto.txt"), slurp(work_ / "plain.txt"));
  EXPECT_EQ(automatic.err.find("ordering"), std::string::npos) << automatic.err;
  const auto bad = run("mcl '" + in.string() + "' --abc --reorder shuffle -o bad.txt");
  EXPECT_EQ(bad.status, 2) << describe(bad);
  EXPECT_NE(bad.err.find("--reorder"), std::string::npos) << bad.err;
  EXPECT_FALSE(fs::exists(work_ / "bad.txt"));
}

TEST_F(MclCli, NumericEdgeListAndSummary) {
  const fs::path in = fs::path(GRAPHRUN_SOURCE_DIR) / "datasets" / "karate" / "karate.txt.gz";
  const auto r = run("mcl '" + in.string() + "' -o clusters.txt --threads 2");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(r.out.empty());
  const std::string text = slurp(work_ / "clusters.txt");
  // Every vertex once, one cluster per line.
  std::size_t fields = 0, lines = 0;
  for (char c : text) {
    fields += c == '\t' || c == '\n';
    lines += c == '\n';
  }
  EXPECT_EQ(fields, 34u) << text;
  EXPECT_GE(lines, 2u);
  EXPECT_NE(r.err.find("iteration"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("converged"), std::string::npos) << r.err;
}

TEST_F(MclCli, TruthGivesTheAgreementWithKnownClusters) {
  write("net.abc", two_triangles);
  // The planted split: both indices 1.
  write("truth.tsv",
        "# name\tcommunity\nYKR068C\ta\nYDR108W\ta\nYGR166W\ta\n"
        "YBR254C\tb\nYDR407C\tb\nYMR218C\tb\n");
  auto r = run("mcl net.abc --abc --truth truth.tsv -o clusters.txt");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_NE(r.err.find("(2 clusters): ARI 1.0000, NMI 1.0000"), std::string::npos) << r.err;
  // Everything in one community: no agreement beyond chance, no shared
  // information.
  write("one.tsv", "YKR068C\tx\nYDR108W\tx\nYGR166W\tx\nYBR254C\tx\nYDR407C\tx\nYMR218C\tx\n");
  r = run("mcl net.abc --abc --truth one.tsv -o clusters.txt");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_NE(r.err.find("(1 cluster): ARI 0.0000, NMI 0.0000"), std::string::npos) << r.err;
  // A vertex left out of the truth: exit 2, the file named, nothing written.
  write("short.tsv", "YKR068C\ta\nYDR108W\ta\n");
  fs::remove(work_ / "clusters.txt");
  r = run("mcl net.abc --abc --truth short.tsv -o clusters.txt");
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_NE(r.err.find("short.tsv"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(work_ / "clusters.txt"));
}

// The experiment on a generated LFR graph scores both programs' clusters
// against the planted communities.
TEST_F(MclCli, ExperimentScoresBothAgainstThePlantedCommunities) {
  if (std::system("command -v mcl >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "the mcl program is not installed";
  const auto r = run("experiment mcl gen:lfr:600:0.2:8:30 --threads 2");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_NE(r.out.find("vs planted: ARI / NMI (graphrun; mcl)"), std::string::npos) << r.out;
  // A well-separated graph: both find the communities almost exactly, and
  // the same clusters (the scores are equal).
  const auto row = r.out.find("| gen:lfr:600:0.2:8:30 |");
  ASSERT_NE(row, std::string::npos) << r.out;
  const std::string line = r.out.substr(row, r.out.find('\n', row) - row);
  const auto cell = line.substr(line.rfind("| ", line.size() - 3) + 2);
  const auto semicolon = cell.find("; ");
  ASSERT_NE(semicolon, std::string::npos) << line;
  EXPECT_EQ(cell.substr(0, semicolon), cell.substr(semicolon + 2, semicolon)) << line;
  EXPECT_GT(std::stod(cell.substr(0, 6)), 0.95) << line;
  // The summary per size class, against the goal, never only an average.
  EXPECT_NE(r.out.find("Per size class (goal: every graph at 1.50x or more)"), std::string::npos)
      << r.out;
  const auto summary = r.out.find("| graphrun vs mcl -te 2 | < 10^6 edges | 1 | 0 | ");
  ASSERT_NE(summary, std::string::npos) << r.out;
  const std::string verdict = r.out.substr(summary, r.out.find('\n', summary) - summary);
  EXPECT_TRUE(verdict.ends_with("| met on 1 of 1 |") ||
              verdict.ends_with("| not met: 1 of 1 below |"))
      << verdict;
}

TEST_F(MclCli, BadInputExitsWithStatus2AndWritesNothing) {
  write("net.abc", two_triangles);
  write("negative.abc", "a b 1\nb c -2\n");
  const auto low = run("mcl net.abc --abc -I 1 -o out.txt");
  EXPECT_EQ(low.status, 2) << describe(low);
  const auto neg = run("mcl negative.abc --abc -o out.txt");
  EXPECT_EQ(neg.status, 2) << describe(neg);
  EXPECT_NE(neg.err.find("negative.abc:2:"), std::string::npos) << neg.err;
  EXPECT_NE(neg.err.find("weights >= 0"), std::string::npos) << neg.err;
  const auto missing = run("mcl nowhere.abc --abc -o out.txt");
  EXPECT_EQ(missing.status, 2) << describe(missing);
  EXPECT_NE(missing.err.find("nowhere.abc"), std::string::npos) << missing.err;
  EXPECT_FALSE(fs::exists(work_ / "out.txt"));
}

}  // namespace
