// Markov clustering on the CPU: small graphs whose clusters are known, and
// the invariants (thread count, directed input merged with max, parameter
// checks). The comparison with van Dongen's mcl program, which runs through
// the anchors of the programs, is tests/apps/mcl_vs_program_test.cpp.
#include "graphrun/algorithms/mcl.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "graphrun/algorithms/cluster_compare.hpp"
#include "graphrun/engine/error.hpp"
#include "support/random_graphs.hpp"

namespace graphrun {
namespace {

// A graph from undirected weighted edges (u, v, w) on vertices 0..n-1.
Graph undirected_graph(vertex_t n, const std::vector<std::tuple<vertex_t, vertex_t, double>>& e) {
  Coo<double> coo;
  coo.n_rows = coo.n_cols = n;
  for (const auto& [u, v, w] : e) {
    coo.row.push_back(u);
    coo.col.push_back(v);
    coo.val.push_back(w);
    if (u != v) {
      coo.row.push_back(v);
      coo.col.push_back(u);
      coo.val.push_back(w);
    }
  }
  return Graph(Csr<double>::from_coo(coo), {}, false, true);
}

MclResult run(const Graph& g, const MclOptions& o = {}, int threads = 2) {
  Context ctx(Device::cpu, threads);
  return mcl(ctx, g, o);
}

// Two triangles joined by one edge: one cluster each.
TEST(Mcl, TwoTrianglesAndABridge) {
  const Graph g = undirected_graph(
      6, {{0, 1, 1}, {1, 2, 1}, {0, 2, 1}, {3, 4, 1}, {4, 5, 1}, {3, 5, 1}, {2, 3, 1}});
  const MclResult r = run(g);
  ASSERT_EQ(r.n_clusters, 2);
  EXPECT_EQ(r.cluster, (std::vector<vertex_t>{0, 0, 0, 1, 1, 1}));
  EXPECT_TRUE(r.converged);
  const auto lists = cluster_lists(r);
  EXPECT_EQ(lists[0], (std::vector<vertex_t>{0, 1, 2}));
}

// A path of five: the middle vertex flows to both ends' attractor systems;
// mcl cuts the overlap in favour of the first (largest) cluster.
TEST(Mcl, OverlapGoesToTheFirstCluster) {
  const Graph g = undirected_graph(5, {{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {3, 4, 1}});
  const MclResult r = run(g);
  EXPECT_EQ(r.cluster, (std::vector<vertex_t>{0, 0, 0, 1, 1}));
}

// Vertices without edges (or only a self loop, which mcl discards) are
// singletons; a zero weight is no edge.
TEST(Mcl, IsolatedVerticesAreSingletons) {
  const Graph g = undirected_graph(5, {{0, 1, 1}, {2, 2, 3}, {3, 4, 0}});
  const MclResult r = run(g);
  ASSERT_EQ(r.n_clusters, 4);
  EXPECT_EQ(r.cluster[0], 0);
  EXPECT_EQ(r.cluster[1], 0);
  EXPECT_EQ(r.cluster[2], 1);
  EXPECT_EQ(r.cluster[3], 2);
  EXPECT_EQ(r.cluster[4], 3);
}

TEST(Mcl, EmptyGraph) {
  const Graph g(Csr<double>(), {}, false, false);
  const MclResult r = run(g);
  EXPECT_EQ(r.n_clusters, 0);
  EXPECT_TRUE(r.cluster.empty());
}

// Columns are computed independently in a fixed order: the thread count
// changes nothing, down to the iteration count.
TEST(Mcl, ThreadCountDoesNotChangeTheResult) {
  const Graph g = test::flow_graph(test::GraphShape::power_law, 2000, 8, false, 77);
  const MclResult one = run(g, {}, 1), two = run(g, {}, 2), four = run(g, {}, 4);
  EXPECT_EQ(one.cluster, two.cluster);
  EXPECT_EQ(one.cluster, four.cluster);
  EXPECT_EQ(one.iterations, two.iterations);
  EXPECT_EQ(one.chaos, four.chaos);
}

// Renumbering before the loop (MclOptions::reorder) changes where each
// column lies, not what is computed: the limit is numbered back before it is
// read off, so clusters, their numbering and the overlap cut are by input
// vertex. (Only the order of a column's double sums changes; on these graphs
// no entry sits on a pruning threshold, so every result is the same.)
TEST(Mcl, ReorderingGivesTheSameClustersByInputVertex) {
  struct Case {
    test::GraphShape shape;
    bool directed;
  };
  for (const Case c :
       {Case{test::GraphShape::power_law, false}, Case{test::GraphShape::erdos_renyi, true},
        Case{test::GraphShape::disconnected, false}, Case{test::GraphShape::star, false}}) {
    const Graph g = test::flow_graph(c.shape, 600, 5, c.directed, 91);
    const MclResult plain = run(g);
    for (const Reorder how : {Reorder::rabbit, Reorder::rcm, Reorder::degree, Reorder::dbg,
                              Reorder::hubsort, Reorder::automatic}) {
      MclOptions o;
      o.reorder = how;
      const MclResult r = run(g, o);
      const std::string what = test::to_string(c.shape) + " " + std::string(to_string(how));
      EXPECT_EQ(r.cluster, plain.cluster) << what;
      EXPECT_EQ(r.n_clusters, plain.n_clusters) << what;
      EXPECT_EQ(r.iterations, plain.iterations) << what;
      EXPECT_EQ(r.products, plain.products) << what;
      EXPECT_GE(r.phases.reorder, 0.0) << what;
      // automatic: too few vertices to renumber.
      EXPECT_EQ(r.reorder, how == Reorder::automatic ? Reorder::none : how) << what;
    }
  }
  // The overlap cut of a path (the middle vertex to the first cluster) is
  // decided on input ids, whatever the ordering puts first.
  const Graph path = undirected_graph(5, {{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {3, 4, 1}});
  MclOptions o;
  o.reorder = Reorder::rcm;
  EXPECT_EQ(run(path, o).cluster, (std::vector<vertex_t>{0, 0, 0, 1, 1}));
  o.reorder = Reorder::degree;
  EXPECT_EQ(run(path, o).cluster, (std::vector<vertex_t>{0, 0, 0, 1, 1}));
}

// --reorder auto: rabbit where an edge's ids lie far apart (ids unrelated to
// the graph), none where they already follow it, and none for small graphs.
TEST(Mcl, AutomaticOrderingReadsHowScatteredTheIdsAre) {
  const Graph scattered = test::flow_graph(test::GraphShape::erdos_renyi, 6000, 6, false, 5);
  EXPECT_EQ(mcl_reorder_for(scattered.adj()), Reorder::rabbit);
  const Graph chain = test::flow_graph(test::GraphShape::chain, 6000, 2, false, 5);
  EXPECT_EQ(mcl_reorder_for(chain.adj()), Reorder::none);
  const Graph small = test::flow_graph(test::GraphShape::erdos_renyi, 1000, 6, false, 5);
  EXPECT_EQ(mcl_reorder_for(small.adj()), Reorder::none);
  EXPECT_EQ(mcl_reorder_for(Csr<double>()), Reorder::none);
  // The run reports what it used, and clusters as the unordered run does.
  MclOptions o;
  o.reorder = Reorder::automatic;
  const MclResult r = run(scattered, o);
  EXPECT_EQ(r.reorder, Reorder::rabbit);
  EXPECT_EQ(r.cluster, run(scattered).cluster);
  EXPECT_EQ(run(chain, o).reorder, Reorder::none);
}

// A directed graph is clustered as mcl reads it: both directions, the
// larger weight where the two differ.
TEST(Mcl, DirectedInputIsMergedWithTheLargerWeight) {
  Coo<double> coo;
  coo.n_rows = coo.n_cols = 6;
  auto arc = [&](vertex_t u, vertex_t v, double w) {
    coo.row.push_back(u);
    coo.col.push_back(v);
    coo.val.push_back(w);
  };
  arc(0, 1, 2), arc(1, 0, 5), arc(1, 2, 1), arc(2, 0, 3), arc(3, 4, 1), arc(4, 5, 4), arc(5, 3, 1),
      arc(2, 3, 0.5);
  const Graph directed(Csr<double>::from_coo(coo), {}, true, true);
  const Graph merged = undirected_graph(
      6, {{0, 1, 5}, {1, 2, 1}, {2, 0, 3}, {3, 4, 1}, {4, 5, 4}, {5, 3, 1}, {2, 3, 0.5}});
  const MclResult a = run(directed), b = run(merged);
  EXPECT_EQ(a.cluster, b.cluster);
  EXPECT_EQ(a.iterations, b.iterations);
  EXPECT_EQ(a.chaos, b.chaos);
}

TEST(Mcl, StopsWhenTheCallbackSaysSo) {
  const Graph g = test::flow_graph(test::GraphShape::erdos_renyi, 500, 6, false, 5);
  MclOptions o;
  int calls = 0;
  double last_elapsed = -1;
  o.on_iteration = [&](const IterationInfo& it) {
    EXPECT_EQ(it.iteration, calls + 1);
    EXPECT_GE(it.residual, 0.0);  // the chaos
    EXPECT_GT(it.nnz, 0);
    EXPECT_EQ(it.frontier, 0);
    EXPECT_GE(it.elapsed, last_elapsed);
    last_elapsed = it.elapsed;
    return ++calls < 2;
  };
  const MclResult r = run(g, o);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(r.iterations, 2);
  EXPECT_FALSE(r.converged);
  ASSERT_EQ(r.cluster.size(), 500u);
  for (vertex_t c : r.cluster) EXPECT_TRUE(c >= 0 && c < r.n_clusters);
}

// The iteration under way and the share of its columns expanded, filled
// from inside the expansion for a progress display.
TEST(Mcl, FillsStepProgressFromInsideTheExpansion) {
  const Graph g = test::flow_graph(test::GraphShape::erdos_renyi, 5000, 6, false, 5);
  StepProgress step;
  MclOptions o;
  o.progress = &step;
  int checked = 0;
  o.on_iteration = [&](const IterationInfo& it) {
    EXPECT_EQ(step.iteration.load(), it.iteration);
    EXPECT_EQ(step.fraction.load(), 1.0);
    ++checked;
    return true;
  };
  const MclResult r = run(g, o);
  EXPECT_EQ(checked, r.iterations);
  EXPECT_GT(checked, 0);
}

TEST(Mcl, RefusesBadParametersAndNegativeWeights) {
  const Graph g = undirected_graph(3, {{0, 1, 1}, {1, 2, 1}});
  auto with = [](auto set) {
    MclOptions o;
    set(o);
    return o;
  };
  EXPECT_THROW(run(g, with([](MclOptions& o) { o.inflation = 1.0; })), ArgumentError);
  EXPECT_THROW(run(g, with([](MclOptions& o) { o.inflation = NAN; })), ArgumentError);
  EXPECT_THROW(run(g, with([](MclOptions& o) { o.prune_number = 0; })), ArgumentError);
  EXPECT_THROW(run(g, with([](MclOptions& o) { o.select_number = -1; })), ArgumentError);
  EXPECT_THROW(run(g, with([](MclOptions& o) { o.recover_percent = 101; })), ArgumentError);
  EXPECT_THROW(run(g, with([](MclOptions& o) { o.max_iterations = 0; })), ArgumentError);
  const Graph negative = undirected_graph(3, {{0, 1, 1}, {1, 2, -1}});
  try {
    run(negative);
    FAIL() << "a negative weight was accepted";
  } catch (const ArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("non-negative"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace graphrun
