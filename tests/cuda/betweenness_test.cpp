// Betweenness on the GPU against the CPU's (which the algorithm tests hold
// to Boost): scores within 1e-12 relative (the GPU's warps sum in another
// order), the same sources, on random graphs of every shape, directed and
// undirected, exact and sampled; the callback; the shipped and shared real
// graphs from a sample of sources. Skips where there is no CUDA backend or
// no GPU.
#include "graphrun/algorithms/betweenness.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "support/random_graphs.hpp"
#include "support/real_graphs.hpp"

namespace graphrun {
namespace {

#if defined(GRAPHRUN_HAVE_CUDA)

class CudaBetweenness : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }
  void expect_same(const Graph& g, const BetweennessOptions& o, const std::string& where) {
    const BetweennessResult want = betweenness(cpu_, g, o);
    const BetweennessResult got = betweenness(gpu_, g, o);
    EXPECT_EQ(got.source, want.source) << where;
    ASSERT_EQ(got.score.size(), want.score.size()) << where;
    for (std::size_t v = 0; v < want.score.size(); ++v)
      ASSERT_NEAR(got.score[v], want.score[v], 1e-12 * (1 + std::abs(want.score[v])))
          << where << " vertex " << v;
    EXPECT_LE(got.compute_seconds, got.seconds) << where;
    EXPECT_EQ(betweenness(gpu_, g, o).score, got.score) << where << ": not the same twice";
  }
  Context cpu_{Device::cpu, 2};
  Context gpu_{Device::cuda};
};

const test::GraphShape kShapes[] = {test::GraphShape::erdos_renyi,  test::GraphShape::power_law,
                                    test::GraphShape::chain,        test::GraphShape::star,
                                    test::GraphShape::disconnected, test::GraphShape::no_sinks};

class CudaBetweennessRandom
    : public CudaBetweenness,
      public ::testing::WithParamInterface<std::tuple<test::GraphShape, bool>> {};

TEST_P(CudaBetweennessRandom, AsOnTheCpu) {
  const auto [shape, directed] = GetParam();
  const std::string where = test::to_string(shape) + (directed ? " directed" : " undirected");
  const Graph small = test::random_graph(shape, 400, 4, directed, false, 90);
  expect_same(small, {}, where + " exact");
  // A chain's every level is a host round trip: a short one is enough.
  const vertex_t n = shape == test::GraphShape::chain ? 3'000 : 50'000;
  const Graph large = test::random_graph(shape, n, 8, directed, false, 91);
  BetweennessOptions o;
  o.sources = 12;
  expect_same(large, o, where + " sampled");
}

INSTANTIATE_TEST_SUITE_P(Shapes, CudaBetweennessRandom,
                         ::testing::Combine(::testing::ValuesIn(kShapes), ::testing::Bool()),
                         [](const auto& shape_and_direction) {
                           return test::to_string(std::get<0>(shape_and_direction.param)) +
                                  (std::get<1>(shape_and_direction.param) ? "_directed"
                                                                          : "_undirected");
                         });

TEST_F(CudaBetweenness, CallbackStops) {
  const Graph g = test::random_graph(test::GraphShape::erdos_renyi, 300, 4, true, false, 2);
  BetweennessOptions o;
  o.on_iteration = [](const IterationInfo& info) { return info.iteration < 7; };
  const BetweennessResult r = betweenness(gpu_, g, o);
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.iterations, 7);
  expect_same(g, o, "stopped");
}

// Grids from a corner: the CPU's scores where the path counts fit a double
// (30 x 30: ~3e16), the same SizeError where they do not (600 x 600).
TEST_F(CudaBetweenness, GridPathCountsUpToADoublesRange) {
  BetweennessOptions o;
  o.from = {0};
  expect_same(test::grid_graph(30, 30), o, "30 x 30 grid");
  EXPECT_THROW(betweenness(gpu_, test::grid_graph(600, 600), o), SizeError);
}

TEST_F(CudaBetweenness, ShippedAndSharedGraphsLarge) {
  const int checked = test::for_each_real_graph(test::taken_undirected(true),
                                                [&](const Graph& g, const std::string& name) {
                                                  if (g.n_vertices() < 3) return false;
                                                  BetweennessOptions o;
                                                  o.sources = std::min<vertex_t>(g.n_vertices(), 8);
                                                  expect_same(g, o, name);
                                                  return true;
                                                });
  EXPECT_GE(checked, 8);
}

#endif  // GRAPHRUN_HAVE_CUDA

// Every build: without a CUDA backend (or GPU) the GPU path is a clear error.
TEST(CudaBetweennessAvailability, NoBackendOrDeviceIsADeviceError) {
  if (cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device is present";
  Context gpu(Device::cuda);
  const Graph g(Csr<double>(3, 3, {0, 1, 2, 3}, {1, 2, 0}, {}), {}, true, false);
  EXPECT_THROW(betweenness(gpu, g), DeviceError);
}

}  // namespace
}  // namespace graphrun
