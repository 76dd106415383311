// Core numbers on the CPU against Boost.Graph's core_numbers on the
// undirected simple view, on random graphs of every shape, directed (the
// view merges both directions) and undirected, on several thread counts;
// hand-made graphs whose cores are known; the callback.
#include "graphrun/algorithms/kcore.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "support/kcore_oracle.hpp"
#include "support/random_graphs.hpp"

namespace graphrun {
namespace {

using test::GraphShape;

struct Case {
  GraphShape shape;
  vertex_t n;
  double degree;
};

const Case cases[] = {
    {GraphShape::erdos_renyi, 3000, 1.2}, {GraphShape::erdos_renyi, 5000, 12},
    {GraphShape::power_law, 20000, 8},    {GraphShape::chain, 2000, 1},
    {GraphShape::star, 3000, 1},          {GraphShape::disconnected, 8000, 6},
    {GraphShape::no_sinks, 4000, 2},
};

TEST(Kcore, EqualsBoost) {
  for (const Case& c : cases)
    for (bool directed : {true, false})
      for (int threads : {1, 2, 5}) {
        const Graph g = test::random_graph(c.shape, c.n, c.degree, directed, false, 13 + c.n);
        const std::string where = test::to_string(c.shape) + " n=" + std::to_string(c.n) +
                                  (directed ? " directed" : " undirected") +
                                  " threads=" + std::to_string(threads);
        Context ctx(Device::cpu, threads);
        const KcoreResult r = core_numbers(ctx, g);
        const std::vector<vertex_t> want = test::boost_core_numbers(g);
        ASSERT_EQ(r.core, want) << where;
        vertex_t top = 0, in_top = 0;
        for (vertex_t k : want) top = std::max(top, k);
        for (vertex_t k : want) in_top += k == top;
        EXPECT_EQ(r.degeneracy, top) << where;
        EXPECT_EQ(r.in_top_core, in_top) << where;
        EXPECT_TRUE(r.complete) << where;
      }
}

// A 5-clique (core 4) with a tail 4 -> 5 -> 6 (core 1), a triangle 7, 8, 9
// given one way round with a repeated edge and a self loop (core 2), and an
// isolated vertex 10 (core 0).
TEST(Kcore, KnownCores) {
  std::vector<vertex_t> row, col;
  for (vertex_t u = 0; u < 5; ++u)
    for (vertex_t v = u + 1; v < 5; ++v) row.push_back(u), col.push_back(v);
  for (auto [u, v] : {std::pair{4, 5}, {5, 6}, {7, 8}, {8, 9}, {9, 7}, {7, 8}, {9, 9}, {10, 10}})
    row.push_back(u), col.push_back(v);
  const Graph g = test::weighted_graph(11, row, col, std::vector<double>(row.size(), 1.0));
  Context ctx(Device::cpu, 2);
  const KcoreResult r = core_numbers(ctx, g);
  EXPECT_EQ(r.core, (std::vector<vertex_t>{4, 4, 4, 4, 4, 1, 1, 2, 2, 2, 0}));
  EXPECT_EQ(r.degeneracy, 4);
  EXPECT_EQ(r.in_top_core, 5);
  EXPECT_EQ(r.iterations, 4);  // levels 0, 1, 2 and 4: the empty level 3 is skipped
}

TEST(Kcore, CallbackSeesLevelsAndStops) {
  const Graph g = test::random_graph(GraphShape::power_law, 5000, 10, false, false, 3);
  Context ctx(Device::cpu, 2);
  const KcoreResult full = core_numbers(ctx, g);
  ASSERT_GT(full.iterations, 3);
  KcoreOptions o;
  int calls = 0;
  o.on_iteration = [&calls](const IterationInfo& info) {
    EXPECT_EQ(info.iteration, ++calls);
    EXPECT_GT(info.frontier, 0);
    return info.iteration < 2;
  };
  const KcoreResult r = core_numbers(ctx, g, o);
  EXPECT_EQ(calls, 2);
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.iterations, 2);
  // What was peeled is final; the rest is marked -1.
  vertex_t left = 0;
  for (std::size_t v = 0; v < r.core.size(); ++v) {
    if (r.core[v] < 0)
      ++left;
    else
      EXPECT_EQ(r.core[v], full.core[v]) << v;
  }
  EXPECT_GT(left, 0);
}

TEST(Kcore, EmptyGraphAndNoGpu) {
  Context ctx(Device::cpu, 2);
  const KcoreResult r = core_numbers(ctx, Graph());
  EXPECT_TRUE(r.core.empty());
  EXPECT_EQ(r.degeneracy, 0);
  if (cuda_device_count() > 0) return;  // tests/cuda/kcore_test.cpp runs the GPU's
  Context gpu(Device::cuda);
  const Graph g = test::random_graph(GraphShape::chain, 10, 1, false, false, 1);
  EXPECT_THROW(core_numbers(gpu, g), DeviceError);
}

}  // namespace
}  // namespace graphrun
