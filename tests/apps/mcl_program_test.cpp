// Running van Dongen's `mcl`: on Zachary's karate club it returns a valid
// clustering of all 34 members into a handful of clusters, the same on a
// second run; two disjoint triangles come back as exactly the two triangles,
// with an isolated vertex appended as a singleton. The cases that need mcl
// skip when it is not installed (CI installs it); the failure paths run
// with stand-ins (`false`, `true`, a missing program) and need no mcl.
#include "anchors/mcl_program.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "graphrun/algorithms/cluster_compare.hpp"
#include "graphrun/engine/coo.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/io/load.hpp"

namespace graphrun::anchors {
namespace {

namespace fs = std::filesystem;

// Undirected pattern graph on n vertices from an edge list.
Csr<double> undirected(vertex_t n, const std::vector<std::pair<vertex_t, vertex_t>>& edges) {
  Coo<double> coo;
  coo.n_rows = coo.n_cols = n;
  for (auto [u, v] : edges) {
    coo.row.push_back(u), coo.col.push_back(v);
    coo.row.push_back(v), coo.col.push_back(u);
  }
  return Csr<double>::from_coo(coo);
}

// Every vertex in one cluster 0 .. n_clusters-1, and every cluster used.
void expect_valid(const MclProgramResult& r, std::size_t n) {
  ASSERT_EQ(r.cluster.size(), n);
  std::vector<int> size(std::size_t(r.n_clusters), 0);
  for (vertex_t c : r.cluster) {
    ASSERT_GE(c, 0);
    ASSERT_LT(c, r.n_clusters);
    ++size[std::size_t(c)];
  }
  EXPECT_TRUE(std::ranges::none_of(size, [](int s) { return s == 0; }));
}

// Points TMPDIR at a folder of the test's own, so that it can check that
// every run removes its temporary directory.
class Mcl : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/graphrun-mcl-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    const char* old = std::getenv("TMPDIR");
    if (old) old_tmpdir_ = old;
    had_tmpdir_ = old != nullptr;
    ::setenv("TMPDIR", dir_.c_str(), 1);
  }
  void TearDown() override {
    EXPECT_TRUE(fs::is_empty(dir_)) << "a temporary directory was left behind";
    if (had_tmpdir_)
      ::setenv("TMPDIR", old_tmpdir_.c_str(), 1);
    else
      ::unsetenv("TMPDIR");
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path dir_;
  std::string old_tmpdir_;
  bool had_tmpdir_ = false;
};

TEST_F(Mcl, KarateClub) {
  if (!mcl_program_available()) GTEST_SKIP() << "mcl is not installed (apt-get install mcl)";
  io::LoadOptions undirected_graph;
  undirected_graph.undirected = true;
  const Graph g =
      io::load_graph(GRAPHRUN_SOURCE_DIR "/datasets/karate/karate.txt.gz", undirected_graph);
  ASSERT_EQ(g.n_vertices(), 34);
  std::vector<std::string> labels;
  for (vertex_t v = 0; v < g.n_vertices(); ++v) labels.push_back(std::to_string(g.input_id(v)));

  const MclProgramResult r = run_mcl_program(g.adj(), labels, {});
  expect_valid(r, 34);
  EXPECT_GE(r.n_clusters, 2);
  EXPECT_LE(r.n_clusters, 8);
  EXPECT_GT(r.seconds, 0.0);

  const MclProgramResult again = run_mcl_program(g.adj(), labels, {.threads = 1});
  EXPECT_TRUE(same_clustering(r.cluster, again.cluster));  // mcl is deterministic
}

TEST_F(Mcl, TwoTrianglesAndAnIsolatedVertex) {
  if (!mcl_program_available()) GTEST_SKIP() << "mcl is not installed (apt-get install mcl)";
  const Csr<double> adj = undirected(7, {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}});
  const MclProgramResult r = run_mcl_program(adj, {"a", "b", "c", "d", "e", "f", "g"}, {});
  expect_valid(r, 7);
  EXPECT_EQ(r.n_clusters, 3);
  const std::vector<vertex_t> expect{0, 0, 0, 1, 1, 1, 2};
  EXPECT_TRUE(same_clustering(r.cluster, expect));
  EXPECT_EQ(r.cluster[6], 2);  // vertex g has no edge: a singleton after mcl's clusters
}

TEST_F(Mcl, MissingProgramIsAClearError) {
  const std::string program = "graphrun-test-no-such-mcl";
  EXPECT_FALSE(mcl_program_available(program));
  EXPECT_FALSE(mcl_program_available("/nonexistent/mcl"));
  const Csr<double> adj = undirected(2, {{0, 1}});
  try {
    run_mcl_program(adj, {"a", "b"}, {.program = program});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("was not found"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("apt-get install mcl"), std::string::npos) << e.what();
  }
}

TEST_F(Mcl, FailingProgramIsAnError) {
  const Csr<double> adj = undirected(2, {{0, 1}});
  ASSERT_TRUE(mcl_program_available("false"));
  try {
    run_mcl_program(adj, {"a", "b"}, {.program = "false"});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("exited with status 1"), std::string::npos) << e.what();
  }
  // Exit status 0 without an output file (what mcl does on a bad option).
  EXPECT_THROW(run_mcl_program(adj, {"a", "b"}, {.program = "true"}), Error);
}

TEST_F(Mcl, BadArguments) {
  const Csr<double> adj = undirected(2, {{0, 1}});
  EXPECT_THROW(run_mcl_program(adj, {"a"}, {}), ArgumentError);
  EXPECT_THROW(run_mcl_program(adj, {"a", "b c"}, {}), ArgumentError);
  EXPECT_THROW(run_mcl_program(adj, {"a", ""}, {}), ArgumentError);
  EXPECT_THROW(run_mcl_program(adj, {"a", "a"}, {}), ArgumentError);
  EXPECT_THROW(run_mcl_program(adj, {"a", "b"}, {.inflation = 1.0}), ArgumentError);
  EXPECT_THROW(run_mcl_program(adj, {"a", "b"}, {.threads = 0}), ArgumentError);
  EXPECT_THROW(run_mcl_program(adj, {"a", "b"}, {.recover_percent = 101}), ArgumentError);
}

}  // namespace
}  // namespace graphrun::anchors
