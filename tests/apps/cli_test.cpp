// End-to-end tests of the graphrun command line: exit status, output files,
// error messages, and that a failed run leaves no file behind.
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_support.hpp"

namespace fs = std::filesystem;

namespace {

using graphrun::test::describe;
using graphrun::test::slurp;
using Result = graphrun::test::CliResult;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream s(text);
  for (std::string line; std::getline(s, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> fields;
  std::istringstream s(line);
  for (std::string f; std::getline(s, f, '\t');) fields.push_back(f);
  return fields;
}

// A small directed graph: a 3-cycle 10 -> 20 -> 30 -> 10, 30 -> 40 -> 10,
// a self loop on 50 and a repeated edge.
constexpr const char* small_graph =
    "# a small graph\n"
    "10 20\n"
    "20 30\n"
    "30 10\n"
    "30 40\n"
    "40 10\n"
    "50 50\n"
    "10 20\n";

class CliTest : public graphrun::test::CliFixture {
 protected:
  void write_gzip(const std::string& name, const std::string& content) {
    gzFile f = gzopen((work_ / name).c_str(), "wb");
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(gzwrite(f, content.data(), static_cast<unsigned>(content.size())),
              static_cast<int>(content.size()));
    ASSERT_EQ(gzclose(f), Z_OK);
  }
};

// ---------------------------------------------------------------- pagerank

TEST_F(CliTest, PageRankWritesEveryVertexAndTopK) {
  write("g.txt", small_graph);
  const Result r = run("pagerank g.txt --top 3 --output ranks.tsv");
  ASSERT_EQ(r.status, 0) << describe(r);

  // --output: every vertex, ascending input id, ranks summing to 1.
  const auto all = lines_of(slurp(work_ / "ranks.tsv"));
  ASSERT_EQ(all.size(), 5u);
  const std::vector<std::string> ids = {"10", "20", "30", "40", "50"};
  double sum = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const auto f = fields_of(all[i]);
    ASSERT_EQ(f.size(), 2u) << all[i];
    EXPECT_EQ(f[0], ids[i]);
    const double rank = std::strtod(f[1].c_str(), nullptr);
    EXPECT_GT(rank, 0.0);
    sum += rank;
  }
  EXPECT_NEAR(sum, 1.0, 1e-12);

  // stdout: the 3 best, descending, the same text as in the file.
  const auto top = lines_of(r.out);
  ASSERT_EQ(top.size(), 3u) << r.out;
  double previous = 2.0;
  for (const auto& line : top) {
    const auto f = fields_of(line);
    ASSERT_EQ(f.size(), 2u) << line;
    const double rank = std::strtod(f[1].c_str(), nullptr);
    EXPECT_LE(rank, previous);
    previous = rank;
    EXPECT_NE(std::find(all.begin(), all.end(), line), all.end()) << line;
  }
  // The first is the best of all.
  double best = 0;
  for (const auto& line : all)
    best = std::max(best, std::strtod(fields_of(line)[1].c_str(), nullptr));
  EXPECT_EQ(std::strtod(fields_of(top[0])[1].c_str(), nullptr), best);

  // The summary line on stderr.
  EXPECT_NE(r.err.find("pagerank: 5 vertices"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("iterations"), std::string::npos) << r.err;
  EXPECT_EQ(work_files(), (std::set<std::string>{"g.txt", "ranks.tsv"}));
}

TEST_F(CliTest, PageRankDefaultTopIsAllWhenFewerThanTen) {
  write("g.txt", small_graph);
  const Result r = run("pagerank g.txt");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(lines_of(r.out).size(), 5u);
  const Result none = run("pagerank g.txt --top 0 -q");
  ASSERT_EQ(none.status, 0) << describe(none);
  EXPECT_EQ(none.out, "");
}

TEST_F(CliTest, PageRankOutputDashIsStdout) {
  write("g.txt", small_graph);
  const Result r = run("pagerank g.txt --output - --quiet");
  ASSERT_EQ(r.status, 0) << describe(r);
  const auto all = lines_of(r.out);
  ASSERT_EQ(all.size(), 5u);
  EXPECT_EQ(fields_of(all[0])[0], "10");
  EXPECT_EQ(work_files(), (std::set<std::string>{"g.txt"}));
}

TEST_F(CliTest, PageRankWeightedAndUnweightedDiffer) {
  write("w.txt", "1 2 1\n1 3 9\n2 1 1\n3 1 1\n");
  const Result weighted = run("pagerank w.txt --output - -q");
  const Result unweighted = run("pagerank w.txt --unweighted --output - -q");
  ASSERT_EQ(weighted.status, 0) << describe(weighted);
  ASSERT_EQ(unweighted.status, 0) << describe(unweighted);
  EXPECT_NE(weighted.out, unweighted.out);
  // Unweighted: 2 and 3 are symmetric.
  const auto u = lines_of(unweighted.out);
  ASSERT_EQ(u.size(), 3u);
  EXPECT_EQ(fields_of(u[1])[1], fields_of(u[2])[1]);
}

// Two runs' `ID<TAB>RANK` outputs: both succeeded, the same ids in the same
// order, ranks within tol.
void expect_same_ranks(const Result& x, const Result& y, double tol) {
  ASSERT_EQ(x.status, 0) << describe(x);
  ASSERT_EQ(y.status, 0) << describe(y);
  const auto a = lines_of(x.out), b = lines_of(y.out);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(fields_of(a[i])[0], fields_of(b[i])[0]);
    EXPECT_NEAR(std::strtod(fields_of(a[i])[1].c_str(), nullptr),
                std::strtod(fields_of(b[i])[1].c_str(), nullptr), tol);
  }
}

TEST_F(CliTest, PageRankThreadCountsAgree) {
  write("g.txt", small_graph);
  expect_same_ranks(run("pagerank g.txt --threads 1 --output - -q"),
                    run("pagerank g.txt --threads 2 --output - -q"), 1e-12);
}

TEST_F(CliTest, PageRankMethodGaussSeidel) {
  write("g.txt", small_graph);
  expect_same_ranks(run("pagerank g.txt --tol 1e-12 --output - -q"),
                    run("pagerank g.txt --tol 1e-12 --method gauss-seidel --output - -q"), 1e-10);
  const Result bad = run("pagerank g.txt --method newton");
  EXPECT_EQ(bad.status, 2) << describe(bad);
  EXPECT_NE(bad.err.find("--method"), std::string::npos) << bad.err;
  EXPECT_EQ(bad.out, "");
}

// --trials: the ranks of one run, the summary's rank time the mean of the
// runs; 0 trials refused with exit 2 and nothing written.
TEST_F(CliTest, PageRankTrialsGiveTheSameRanks) {
  write("g.txt", small_graph);
  const Result one = run("pagerank g.txt --output - -q");
  const Result three = run("pagerank g.txt --output - --trials 3");
  ASSERT_EQ(three.status, 0) << describe(three);
  EXPECT_EQ(three.out, one.out);
  EXPECT_NE(three.err.find("s (mean of 3; median "), std::string::npos) << three.err;
  const Result none = run("pagerank g.txt --trials 0 --output ranks.tsv");
  EXPECT_EQ(none.status, 2) << describe(none);
  EXPECT_NE(none.err.find("--trials"), std::string::npos) << none.err;
  EXPECT_EQ(work_files(), (std::set<std::string>{"g.txt"}));
}

// --gather: float named on the summary line, its ranks within the float
// copy's bound of double's; refused with gauss-seidel and for an unknown
// value, exit 2 and no ranks.
TEST_F(CliTest, PageRankGatherPrecision) {
  write("g.txt", small_graph);
  const Result floats = run("pagerank g.txt --tol 1e-12 --gather float --output -");
  ASSERT_EQ(floats.status, 0) << describe(floats);
  EXPECT_NE(floats.err.find(", x gathered in float"), std::string::npos) << floats.err;
  const Result doubles = run("pagerank g.txt --tol 1e-12 --gather double --output -");
  EXPECT_EQ(doubles.err.find("x gathered in float"), std::string::npos) << doubles.err;
  expect_same_ranks(floats, doubles, 0.85 / 0.15 * std::ldexp(1.0, -24));
  for (const char* bad : {"--gather float --method gauss-seidel", "--gather half"}) {
    const Result r = run(std::string("pagerank g.txt --output - ") + bad);
    EXPECT_EQ(r.status, 2) << bad << describe(r);
    EXPECT_NE(r.err.find("--gather"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "") << bad;
  }
}

// --method chebyshev: Jacobi's ranks on an undirected graph; a directed one
// is refused with exit 2, the message saying what to do, and no ranks.
TEST_F(CliTest, PageRankMethodChebyshev) {
  write("g.txt", small_graph);
  expect_same_ranks(run("pagerank g.txt --undirected --tol 1e-12 --method jacobi --output - -q"),
                    run("pagerank g.txt --undirected --tol 1e-12 --method chebyshev --output - -q"),
                    1e-10);
  const Result directed = run("pagerank g.txt --method chebyshev --output - -q");
  EXPECT_EQ(directed.status, 2) << describe(directed);
  EXPECT_NE(directed.err.find("--undirected"), std::string::npos) << directed.err;
  EXPECT_EQ(directed.out, "");
}

// The summary names the method run, after the L1 change: auto's (the
// default) chebyshev on an undirected graph and jacobi on a directed one,
// or the method asked for.
TEST_F(CliTest, PageRankSummaryNamesTheMethod) {
  write("g.txt", small_graph);
  const auto summary = [&](const std::string& args) {
    const Result r = run("pagerank g.txt --top 0" + args);
    EXPECT_EQ(r.status, 0) << describe(r);
    return r.err;
  };
  const std::string undirected = summary(" --undirected");
  EXPECT_NE(undirected.find("(converged, L1 "), std::string::npos) << undirected;
  EXPECT_NE(undirected.find(", chebyshev), cpu, "), std::string::npos) << undirected;
  EXPECT_NE(summary("").find(", jacobi), cpu, "), std::string::npos);
  EXPECT_NE(summary(" --method auto").find(", jacobi), "), std::string::npos);
  EXPECT_NE(summary(" --undirected --method auto").find(", chebyshev), "), std::string::npos);
  for (const std::string method : {"jacobi", "gauss-seidel", "chebyshev"})
    EXPECT_NE(summary(" --undirected --method " + method).find(", " + method + "), "),
              std::string::npos)
        << method;
}

// ---------------------------------------------------------------- bfs

TEST_F(CliTest, BfsLevelsOnAPathWithUnreachableVertices) {
  // A path 1 -> 2 -> 3 -> 4, and 9 -> 8 out of reach of 1.
  write("p.txt", "1 2\n2 3\n3 4\n9 8\n");
  const Result r = run("bfs p.txt --source 1");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, "1\t0\n2\t1\n3\t2\n4\t3\n8\t-1\n9\t-1\n");
  EXPECT_NE(r.err.find("bfs: 6 vertices"), std::string::npos) << r.err;
  // stderr is not a terminal here: the summary line and no progress bar.
  EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
}

TEST_F(CliTest, BfsParents) {
  write("p.txt", "1 2\n2 3\n3 4\n9 8\n");
  const Result r = run("bfs p.txt --source 1 --parents --output levels.tsv");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(slurp(work_ / "levels.tsv"),
            "1\t0\t1\n2\t1\t1\n3\t2\t2\n4\t3\t3\n8\t-1\t-1\n9\t-1\t-1\n");
}

TEST_F(CliTest, BfsUndirectedWalksEdgesBackwards) {
  write("p.txt", "1 2\n2 3\n3 4\n9 8\n");
  const Result directed = run("bfs p.txt --source 4 -q");
  ASSERT_EQ(directed.status, 0) << describe(directed);
  EXPECT_EQ(directed.out, "1\t-1\n2\t-1\n3\t-1\n4\t0\n8\t-1\n9\t-1\n");
  const Result undirected = run("bfs p.txt --source 4 --undirected -q");
  ASSERT_EQ(undirected.status, 0) << describe(undirected);
  EXPECT_EQ(undirected.out, "1\t3\n2\t2\n3\t1\n4\t0\n8\t-1\n9\t-1\n");
}

TEST_F(CliTest, BfsUnknownSourceIsAnError) {
  write("p.txt", "1 2\n2 3\n");
  const Result r = run("bfs p.txt --source 77 --output levels.tsv");
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_NE(r.err.find("graphrun: error:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("source vertex 77 does not occur in p.txt"), std::string::npos) << r.err;
  const Result trials = run("bfs p.txt --source 1 --trials 0 --output levels.tsv");
  EXPECT_EQ(trials.status, 2) << describe(trials);
  EXPECT_EQ(work_files(), (std::set<std::string>{"p.txt"}));
}

// --trials: the same levels, the summary's time the mean of the searches.
TEST_F(CliTest, BfsTrialsGiveTheSameLevels) {
  write("p.txt", "1 2\n2 3\n3 4\n9 8\n");
  const Result r = run("bfs p.txt --source 1 --trials 3");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, "1\t0\n2\t1\n3\t2\n4\t3\n8\t-1\n9\t-1\n");
  const std::size_t note = r.err.find("(mean of 3; median ");
  ASSERT_NE(note, std::string::npos) << r.err;
  // The median of the runs is no faster than the fastest.
  double median = -1, fastest = -1;
  ASSERT_EQ(std::sscanf(r.err.c_str() + note, "(mean of 3; median %lf s, fastest %lf s)", &median,
                        &fastest),
            2)
      << r.err;
  EXPECT_GE(fastest, 0);
  EXPECT_LE(fastest, median);
}

// ---------------------------------------------------------------- cc

TEST_F(CliTest, CcNamesComponentsBySmallestId) {
  // small_graph: {10, 20, 30, 40} joined, 50 alone; 30 -> 40 -> 10 puts 40
  // in the cycle's strong component too.
  write("g.txt", small_graph);
  const Result weak = run("cc g.txt");
  ASSERT_EQ(weak.status, 0) << describe(weak);
  EXPECT_EQ(weak.out, "10\t10\n20\t10\n30\t10\n40\t10\n50\t50\n");
  EXPECT_NE(weak.err.find("2 weak components, largest 4 vertices (80.0%), named 10"),
            std::string::npos)
      << weak.err;
  write("p.txt", "5 3\n3 9\n9 3\n7 7\n");
  const Result strong = run("cc p.txt --strong --trials 2 --output scc.tsv");
  ASSERT_EQ(strong.status, 0) << describe(strong);
  EXPECT_EQ(slurp(work_ / "scc.tsv"), "3\t3\n5\t5\n7\t7\n9\t3\n");
  EXPECT_NE(strong.err.find("3 strong components"), std::string::npos) << strong.err;
  EXPECT_NE(strong.err.find("(mean of 2; median "), std::string::npos) << strong.err;
  // --strong on an undirected graph gives its weak components.
  const Result undirected = run("cc p.txt --strong --undirected -q");
  ASSERT_EQ(undirected.status, 0) << describe(undirected);
  EXPECT_EQ(undirected.out, "3\t3\n5\t3\n7\t7\n9\t3\n");
}

TEST_F(CliTest, CcBadInputAndOptionsExit2WithoutOutput) {
  write("bad.txt", "1 2\n2 x\n");
  const Result r = run("cc bad.txt --output out.tsv");
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_NE(r.err.find("bad.txt:2"), std::string::npos) << r.err;
  write("g.txt", small_graph);
  const Result trials = run("cc g.txt --trials 0 --output out.tsv");
  EXPECT_EQ(trials.status, 2) << describe(trials);
  EXPECT_EQ(work_files(), (std::set<std::string>{"bad.txt", "g.txt"}));
}

// ---------------------------------------------------------------- sssp

TEST_F(CliTest, SsspWritesDistancesByBothMethods) {
  // 0 -> 1 twice (the shorter, 2, counts), 0 -> 2 directly (10) or through 1
  // (5), 2 -> 3; 5 reaches 3 but nothing reaches 5.
  write("w.txt", "0 1 2\n1 2 3\n0 2 10\n2 3 1.5\n5 3 1\n0 1 5\n");
  const std::string want = "0\t0\n1\t2\n2\t5\n3\t6.5\n5\tinf\n";
  for (const char* method : {"delta-stepping", "bellman-ford"}) {
    const Result r = run(std::string("sssp w.txt --source 0 --method ") + method);
    ASSERT_EQ(r.status, 0) << describe(r);
    EXPECT_EQ(r.out, want) << method;
    EXPECT_NE(r.err.find("reached 4, farthest 6.5"), std::string::npos) << r.err;
  }
  // Narrow buckets, several trials, to a file: the same distances.
  const Result narrow = run("sssp w.txt -s 0 --delta 0.25 --trials 3 --output d.tsv");
  ASSERT_EQ(narrow.status, 0) << describe(narrow);
  EXPECT_EQ(slurp(work_ / "d.tsv"), want);
  EXPECT_NE(narrow.err.find("(mean of 3; median "), std::string::npos) << narrow.err;
  // Unweighted, undirected: hop counts.
  write("g.txt", small_graph);
  const Result hops = run("sssp g.txt --undirected --source 40 -q");
  ASSERT_EQ(hops.status, 0) << describe(hops);
  EXPECT_EQ(hops.out, "10\t1\n20\t2\n30\t1\n40\t0\n50\tinf\n");
}

TEST_F(CliTest, SsspBadInputAndOptionsExit2WithoutOutput) {
  write("n.txt", "0 1 2\n1 2 -3\n");
  const Result negative = run("sssp n.txt --source 0 --output out.tsv");
  EXPECT_EQ(negative.status, 2) << describe(negative);
  EXPECT_NE(negative.err.find("n.txt:2"), std::string::npos) << negative.err;
  EXPECT_NE(negative.err.find("shortest paths need weights >= 0"), std::string::npos)
      << negative.err;
  write("g.txt", small_graph);
  for (const char* args : {"--source 99", "--source x", "--source 10 --delta -1",
                           "--source 10 --method dijkstra", "--source 10 --trials 0", ""}) {
    const Result r = run(std::string("sssp g.txt --output out.tsv ") + args);
    EXPECT_EQ(r.status, 2) << args << ": " << describe(r);
    EXPECT_FALSE(r.err.empty()) << args;
  }
  EXPECT_EQ(work_files(), (std::set<std::string>{"n.txt", "g.txt"}));
}

// ---------------------------------------------------------------- kcore

TEST_F(CliTest, KcoreWritesCoreNumbers) {
  // small_graph undirected: 10, 20, 30 a triangle; 40 joined to 30 and 10,
  // so {10, 30, 40} is a triangle too: every vertex of the four has two
  // neighbours among them (core 2); 50 has only its self loop (core 0).
  write("g.txt", small_graph);
  const Result r = run("kcore g.txt --trials 2 --output cores.tsv");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(slurp(work_ / "cores.tsv"), "10\t2\n20\t2\n30\t2\n40\t2\n50\t0\n");
  EXPECT_NE(r.err.find("degeneracy 2 (4 vertices in that core)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(mean of 2; median "), std::string::npos) << r.err;
}

// ---------------------------------------------------------------- triangles

TEST_F(CliTest, TrianglesPrintsTotalAndWritesPerVertex) {
  // small_graph: triangles {10, 20, 30} and {10, 30, 40}; 10 and 30 have
  // three neighbours each, 20 and 40 two, 50 none but its loop: 8 paths of
  // length 2, transitivity 3 · 2 / 8.
  write("g.txt", small_graph);
  const Result total = run("triangles g.txt --trials 2");
  ASSERT_EQ(total.status, 0) << describe(total);
  EXPECT_EQ(total.out, "2\n");
  EXPECT_NE(total.err.find("2 triangles, transitivity 0.750000"), std::string::npos) << total.err;
  EXPECT_NE(total.err.find("(mean of 2; median "), std::string::npos) << total.err;
  const Result r = run("triangles g.txt --undirected --output t.tsv");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(slurp(work_ / "t.tsv"),
            "10\t2\t0.66666666666666663\n20\t1\t1\n30\t2\t0.66666666666666663\n40\t1\t1\n"
            "50\t0\t0\n");
  EXPECT_NE(r.err.find("average clustering 0.666667"), std::string::npos) << r.err;
}

TEST_F(CliTest, TrianglesBadInputExit2WithoutOutput) {
  write("bad.txt", "1 2\n2 x\n");
  const Result bad = run("triangles bad.txt --output t.tsv");
  EXPECT_EQ(bad.status, 2) << describe(bad);
  EXPECT_NE(bad.err.find("bad.txt:2"), std::string::npos) << bad.err;
  write("empty.txt", "");
  const Result empty = run("triangles empty.txt --output t.tsv");
  EXPECT_EQ(empty.status, 2) << describe(empty);
  const Result trials = run("triangles empty.txt --trials 0");
  EXPECT_EQ(trials.status, 2) << describe(trials);
  EXPECT_EQ(work_files(), (std::set<std::string>{"bad.txt", "empty.txt"}));
}

// ---------------------------------------------------------------- bc

TEST_F(CliTest, BcWritesNormalizedScores) {
  // small_graph undirected without its loop: 10 - 20, 20 - 30, 30 - 10,
  // 30 - 40, 40 - 10. Only 10 and 30 lie inside shortest paths: 20 - 40
  // has two, one through each; normalized by (n-1)(n-2)/2 = 6 pairs.
  write("g.txt", small_graph);
  const Result r = run("bc g.txt --undirected --trials 2 --output bc.tsv");
  ASSERT_EQ(r.status, 0) << describe(r);
  const std::string half = "0.083333333333333329";
  EXPECT_EQ(slurp(work_ / "bc.tsv"), "10\t" + half + "\n20\t0\n30\t" + half + "\n40\t0\n50\t0\n");
  EXPECT_NE(r.err.find("5 sources (exact)"), std::string::npos) << r.err;
  const Result one = run("bc g.txt --undirected --source 20 --output one.tsv");
  ASSERT_EQ(one.status, 0) << describe(one);
  EXPECT_NE(one.err.find("1 sources (given)"), std::string::npos) << one.err;
  for (const char* args :
       {"--source 99", "--sources 6", "--sources 2 --source 10", "--sources -1", "--trials 0"}) {
    const Result bad = run(std::string("bc g.txt --output bad.tsv ") + args);
    EXPECT_EQ(bad.status, 2) << args << ": " << describe(bad);
    EXPECT_FALSE(bad.err.empty()) << args;
  }
  EXPECT_FALSE(fs::exists(work_ / "bad.tsv"));
}

// ---------------------------------------------------------------- info, convert

TEST_F(CliTest, InfoPrintsCounts) {
  write("g.txt", small_graph);
  const Result r = run("info g.txt");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_NE(r.out.find("vertices:          5\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("edges:             6\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("self loops:        1\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("directed:          yes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("degree histogram"), std::string::npos) << r.out;

  const Result u = run("info g.txt --undirected");
  ASSERT_EQ(u.status, 0) << describe(u);
  // 5 distinct undirected edges + the self loop; stored: 2 * 5 + 1.
  EXPECT_NE(u.out.find("edges:             6 undirected (11 stored"), std::string::npos) << u.out;
  EXPECT_NE(u.out.find("directed:          no"), std::string::npos) << u.out;
}

TEST_F(CliTest, ConvertToCacheGivesIdenticalPageRank) {
  write("g.txt", small_graph);
  write("w.txt", "5 7 0.5\n7 9 2.5\n9 5 1\n9 7 1\n7 9 0.25\n");
  for (const std::string name : {"g", "w"}) {
    SCOPED_TRACE(name);
    const Result c = run("convert " + name + ".txt " + name + ".grb");
    ASSERT_EQ(c.status, 0) << describe(c);
    const Result a = run("pagerank " + name + ".txt --output a.tsv -q");
    const Result b = run("pagerank " + name + ".grb --output b.tsv -q");
    ASSERT_EQ(a.status, 0) << describe(a);
    ASSERT_EQ(b.status, 0) << describe(b);
    EXPECT_EQ(slurp(work_ / "a.tsv"), slurp(work_ / "b.tsv"));
    EXPECT_FALSE(slurp(work_ / "a.tsv").empty());
  }
}

// convert --reorder keeps a vertex ordering in the .grb; pagerank renumbers
// by it (ranks by input id, equal up to rounding) unless told otherwise,
// info names it, a .grb copy keeps it and --reorder none drops it. Outside a
// .grb, or named auto or unknown: exit 2 and nothing written.
TEST_F(CliTest, ConvertStoresAnOrderingThatPageRankUses) {
  const std::string karate = GRAPHRUN_SOURCE_DIR "/datasets/karate/karate.txt.gz";
  const Result c = run("convert '" + karate + "' k.grb --undirected --reorder rabbit");
  ASSERT_EQ(c.status, 0) << describe(c);
  EXPECT_NE(c.err.find("ordering rabbit "), std::string::npos) << c.err;
  const Result info = run("info k.grb");
  EXPECT_NE(info.out.find("vertex ordering:   rabbit"), std::string::npos) << info.out;

  const Result plain = run("pagerank '" + karate + "' --undirected --output - -q");
  const Result stored = run("pagerank k.grb --output -");
  ASSERT_EQ(stored.status, 0) << describe(stored);
  EXPECT_NE(stored.err.find("ordering rabbit (stored"), std::string::npos) << stored.err;
  const auto a = lines_of(plain.out), b = lines_of(stored.out);
  ASSERT_EQ(a.size(), 34u);
  ASSERT_EQ(b.size(), a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(fields_of(b[i])[0], fields_of(a[i])[0]);
    EXPECT_NEAR(std::stod(fields_of(b[i])[1]), std::stod(fields_of(a[i])[1]), 1e-15) << i;
  }
  const Result none = run("pagerank k.grb --reorder none -k 0");
  EXPECT_EQ(none.err.find("ordering"), std::string::npos) << none.err;
  const Result dbg = run("pagerank k.grb --reorder dbg -k 0");
  EXPECT_NE(dbg.err.find("ordering dbg "), std::string::npos) << dbg.err;
  EXPECT_EQ(dbg.err.find("(stored"), std::string::npos) << dbg.err;

  const Result copy = run("convert k.grb copy.grb");
  EXPECT_NE(copy.err.find("ordering rabbit kept"), std::string::npos) << copy.err;
  EXPECT_NE(run("info copy.grb").out.find("vertex ordering:   rabbit"), std::string::npos);
  ASSERT_EQ(run("convert k.grb dropped.grb --reorder none -q").status, 0);
  EXPECT_EQ(run("info dropped.grb").out.find("vertex ordering"), std::string::npos);

  for (const std::string bad : {"k.grb k.mtx --reorder rabbit", "k.grb k.txt --reorder dbg",
                                "k.grb x.grb --reorder auto", "k.grb x.grb --reorder metis"}) {
    const Result r = run("convert " + bad);
    EXPECT_EQ(r.status, 2) << bad << "\n" << describe(r);
    EXPECT_NE(r.err.find("ordering"), std::string::npos) << bad << "\n" << r.err;
  }
  EXPECT_EQ(work_files(), (std::set<std::string>{"k.grb", "copy.grb", "dropped.grb"}));
}

TEST_F(CliTest, ConvertToMatrixMarket) {
  write("p.txt", "1 2\n2 3\n3 4\n");
  const Result c = run("convert p.txt p.mtx");
  ASSERT_EQ(c.status, 0) << describe(c);
  EXPECT_EQ(slurp(work_ / "p.mtx").rfind("%%MatrixMarket matrix coordinate", 0), 0u);
  // Ids 1..4 survive the round trip through Matrix Market's 1-based indices.
  const Result b = run("bfs p.mtx --source 1 -q");
  ASSERT_EQ(b.status, 0) << describe(b);
  EXPECT_EQ(b.out, "1\t0\n2\t1\n3\t2\n4\t3\n");
}

// Any name that is not .grb or Matrix Market is an edge list, as on input.
TEST_F(CliTest, ConvertWritesAnEdgeListToAnyOtherName) {
  write("p.txt", "10 20\n20 30\n");
  const Result r = run("convert p.txt p.csv -q");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(work_files(), (std::set<std::string>{"p.txt", "p.csv"}));
  const Result b = run("bfs p.csv --source 10 -q");
  ASSERT_EQ(b.status, 0) << describe(b);
  EXPECT_EQ(b.out, "10\t0\n20\t1\n30\t2\n");
}

TEST_F(CliTest, KarateClubMatchesNetworkX) {
  // Zachary's karate club, shipped in datasets/: NetworkX's pagerank() gives
  // node 33 0.100918, node 0 0.097002, node 32 0.071692.
  const std::string karate = GRAPHRUN_SOURCE_DIR "/datasets/karate/karate.txt.gz";
  ASSERT_TRUE(fs::exists(karate)) << karate << " is shipped with the repository";
  const Result r = run("pagerank '" + karate + "' --undirected --top 3");
  ASSERT_EQ(r.status, 0) << describe(r);
  const auto top = lines_of(r.out);
  ASSERT_EQ(top.size(), 3u) << r.out;
  const std::vector<std::pair<std::string, double>> expected = {
      {"33", 0.100918}, {"0", 0.097002}, {"32", 0.071692}};
  for (std::size_t i = 0; i < 3; ++i) {
    const auto f = fields_of(top[i]);
    EXPECT_EQ(f[0], expected[i].first);
    EXPECT_NEAR(std::strtod(f[1].c_str(), nullptr), expected[i].second, 1e-5);
  }
  EXPECT_NE(r.err.find("pagerank: 34 vertices, 78 undirected edges (156 stored entries)"),
            std::string::npos)
      << r.err;
}

// ---------------------------------------------------------------- malformed input

struct BadInput {
  const char* test_name;
  const char* file;
  const char* content;  // nullptr: see the test (gzip, missing file)
  int line;             // 0: no line applies
};

void PrintTo(const BadInput& bad, std::ostream* os) { *os << bad.test_name; }

class MalformedInput : public CliTest, public ::testing::WithParamInterface<BadInput> {};

TEST_P(MalformedInput, ExitsTwoNamesTheFileAndWritesNothing) {
  const BadInput& bad = GetParam();
  std::set<std::string> inputs;
  const std::string file = bad.file;
  if (file == "truncated.txt.gz") {
    std::string text;
    for (int i = 0; i < 20000; ++i) text += std::to_string(i) + " " + std::to_string(i + 1) + "\n";
    write_gzip("full.gz", text);
    const std::string gz = slurp(work_ / "full.gz");
    fs::remove(work_ / "full.gz");
    ASSERT_GT(gz.size(), 200u);
    write(file, gz.substr(0, gz.size() / 2));
    inputs.insert(file);
  } else if (file == "folder") {
    fs::create_directory(work_ / file);
    inputs.insert(file);
  } else if (bad.content != nullptr) {
    write(file, bad.content);
    inputs.insert(file);
  }

  const std::vector<std::string> commands = {
      "pagerank " + file + " --output out.tsv",
      "bfs " + file + " --source 1 --output out.tsv",
      "info " + file,
      "convert " + file + " out.grb",
  };
  for (const auto& command : commands) {
    SCOPED_TRACE(command);
    const Result r = run(command);
    EXPECT_EQ(r.status, 2) << describe(r);
    EXPECT_EQ(r.err.rfind("graphrun: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(file), std::string::npos) << r.err;
    if (bad.line > 0) {
      EXPECT_NE(r.err.find(file + ":" + std::to_string(bad.line) + ":"), std::string::npos)
          << r.err;
    }
    // Nothing written: no output, no temporary file.
    EXPECT_EQ(work_files(), inputs);
    EXPECT_EQ(r.out, "");
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cli, MalformedInput,
    ::testing::Values(BadInput{"NonNumeric", "nonnumeric.txt", "1 2\n2 x\n", 2},
                      BadInput{"NegativeId", "negative.txt", "1 2\n-3 2\n", 2},
                      BadInput{"IdBeyond64Bits", "huge.txt", "1 2\n18446744073709551616 2\n", 2},
                      BadInput{"MissingColumn", "missing.txt", "1 2\n2 3\n3\n", 3},
                      BadInput{"NanWeight", "nan.txt", "1 2 1.5\n2 3 nan\n", 2},
                      BadInput{"InfWeight", "inf.txt", "1 2 1.5\n2 3 0.5\n3 1 inf\n", 3},
                      BadInput{"EmptyFile", "empty.txt", "", 0},
                      BadInput{"OnlyComments", "comments.txt", "# nothing\n% here\n", 0},
                      BadInput{"TruncatedGzip", "truncated.txt.gz", nullptr, 0},
                      BadInput{"MatrixMarketHeaderLies", "lies.mtx",
                               "%%MatrixMarket matrix coordinate pattern general\n3 3 5\n1 2\n2 "
                               "3\n",
                               0},
                      BadInput{"MatrixMarketIndexBeyondSize", "beyond.mtx",
                               "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 "
                               "9\n",
                               4},
                      BadInput{"MissingFile", "no-such-file.txt", nullptr, 0},
                      BadInput{"Folder", "folder", nullptr, 0}),
    [](const ::testing::TestParamInfo<BadInput>& p) { return p.param.test_name; });

// ---------------------------------------------------------------- --abc (named vertices)

// A protein network as ABC text: names first appear in an order that is not
// alphabetical, and one vertex is out of reach of the rest.
constexpr const char* abc_graph =
    "# yeast-like names\n"
    "YKR068C\tYAL001C\n"
    "YAL001C YBR160W\n"
    "YBR160W YKR068C\n"
    "YBR160W\tYDL140C\n"
    "YDL140C YKR068C\n"
    "YZZ999W YZZ999W\n";
// The same graph with each name replaced by its order of first appearance.
constexpr const char* abc_graph_numbered = "0 1\n1 2\n2 0\n2 3\n3 0\n4 4\n";

TEST_F(CliTest, PageRankAbcPrintsNamesInOrderOfFirstAppearance) {
  write("ppi.abc", abc_graph);
  write("ppi.txt", abc_graph_numbered);
  const Result r = run("pagerank ppi.abc --abc --top 2 --output ranks.tsv");
  ASSERT_EQ(r.status, 0) << describe(r);
  const Result n = run("pagerank ppi.txt --output numbered.tsv -q");
  ASSERT_EQ(n.status, 0) << describe(n);

  // --output: every vertex by name, in order of first appearance, with the
  // very ranks of the numbered graph.
  const auto all = lines_of(slurp(work_ / "ranks.tsv"));
  const auto numbered = lines_of(slurp(work_ / "numbered.tsv"));
  const std::vector<std::string> names = {"YKR068C", "YAL001C", "YBR160W", "YDL140C", "YZZ999W"};
  ASSERT_EQ(all.size(), names.size());
  ASSERT_EQ(numbered.size(), names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(fields_of(all[i])[0], names[i]);
    EXPECT_EQ(fields_of(all[i])[1], fields_of(numbered[i])[1]);
  }
  // stdout: the top 2 by name, lines as in the file.
  const auto top = lines_of(r.out);
  ASSERT_EQ(top.size(), 2u) << r.out;
  for (const auto& line : top) EXPECT_NE(std::find(all.begin(), all.end(), line), all.end());
  EXPECT_EQ(fields_of(top[0])[0], "YKR068C") << r.out;
  EXPECT_NE(r.err.find("pagerank: 5 vertices"), std::string::npos) << r.err;
}

TEST_F(CliTest, BfsAbcTakesANameAsSourceAndPrintsNames) {
  write("ppi.abc", abc_graph);
  const std::string expected =
      "YKR068C\t2\tYBR160W\n"
      "YAL001C\t0\tYAL001C\n"
      "YBR160W\t1\tYAL001C\n"
      "YDL140C\t2\tYBR160W\n"
      "YZZ999W\t-1\t-1\n";
  const Result r = run("bfs ppi.abc --abc --source YAL001C --parents");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, expected);
  EXPECT_NE(r.err.find("source YAL001C"), std::string::npos) << r.err;

  // A cache made with --abc keeps the names: no --abc needed to read it.
  const Result c = run("convert ppi.abc ppi.grb --abc -q");
  ASSERT_EQ(c.status, 0) << describe(c);
  const Result b = run("bfs ppi.grb --source YAL001C --parents -q");
  ASSERT_EQ(b.status, 0) << describe(b);
  EXPECT_EQ(b.out, expected);

  const Result info = run("info ppi.abc --abc");
  ASSERT_EQ(info.status, 0) << describe(info);
  EXPECT_NE(info.out.find("vertex names:      YKR068C .. YZZ999W"), std::string::npos) << info.out;
}

TEST_F(CliTest, BfsAbcUnknownSourceNameExitsTwo) {
  write("ppi.abc", abc_graph);
  for (const std::string source : {"YNOTHERE", "0", "ykr068c"}) {
    SCOPED_TRACE(source);
    const Result r = run("bfs ppi.abc --abc --source " + source + " --output levels.tsv");
    EXPECT_EQ(r.status, 2) << describe(r);
    EXPECT_EQ(r.err.rfind("graphrun: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("source vertex '" + source + "' does not occur in ppi.abc"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(work_files(), (std::set<std::string>{"ppi.abc"}));
  }
}

TEST_F(CliTest, MalformedAbcNamesFileAndLine) {
  write("bad.abc", "# c\nYKR068C YAL001C 1\nYAL001C YBR160W nan\n");
  const Result r = run("pagerank bad.abc --abc --output ranks.tsv");
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_NE(r.err.find("graphrun: error: bad.abc:3: weight 'nan' is not a finite number"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(work_files(), (std::set<std::string>{"bad.abc"}));
  // Without --abc the names are not numbers.
  const Result plain = run("pagerank bad.abc");
  EXPECT_EQ(plain.status, 2) << describe(plain);
  EXPECT_NE(plain.err.find("bad.abc:2: source id 'YKR068C' is not a number"), std::string::npos)
      << plain.err;
}

// ---------------------------------------------------------------- options

TEST_F(CliTest, BadOptionsExitTwo) {
  write("g.txt", small_graph);
  const std::vector<std::string> commands = {
      "pagerank g.txt --threads -1 --output out.tsv",
      "pagerank g.txt --threads=-4",
      "pagerank g.txt --threads many",
      "pagerank g.txt --damping 1.5 --output out.tsv",
      "pagerank g.txt --damping 1",
      "pagerank g.txt --damping -0.1",
      "pagerank g.txt --damping nan",
      "pagerank g.txt --tol 0",
      "pagerank g.txt --tol -1e-3",
      "pagerank g.txt --max-iter 0",
      "pagerank g.txt --top -1",
      "pagerank g.txt --device gpu",
      "info g.txt --device cuda",  // info runs on the CPU only, GPU or not
      "pagerank g.txt --no-such-option",
      "pagerank g.txt extra.txt",
      "pagerank g.txt --output no-such-folder/out.tsv",
      "pagerank",
      "bfs g.txt",
      "bfs g.txt --source 12345 --output out.tsv",
      "bfs g.txt --source -1",
      "bfs g.txt --source ten",
      "bfs g.txt --source 99999999999999999999999",
      "info g.txt --threads -2",
      "convert g.txt",
      "no-such-subcommand g.txt",
      "",
  };
  for (const auto& command : commands) {
    SCOPED_TRACE(command);
    const Result r = run(command);
    EXPECT_EQ(r.status, 2) << describe(r);
    EXPECT_EQ(r.err.rfind("graphrun: error: ", 0), 0u) << r.err;
    EXPECT_EQ(work_files(), (std::set<std::string>{"g.txt"}));
  }
}

// --device cuda where there is no GPU or no CUDA backend: cuda_cli_test.cpp.

TEST_F(CliTest, HelpTeachesFormats) {
  for (const std::string sub : {"pagerank", "bfs", "info", "convert"}) {
    SCOPED_TRACE(sub);
    const Result r = run(sub + " --help");
    EXPECT_EQ(r.status, 0) << describe(r);
    for (const char* needle :
         {".mtx", ".grb", ".gz", "edge list", "Self loops", "--undirected", "--abc", "mcl --abc",
          "--threads", "--device", "--quiet", "EXAMPLE", "EXIT STATUS"})
      EXPECT_NE(r.out.find(needle), std::string::npos) << needle << "\n" << r.out;
  }
  const Result top = run("--help");
  EXPECT_EQ(top.status, 0) << describe(top);
  for (const char* sub : {"pagerank", "bfs", "info", "convert"})
    EXPECT_NE(top.out.find(sub), std::string::npos) << top.out;
  const Result version = run("--version");
  EXPECT_EQ(version.status, 0) << describe(version);
  EXPECT_EQ(version.out.rfind("graphrun ", 0), 0u) << version.out;
}

TEST_F(CliTest, QuietMeansEmptyStderr) {
  write("g.txt", small_graph);
  write("p.txt", "1 2\n2 3\n");
  for (const std::string command :
       {"pagerank g.txt --quiet --output r.tsv", "bfs p.txt --source 1 -q", "info g.txt --quiet",
        "convert g.txt g.grb --quiet", "convert p.txt p.mtx --quiet"}) {
    SCOPED_TRACE(command);
    const Result r = run(command);
    EXPECT_EQ(r.status, 0) << describe(r);
    EXPECT_EQ(r.err, "");
  }
}

}  // namespace
