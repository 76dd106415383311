// graphrun pagerank --start: an earlier run's --output read back as the
// starting ranks. From the converged ranks the run stops after one iteration
// at the same ranks; from a graph that gained an edge it converges in fewer
// iterations than from scratch; a bad start file exits 2 naming FILE:LINE and
// writes nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <sstream>
#include <string>

#include "cli_support.hpp"

namespace {

using graphrun::test::describe;
using graphrun::test::slurp;

class PageRankStart : public graphrun::test::CliFixture {
 protected:
  // "ID<TAB>RANK" lines -> rank by id.
  std::map<std::string, double> ranks(const std::string& file) {
    std::map<std::string, double> r;
    std::istringstream in(slurp(work_ / file));
    std::string id;
    double x = 0;
    while (in >> id >> x) r[id] = x;
    return r;
  }
  // The iteration count in the summary line.
  static int iterations(const std::string& err) {
    const auto p = err.find(" iteration");
    if (p == std::string::npos) return -1;
    const auto b = err.rfind(' ', p - 1);
    return std::stoi(err.substr(b + 1, p - b - 1));
  }
};

const std::string kGraph =
    "1 2\n2 3\n3 1\n3 4\n4 5\n5 3\n5 6\n6 1\n6 7\n7 8\n8 6\n2 8\n4 9\n9 10\n10 4\n";

TEST_F(PageRankStart, FromTheAnswerOneIterationSameRanks) {
  write("g.txt", kGraph);
  // Converged: its last L1 change is below --tol, so the next one is too
  // (the iteration contracts the L1 change by the damping factor).
  const auto cold = run("pagerank g.txt --tol 1e-12 --max-iter 1000 -o cold.tsv");
  ASSERT_EQ(cold.status, 0) << describe(cold);
  ASSERT_GT(iterations(cold.err), 10) << cold.err;
  ASSERT_NE(cold.err.find("(converged"), std::string::npos) << cold.err;
  const auto warm = run("pagerank g.txt --tol 1e-12 --start cold.tsv -o warm.tsv");
  ASSERT_EQ(warm.status, 0) << describe(warm);
  EXPECT_EQ(iterations(warm.err), 1) << warm.err;
  EXPECT_NE(warm.err.find("start cold.tsv"), std::string::npos) << warm.err;
  const auto a = ranks("cold.tsv"), b = ranks("warm.tsv");
  ASSERT_EQ(a.size(), 10u);
  ASSERT_EQ(b.size(), a.size());
  for (const auto& [id, x] : a) EXPECT_NEAR(b.at(id), x, 1e-12) << id;
}

TEST_F(PageRankStart, AChangedGraphConvergesSoonerToTheSameRanks) {
  write("g.txt", kGraph);
  write("g2.txt", kGraph + "10 11\n11 1\n");  // vertex 11 is new
  ASSERT_EQ(run("pagerank g.txt --tol 1e-12 --max-iter 1000 -o before.tsv").status, 0);
  const auto scratch = run("pagerank g2.txt --tol 1e-12 --max-iter 1000 -o scratch.tsv");
  ASSERT_EQ(scratch.status, 0) << describe(scratch);
  const auto warm =
      run("pagerank g2.txt --tol 1e-12 --max-iter 1000 --start before.tsv -o warm.tsv");
  ASSERT_EQ(warm.status, 0) << describe(warm);
  EXPECT_LT(iterations(warm.err), iterations(scratch.err)) << scratch.err << "\n" << warm.err;
  EXPECT_NE(warm.err.find("(1 vertex not in it, started at 0)"), std::string::npos) << warm.err;
  const auto a = ranks("scratch.tsv"), b = ranks("warm.tsv");
  ASSERT_EQ(b.size(), 11u);
  for (const auto& [id, x] : a) EXPECT_NEAR(b.at(id), x, 1e-11) << id;

  // Back to the smaller graph: vertex 11's line is skipped and counted.
  const auto back = run("pagerank g.txt --start warm.tsv -o back.tsv");
  ASSERT_EQ(back.status, 0) << describe(back);
  EXPECT_NE(back.err.find("(1 line for vertices not in the graph, skipped)"), std::string::npos)
      << back.err;
}

TEST_F(PageRankStart, BadStartFilesExit2NamingTheLineAndWriteNothing) {
  write("g.txt", kGraph);
  struct Case {
    const char* text;
    const char* expect;
  };
  const Case cases[] = {
      {"1 0.5\n2 -0.1\n", "bad.tsv:2: value '-0.1' is negative"},
      {"1 0.5\n2 nan\n", "bad.tsv:2: value 'nan' is not a finite number"},
      {"1 0.5\n1 0.5\n", "bad.tsv:2: vertex '1' appears twice"},
      {"1 0.5 3\n", "bad.tsv:1: expected 2 fields"},
      {"", "bad.tsv: no 'ID<TAB>VALUE' line"},
      {"1 0\n2 0\n99 1\n", "bad.tsv: no vertex of the graph has a rank above 0"},
  };
  for (const Case& c : cases) {
    write("bad.tsv", c.text);
    const auto r = run("pagerank g.txt --start bad.tsv -o out.tsv");
    EXPECT_EQ(r.status, 2) << c.text << "\n" << describe(r);
    EXPECT_NE(r.err.find(c.expect), std::string::npos) << c.text << "\n" << r.err;
    EXPECT_EQ(work_files(), (std::set<std::string>{"g.txt", "bad.tsv"})) << c.text;
  }
  const auto absent = run("pagerank g.txt --start absent.tsv");
  EXPECT_EQ(absent.status, 2) << describe(absent);
  EXPECT_NE(absent.err.find("absent.tsv"), std::string::npos) << absent.err;
}

TEST_F(PageRankStart, HelpExplainsIt) {
  const auto r = run("pagerank --help");
  ASSERT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("--start FILE"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("scaled to sum 1"), std::string::npos) << r.out;
}

}  // namespace
