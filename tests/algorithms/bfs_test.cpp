// BFS levels against Boost.Graph's breadth_first_search (distances recorded
// on tree edges) on random graphs of several shapes, directed and
// undirected; parents checked for validity (an in-neighbour one level up);
// push-only (alpha = 0) and pull-only (alpha = beta = infinity) runs must
// give the same levels as the direction-optimizing default.
#include "graphrun/algorithms/bfs.hpp"

#include <gtest/gtest.h>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>
#include <limits>
#include <string>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "support/algorithm_oracles.hpp"
#include "support/random_graphs.hpp"

namespace graphrun {
namespace {

using test::GraphShape;

constexpr double inf = std::numeric_limits<double>::infinity();

struct Variant {
  std::string name;
  double alpha, beta;
};
const Variant variants[] = {{"default", 15.0, 18.0},
                            {"push_only", 0.0, 18.0},
                            {"pull_only", inf, inf},
                            {"eager", 1e6, 0.5}};

// Runs every variant × threads × parents on/off and checks all against Boost.
void check_graph(const Graph& g, vertex_t source, const std::string& what) {
  const std::vector<std::int32_t> expect = test::boost_bfs_levels(g, source);
  for (const Variant& var : variants) {
    for (int threads : {1, 2}) {
      for (bool parents : {false, true}) {
        Context ctx(Device::cpu, threads);
        BfsOptions o;
        o.alpha = var.alpha;
        o.beta = var.beta;
        o.parents = parents;
        const BfsResult r = bfs(ctx, g, source, o);
        const std::string where = what + " source=" + std::to_string(source) + " " + var.name +
                                  " threads=" + std::to_string(threads) +
                                  (parents ? " parents" : "");
        ASSERT_EQ(r.level, expect) << where;
        test::expect_valid_bfs(g, source, r, where);
        if (var.name == "push_only") {
          EXPECT_EQ(r.pull_steps, 0) << where;
        }
        if (var.name == "pull_only" && g.adj().row_length(source) > 0) {
          EXPECT_EQ(r.push_steps, 0) << where;
        }
      }
    }
  }
}

struct GraphCase {
  GraphShape shape;
  vertex_t n;
  double avg_degree;
};

TEST(Bfs, MatchesBoostOnRandomGraphs) {
  const GraphCase cases[] = {
      {GraphShape::erdos_renyi, 1, 1},     {GraphShape::erdos_renyi, 2, 1},
      {GraphShape::erdos_renyi, 300, 1.2}, {GraphShape::erdos_renyi, 3000, 8},
      {GraphShape::power_law, 5000, 6},    {GraphShape::power_law, 97, 3},
      {GraphShape::chain, 500, 1},         {GraphShape::star, 1001, 1},
      {GraphShape::disconnected, 2000, 4}, {GraphShape::no_sinks, 777, 2},
  };
  std::uint64_t seed = 100;
  for (const GraphCase& c : cases) {
    for (bool directed : {true, false}) {
      const Graph g = test::random_graph(c.shape, c.n, c.avg_degree, directed, false, ++seed);
      const std::string what = test::to_string(c.shape) + " n=" + std::to_string(c.n) +
                               (directed ? " directed" : " undirected");
      test::Rng rng(seed);
      for (vertex_t source : {vertex_t(0), static_cast<vertex_t>(rng.below(c.n)), c.n - 1})
        check_graph(g, source, what);
    }
  }
}

TEST(Bfs, WeightedGraphFollowsStructure) {
  // A weighted graph with a stored zero weight: BFS treats it as an edge in
  // both directions of traversal.
  Coo<double> coo;
  coo.n_rows = coo.n_cols = 4;
  coo.row = {0, 1, 2};
  coo.col = {1, 2, 3};
  coo.val = {2.0, 0.0, 1.5};
  const Graph g(Csr<double>::from_coo(coo), {}, true, true);
  check_graph(g, 0, "weighted chain with a zero weight");
  const Graph r = test::random_graph(GraphShape::power_law, 2000, 5, true, true, 77);
  check_graph(r, 1, "weighted power law");
}

TEST(Bfs, DirectionOptimizingUsesBothDirections) {
  const Graph g = test::random_graph(GraphShape::power_law, 20000, 8, false, false, 5);
  Context ctx(Device::cpu, 2);
  const BfsResult r = bfs(ctx, g, 0);
  EXPECT_GT(r.push_steps, 0);
  EXPECT_GT(r.pull_steps, 0);
  EXPECT_EQ(r.level, test::boost_bfs_levels(g, 0));
}

TEST(Bfs, ResultFields) {
  // 0 -> 1 -> 2, 3 isolated.
  Coo<double> coo;
  coo.n_rows = coo.n_cols = 4;
  coo.row = {0, 1};
  coo.col = {1, 2};
  const Graph g(Csr<double>::from_coo(coo), {}, true, false);
  Context ctx(Device::cpu, 1);
  BfsOptions o;
  o.parents = true;
  o.alpha = 0;  // push only: edges_examined is then exactly the frontier out-edges
  const BfsResult r = bfs(ctx, g, 0, o);
  EXPECT_EQ(r.level, (std::vector<std::int32_t>{0, 1, 2, -1}));
  EXPECT_EQ(r.parent, (std::vector<vertex_t>{0, 0, 1, -1}));
  EXPECT_EQ(r.depth, 3);
  EXPECT_EQ(r.reached, 3);
  EXPECT_EQ(r.edges_examined, 2);
  EXPECT_TRUE(bfs(ctx, g, 0).parent.empty());
  const BfsResult lone = bfs(ctx, g, 3, o);
  EXPECT_EQ(lone.level, (std::vector<std::int32_t>{-1, -1, -1, 0}));
  EXPECT_EQ(lone.parent, (std::vector<vertex_t>{-1, -1, -1, 3}));
  EXPECT_EQ(lone.depth, 1);
  EXPECT_EQ(lone.reached, 1);
}

TEST(Bfs, CallbackStopsEarly) {
  const Graph g = test::random_graph(GraphShape::chain, 100, 1, true, false, 1);
  Context ctx(Device::cpu, 2);
  BfsOptions o;
  int calls = 0;
  o.on_iteration = [&](const IterationInfo& info) {
    ++calls;
    EXPECT_EQ(info.iteration, calls);
    EXPECT_EQ(info.frontier, 1);
    return calls < 5;
  };
  const BfsResult r = bfs(ctx, g, 0, o);
  EXPECT_EQ(calls, 5);
  EXPECT_EQ(r.reached, 6);
  EXPECT_EQ(r.level[5], 5);
  EXPECT_EQ(r.level[6], -1);
}

TEST(Bfs, ProgressHoldsTheLevelsDoneAndTheLastFrontier) {
  // A directed chain: every level finds one vertex; the last frontier, the
  // chain's end, has no out-edges, so the search stops with it.
  const Graph g = test::random_graph(GraphShape::chain, 40, 1, true, false, 1);
  Context ctx(Device::cpu, 2);
  StepProgress step;
  BfsOptions o;
  o.progress = &step;
  const BfsResult r = bfs(ctx, g, 0, o);
  EXPECT_EQ(r.depth, 40);
  EXPECT_EQ(step.iteration.load(), 39);
  EXPECT_EQ(step.frontier.load(), 1);
  // From the middle of an undirected chain the last level finds nothing.
  const Graph u = test::random_graph(GraphShape::chain, 41, 1, false, false, 1);
  const BfsResult ru = bfs(ctx, u, 20, o);
  EXPECT_EQ(ru.depth, 21);
  EXPECT_EQ(step.iteration.load(), ru.push_steps + ru.pull_steps);
  EXPECT_EQ(step.frontier.load(), 0);
}

TEST(Bfs, RejectsBadArguments) {
  const Graph g = test::random_graph(GraphShape::chain, 10, 1, true, false, 1);
  Context ctx(Device::cpu, 1);
  EXPECT_THROW(bfs(ctx, g, -1), ArgumentError);
  EXPECT_THROW(bfs(ctx, g, 10), ArgumentError);
  EXPECT_THROW(bfs(ctx, Graph(), 0), ArgumentError);
  BfsOptions o;
  o.alpha = -1;
  EXPECT_THROW(bfs(ctx, g, 0, o), ArgumentError);
  o.alpha = 15;
  o.beta = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(bfs(ctx, g, 0, o), ArgumentError);
}

}  // namespace
}  // namespace graphrun
