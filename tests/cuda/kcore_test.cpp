// Core numbers on the GPU against the CPU's (which the algorithm tests hold
// to Boost): the same core numbers, levels and sub-rounds on random graphs
// of every shape, directed (the device folds both directions and removes
// repeats) and undirected; the callback; the shipped and shared real graphs.
// Skips where there is no CUDA backend or no GPU.
#include "graphrun/algorithms/kcore.hpp"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "support/kcore_oracle.hpp"
#include "support/random_graphs.hpp"
#include "support/real_graphs.hpp"

namespace graphrun {
namespace {

#if defined(GRAPHRUN_HAVE_CUDA)

class CudaKcore : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }
  void expect_same(const Graph& g, const std::string& where) {
    const KcoreResult want = core_numbers(cpu_, g);
    const KcoreResult got = core_numbers(gpu_, g);
    ASSERT_EQ(got.core, want.core) << where;
    EXPECT_EQ(got.degeneracy, want.degeneracy) << where;
    EXPECT_EQ(got.in_top_core, want.in_top_core) << where;
    EXPECT_EQ(got.iterations, want.iterations) << where;
    EXPECT_EQ(got.rounds, want.rounds) << where;  // the same sets, sub-round by sub-round
    EXPECT_TRUE(got.complete) << where;
    EXPECT_LE(got.compute_seconds, got.seconds) << where;
  }
  Context cpu_{Device::cpu, 2};
  Context gpu_{Device::cuda};
};

const test::GraphShape kShapes[] = {test::GraphShape::erdos_renyi,  test::GraphShape::power_law,
                                    test::GraphShape::chain,        test::GraphShape::star,
                                    test::GraphShape::disconnected, test::GraphShape::no_sinks};

class CudaKcoreRandom : public CudaKcore,
                        public ::testing::WithParamInterface<std::tuple<test::GraphShape, bool>> {};

TEST_P(CudaKcoreRandom, AsOnTheCpu) {
  const auto [shape, directed] = GetParam();
  for (double degree : {1.5, 8.0, 40.0}) {
    const Graph g = test::random_graph(shape, 5000, degree, directed, false,
                                       300 + static_cast<std::uint64_t>(shape));
    expect_same(g, test::to_string(shape) + (directed ? " directed" : " undirected") + " degree " +
                       std::to_string(degree));
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, CudaKcoreRandom,
                         ::testing::Combine(::testing::ValuesIn(kShapes), ::testing::Bool()),
                         [](const auto& shape_and_direction) {
                           return test::to_string(std::get<0>(shape_and_direction.param)) +
                                  (std::get<1>(shape_and_direction.param) ? "_directed"
                                                                          : "_undirected");
                         });

// Hubs, against Boost so that a mistake shared with the CPU cannot pass.
TEST_F(CudaKcore, PowerLawAsBoostLarge) {
  for (bool directed : {true, false}) {
    const Graph g =
        test::random_graph(test::GraphShape::power_law, 200'000, 10.0, directed, false, 23);
    EXPECT_EQ(core_numbers(gpu_, g).core, test::boost_core_numbers(g)) << directed;
  }
}

TEST_F(CudaKcore, CallbackStops) {
  const Graph g = test::random_graph(test::GraphShape::power_law, 5000, 10, false, false, 3);
  const KcoreResult full = core_numbers(cpu_, g);
  ASSERT_GT(full.iterations, 3);
  KcoreOptions o;
  o.on_iteration = [](const IterationInfo& info) { return info.iteration < 2; };
  const KcoreResult r = core_numbers(gpu_, g, o);
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.iterations, 2);
  EXPECT_EQ(r.core, core_numbers(cpu_, g, o).core);  // the first two levels, the rest -1
}

TEST_F(CudaKcore, ShippedAndSharedGraphsLarge) {
  const int checked = test::for_each_real_graph({}, [&](const Graph& g, const std::string& name) {
    expect_same(g, name);
    return true;
  });
  EXPECT_GE(checked, 8);
}

#endif  // GRAPHRUN_HAVE_CUDA

}  // namespace
}  // namespace graphrun
