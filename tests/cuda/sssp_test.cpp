// Shortest paths on the GPU against the CPU's and Boost's Dijkstra: the
// near-far delta-stepping and the min-plus Bellman-Ford, equal distances
// (not close: one fixed point in double precision), on random graphs of
// every shape, directed and undirected, weighted and unweighted, with
// bucket widths from one per far split to one bucket for all; the negative
// weights, the callback, and the shipped and shared real graphs. Skips
// where there is no CUDA backend or no GPU.
#include "graphrun/algorithms/sssp.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "support/random_graphs.hpp"
#include "support/real_graphs.hpp"
#include "support/sssp_oracle.hpp"

namespace graphrun {
namespace {

#if defined(GRAPHRUN_HAVE_CUDA)

class CudaSssp : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }
  // The GPU's distances by both methods equal the CPU's delta-stepping.
  void expect_same(const Graph& g, vertex_t source, double delta, const std::string& where) {
    SsspOptions o;
    o.delta = delta;
    const SsspResult want = sssp(cpu_, g, source, o);
    const SsspResult got = sssp(gpu_, g, source, o);
    ASSERT_EQ(got.distance, want.distance) << where << " delta " << delta;
    EXPECT_EQ(got.reached, want.reached) << where;
    EXPECT_EQ(got.max_distance, want.max_distance) << where;
    if (delta > 0) {
      EXPECT_EQ(got.delta, want.delta) << where;  // automatic: the devices' c differ
    }
    EXPECT_TRUE(got.complete) << where;
    EXPECT_LE(got.compute_seconds, got.seconds) << where;
    o.method = SsspMethod::bellman_ford;
    const SsspResult bf = sssp(gpu_, g, source, o);
    ASSERT_EQ(bf.distance, want.distance) << where << " bellman-ford";
  }
  Context cpu_{Device::cpu, 2};
  Context gpu_{Device::cuda};
};

const test::GraphShape kShapes[] = {test::GraphShape::erdos_renyi,  test::GraphShape::power_law,
                                    test::GraphShape::chain,        test::GraphShape::star,
                                    test::GraphShape::disconnected, test::GraphShape::no_sinks};

class CudaSsspRandom : public CudaSssp,
                       public ::testing::WithParamInterface<std::tuple<test::GraphShape, bool>> {};

TEST_P(CudaSsspRandom, AsOnTheCpu) {
  const auto [shape, directed] = GetParam();
  for (bool weighted : {true, false})
    for (double degree : {1.5, 6.0}) {
      // A chain of 400: hundreds of buckets at delta 0.01, each a grid
      // barrier of the device loop, which the sanitizers' runs can afford;
      // DeviceLoopLeavesAndResumesLarge has the deep chain.
      const vertex_t n = shape == test::GraphShape::chain ? 400 : 4000;
      const Graph g = test::random_graph(shape, n, degree, directed, weighted,
                                         500 + static_cast<std::uint64_t>(shape));
      const std::string where = test::to_string(shape) + (directed ? " directed" : " undirected") +
                                (weighted ? " weighted" : "") + " degree " + std::to_string(degree);
      for (double delta : {0.0, 0.01, 1e9}) expect_same(g, n / 3, delta, where);
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, CudaSsspRandom,
                         ::testing::Combine(::testing::ValuesIn(kShapes), ::testing::Bool()),
                         [](const auto& shape_and_direction) {
                           return test::to_string(std::get<0>(shape_and_direction.param)) +
                                  (std::get<1>(shape_and_direction.param) ? "_directed"
                                                                          : "_undirected");
                         });

// Hubs of many thousand edges (the push's edge-balanced split), checked
// against Boost so that a mistake shared with the CPU cannot pass.
TEST_F(CudaSssp, PowerLawAsDijkstraLarge) {
  for (bool directed : {true, false}) {
    const Graph g =
        test::random_graph(test::GraphShape::power_law, 200'000, 8.0, directed, true, 9);
    const std::vector<double> want = test::boost_dijkstra(g, 0);
    EXPECT_EQ(sssp(gpu_, g, 0).distance, want) << directed;
    SsspOptions bf;
    bf.method = SsspMethod::bellman_ford;
    EXPECT_EQ(sssp(gpu_, g, 0, bf).distance, want) << directed;
  }
}

TEST_F(CudaSssp, NegativeWeightsRefused) {
  const Graph g = test::weighted_graph(4, {0, 1, 3}, {1, 2, 0}, {1.0, -2.0, -5.0});
  for (SsspMethod m : {SsspMethod::delta_stepping, SsspMethod::bellman_ford}) {
    SsspOptions o;
    o.method = m;
    try {
      sssp(gpu_, g, 0, o);
      ADD_FAILURE() << "a negative weight was accepted";
    } catch (const ArgumentError& e) {
      EXPECT_NE(std::string(e.what()).find("1 -> 2 has weight -2"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(sssp(gpu_, g, 2).reached, 1);  // the search reads no negative edge
}

TEST_F(CudaSssp, CallbackSeesEveryBucketAndStops) {
  const Graph g = test::random_graph(test::GraphShape::chain, 50, 1, true, false, 1);
  SsspOptions o;
  o.delta = 1;
  int calls = 0;
  o.on_iteration = [&calls](const IterationInfo& info) {
    EXPECT_EQ(info.iteration, ++calls);
    return true;
  };
  SsspResult r = sssp(gpu_, g, 0, o);
  EXPECT_EQ(calls, 50);
  EXPECT_EQ(r.iterations, 50);
  for (SsspMethod m : {SsspMethod::delta_stepping, SsspMethod::bellman_ford}) {
    o.method = m;
    o.on_iteration = [](const IterationInfo& info) { return info.iteration < 10; };
    r = sssp(gpu_, g, 0, o);
    EXPECT_FALSE(r.complete);
    EXPECT_EQ(r.iterations, 10);
    EXPECT_EQ(r.distance[5], 5);
    EXPECT_TRUE(std::isinf(r.distance[49]));
  }
}

// A search that leaves the device-side loop and comes back: a chain from
// the source (thin steps, on the device), a hub of more edges than the loop
// takes, a fan of 100,000 vertices (a near queue fatter than the loop's
// grid: steps on the host), a second fan as wide, then a long chain off it
// (thin again), with weights 1..255 so that buckets split the far pile on
// both sides. The distances are Dijkstra's, and the loop ends the same
// buckets as the host's steps alone (a callback keeps the search there).
TEST_F(CudaSssp, DeviceLoopLeavesAndResumesLarge) {
  const vertex_t chain = 100, fan = 100'000, tail = 3000;
  const vertex_t hub = chain, first = hub + 1, second = first + fan, end = second + fan;
  const vertex_t n = end + tail;
  std::vector<vertex_t> row, col;
  std::vector<double> val;
  std::uint64_t state = 12345;
  const auto weight = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(1 + (state >> 33) % 255);
  };
  const auto add = [&](vertex_t u, vertex_t v) {
    const double w = weight();
    row.insert(row.end(), {u, v});
    col.insert(col.end(), {v, u});
    val.insert(val.end(), {w, w});
  };
  for (vertex_t v = 0; v < chain; ++v) add(v, v + 1);  // 0 .. hub
  for (vertex_t i = 0; i < fan; ++i) {
    add(hub, first + i);
    add(first + i, second + i);
  }
  add(second + fan / 2, end);
  for (vertex_t v = end; v + 1 < n; ++v) add(v, v + 1);
  Coo<double> coo;
  coo.n_rows = coo.n_cols = n;
  coo.row = std::move(row);
  coo.col = std::move(col);
  coo.val = std::move(val);
  const Graph g(Csr<double>::from_coo(coo), {}, false, true);
  const std::vector<double> want = test::boost_dijkstra(g, 0);
  for (double delta : {0.0, 1.0, 300.0}) {
    SsspOptions o;
    o.delta = delta;
    const SsspResult looped = sssp(gpu_, g, 0, o);
    ASSERT_EQ(looped.distance, want) << "delta " << delta;
    EXPECT_TRUE(looped.complete);
    o.on_iteration = [](const IterationInfo&) { return true; };
    const SsspResult stepped = sssp(gpu_, g, 0, o);
    ASSERT_EQ(stepped.distance, want) << "delta " << delta;
    EXPECT_EQ(looped.iterations, stepped.iterations) << "delta " << delta;
    EXPECT_GT(looped.iterations, 1) << "delta " << delta;
  }
}

// A 5-point grid, thousands of thin buckets deep (the loop's case), with
// random weights: Dijkstra's distances, the host's buckets.
TEST_F(CudaSssp, GridAsDijkstraLarge) {
  const Graph grid = test::grid_graph(300, 300);
  std::vector<double> w(grid.adj().col_idx().size());
  const Csr<double>& a = grid.adj();
  for (vertex_t u = 0; u < a.n_rows(); ++u)
    for (offset_t k = a.row_ptr()[u]; k < a.row_ptr()[u + 1]; ++k) {
      const vertex_t v = a.col_idx()[k];
      const auto lo = static_cast<std::uint64_t>(std::min(u, v)),
                 hi = static_cast<std::uint64_t>(std::max(u, v));
      w[static_cast<std::size_t>(k)] =
          static_cast<double>(1 + (lo * 2654435761ULL + hi * 40503ULL) % 255);  // symmetric
    }
  const Graph g(Csr<double>(a.n_rows(), a.n_cols(), a.row_ptr(), a.col_idx(), w), {}, false, true);
  const std::vector<double> want = test::boost_dijkstra(g, 0);
  for (double delta : {0.0, 2.0}) {
    SsspOptions o;
    o.delta = delta;
    const SsspResult looped = sssp(gpu_, g, 0, o);
    ASSERT_EQ(looped.distance, want) << "delta " << delta;
    o.on_iteration = [](const IterationInfo&) { return true; };
    EXPECT_EQ(looped.iterations, sssp(gpu_, g, 0, o).iterations) << "delta " << delta;
  }
}

TEST_F(CudaSssp, ShippedAndSharedGraphsLarge) {
  const int checked = test::for_each_real_graph(test::taken_undirected(true),
                                                [&](const Graph& g, const std::string& name) {
                                                  bool negative = false;
                                                  if (!g.is_pattern())
                                                    for (double w : g.adj().values())
                                                      negative = negative || w < 0;
                                                  if (negative) return false;
                                                  expect_same(g, 0, 0, name);
                                                  return true;
                                                });
  EXPECT_GE(checked, 8);
}

#endif  // GRAPHRUN_HAVE_CUDA

// Every build: without a CUDA backend (or GPU) the GPU path is a clear error.
TEST(CudaSsspAvailability, NoBackendOrDeviceIsADeviceError) {
  if (cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device is present";
  Context gpu(Device::cuda);
  const Graph g(Csr<double>(3, 3, {0, 1, 2, 3}, {1, 2, 0}, {}), {}, true, false);
  EXPECT_THROW(sssp(gpu, g, 0), DeviceError);
}

}  // namespace
}  // namespace graphrun
