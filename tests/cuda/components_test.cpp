// Connected components on the GPU against the CPU's (equal labels: both
// name a component by its smallest vertex), weak and strong, on random
// graphs of every shape, directed and undirected, on rows long enough for
// the warp and block queues, on graphs whose strong components need many
// colouring rounds, and on the shipped and shared real graphs. Skips where
// there is no CUDA backend or no GPU.
#include "graphrun/algorithms/components.hpp"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "support/components_oracle.hpp"
#include "support/random_graphs.hpp"
#include "support/real_graphs.hpp"

namespace graphrun {
namespace {

#if defined(GRAPHRUN_HAVE_CUDA)

class CudaComponents : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }
  void expect_same(const Graph& g, bool strong, const std::string& where) {
    ComponentsOptions o;
    o.strong = strong;
    const ComponentsResult want = connected_components(cpu_, g, o);
    const ComponentsResult got = connected_components(gpu_, g, o);
    ASSERT_EQ(got.component, want.component) << where << (strong ? " strong" : " weak");
    EXPECT_EQ(got.count, want.count) << where;
    EXPECT_EQ(got.largest, want.largest) << where;
    EXPECT_EQ(got.largest_component, want.largest_component) << where;
    EXPECT_TRUE(got.complete) << where;
    EXPECT_LE(got.compute_seconds, got.seconds) << where;
  }
  Context cpu_{Device::cpu, 2};
  Context gpu_{Device::cuda};
};

const test::GraphShape kShapes[] = {test::GraphShape::erdos_renyi,  test::GraphShape::power_law,
                                    test::GraphShape::chain,        test::GraphShape::star,
                                    test::GraphShape::disconnected, test::GraphShape::no_sinks};

class CudaComponentsRandom
    : public CudaComponents,
      public ::testing::WithParamInterface<std::tuple<test::GraphShape, bool>> {};

TEST_P(CudaComponentsRandom, WeakAndStrongAsOnTheCpu) {
  const auto [shape, directed] = GetParam();
  for (double degree : {0.7, 1.5, 6.0}) {
    const Graph g = test::random_graph(shape, 3000, degree, directed, false,
                                       300 + static_cast<std::uint64_t>(shape));
    const std::string where = test::to_string(shape) + (directed ? " directed" : " undirected") +
                              " degree " + std::to_string(degree);
    expect_same(g, false, where);
    expect_same(g, true, where);
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, CudaComponentsRandom,
                         ::testing::Combine(::testing::ValuesIn(kShapes), ::testing::Bool()),
                         [](const auto& shape_and_direction) {
                           return test::to_string(std::get<0>(shape_and_direction.param)) +
                                  (std::get<1>(shape_and_direction.param) ? "_directed"
                                                                          : "_undirected");
                         });

// Rows past 32 and 1024 entries take the warp and block queues; Boost
// checks the CPU's answer here too, so a shared mistake cannot pass.
TEST_F(CudaComponents, LongRowsAsBoostLarge) {
  for (bool directed : {true, false}) {
    const Graph g =
        test::random_graph(test::GraphShape::power_law, 200'000, 6.0, directed, false, 77);
    ComponentsOptions weak;
    const ComponentsResult r = connected_components(gpu_, g, weak);
    EXPECT_EQ(r.component, test::boost_weak_components(g)) << (directed ? "directed" : "");
    ComponentsOptions strong;
    strong.strong = true;
    const ComponentsResult s = connected_components(gpu_, g, strong);
    EXPECT_EQ(s.component, test::boost_strong_components(g)) << (directed ? "directed" : "");
  }
}

// Cycles of 3 joined in a chain by single edges: trimming removes nothing
// inside a cycle, so each colouring round assigns a few cycles; many rounds.
TEST_F(CudaComponents, ChainOfCyclesNeedsManyRounds) {
  const vertex_t cycles = 400, n = 3 * cycles;
  std::vector<vertex_t> row, col;
  for (vertex_t c = 0; c < cycles; ++c) {
    for (vertex_t i = 0; i < 3; ++i) row.push_back(3 * c + i), col.push_back(3 * c + (i + 1) % 3);
    if (c + 1 < cycles) row.push_back(3 * c), col.push_back(3 * c + 3);
  }
  const Graph g = test::weighted_graph(n, row, col, std::vector<double>(row.size(), 1.0));
  ComponentsOptions o;
  o.strong = true;
  int calls = 0;
  o.on_iteration = [&calls](const IterationInfo& info) {
    ++calls;
    EXPECT_EQ(info.iteration, calls);
    return true;
  };
  const ComponentsResult r = connected_components(gpu_, g, o);
  EXPECT_EQ(r.count, cycles);
  EXPECT_EQ(r.largest, 3);
  EXPECT_EQ(r.component, test::boost_strong_components(g));
  EXPECT_EQ(calls, r.iterations);
  EXPECT_GT(r.iterations, 1);

  // Stopped after the first round: what is known, the rest singletons.
  o.on_iteration = [](const IterationInfo&) { return false; };
  const ComponentsResult stopped = connected_components(gpu_, g, o);
  EXPECT_FALSE(stopped.complete);
  EXPECT_EQ(stopped.iterations, 1);
  EXPECT_GT(stopped.count, cycles);
}

TEST_F(CudaComponents, EmptyGraph) {
  const ComponentsResult r = connected_components(gpu_, Graph());
  EXPECT_EQ(r.count, 0);
  EXPECT_TRUE(r.component.empty());
}

TEST_F(CudaComponents, ShippedAndSharedGraphsLarge) {
  int checked = 0;
  for (bool undirected : {false, true})
    checked += test::for_each_real_graph(
        test::taken_undirected(undirected), [&](const Graph& g, const std::string& name) {
          const std::string where = name + (undirected ? " undirected" : "");
          expect_same(g, false, where);
          expect_same(g, true, where);
          return true;
        });
  EXPECT_GE(checked, 8);
}

#endif  // GRAPHRUN_HAVE_CUDA

// Every build: without a CUDA backend (or GPU) the GPU path is a clear error.
TEST(CudaComponentsAvailability, NoBackendOrDeviceIsADeviceError) {
  if (cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device is present";
  Context gpu(Device::cuda);
  const Graph g(Csr<double>(3, 3, {0, 1, 2, 3}, {1, 2, 0}, {}), {}, true, false);
  EXPECT_THROW(connected_components(gpu, g), DeviceError);
}

}  // namespace
}  // namespace graphrun
