// Louvain on the GPU against the CPU's (which the algorithm tests hold to
// the textbook modularity and planted communities): where the weights are
// integers, the same communities, levels, sweeps and modularity bit for bit,
// on random graphs of every shape, directed and undirected, on a power-law
// graph with hubs, and on the shipped and shared real graphs; with
// fractional weights, the same first level and a modularity within 1e-9 of
// the textbook one; the same bits run to run; the resolution and the seed;
// the callback; small levels left to the CPU. Skips where there is no CUDA backend or no GPU.
#include "graphrun/algorithms/louvain.hpp"

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

// Every level on the GPU, however small (the default moves small levels
// on the CPU).
LouvainOptions seeded(std::uint64_t seed, double resolution = 1.0) {
  LouvainOptions o;
  o.seed = seed;
  o.resolution = resolution;
  o.gpu_min_entries = 0;
  return o;
}

// g with its weights rounded to integers 1..4: sums exact in any order.
Graph integer_weights(const Graph& g) {
  const Csr<double>& a = g.adj();
  std::vector<double> values(a.values().begin(), a.values().end());
  for (double& x : values) x = std::max(1.0, std::round(x));
  return Graph(Csr<double>(a.n_rows(), a.n_cols(), a.row_ptr(), a.col_idx(), std::move(values)), {},
               g.directed(), true);
}

class CudaLouvain : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }
  void expect_same(const Graph& g, const LouvainOptions& o, const std::string& where) {
    const LouvainResult want = louvain(cpu_, g, o);
    const LouvainResult got = louvain(gpu_, g, o);
    ASSERT_EQ(got.community, want.community) << where;
    EXPECT_EQ(got.n_communities, want.n_communities) << where;
    EXPECT_EQ(got.modularity, want.modularity) << where;
    EXPECT_EQ(got.level_modularity, want.level_modularity) << where;
    EXPECT_EQ(got.levels, want.levels) << where;
    EXPECT_EQ(got.sweeps, want.sweeps) << where;
    EXPECT_TRUE(got.complete) << where;
  }
  Context cpu_{Device::cpu, 2};
  Context gpu_{Device::cuda};
};

const test::GraphShape kShapes[] = {test::GraphShape::erdos_renyi,  test::GraphShape::power_law,
                                    test::GraphShape::chain,        test::GraphShape::star,
                                    test::GraphShape::disconnected, test::GraphShape::no_sinks};

class CudaLouvainRandom : public CudaLouvain,
                          public ::testing::WithParamInterface<std::tuple<test::GraphShape, bool>> {
};

TEST_P(CudaLouvainRandom, AsOnTheCpu) {
  const auto [shape, directed] = GetParam();
  for (double degree : {1.5, 8.0, 30.0})
    for (bool weighted : {false, true}) {
      Graph g = test::random_graph(shape, 4000, degree, directed, weighted,
                                   700 + static_cast<std::uint64_t>(shape));
      if (weighted) g = integer_weights(g);
      expect_same(g, seeded(3),
                  test::to_string(shape) + (directed ? " directed" : " undirected") +
                      (weighted ? " weighted" : "") + " degree " + std::to_string(degree));
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, CudaLouvainRandom,
                         ::testing::Combine(::testing::ValuesIn(kShapes), ::testing::Bool()),
                         [](const auto& shape_and_direction) {
                           return test::to_string(std::get<0>(shape_and_direction.param)) +
                                  (std::get<1>(shape_and_direction.param) ? "_directed"
                                                                          : "_undirected");
                         });

TEST_F(CudaLouvain, SeedsAndResolutionsAsOnTheCpu) {
  const Graph g = test::random_graph(test::GraphShape::power_law, 6000, 10, false, false, 8);
  for (std::uint64_t seed : {1, 2, 99})
    for (double gamma : {0.25, 1.0, 4.0})
      expect_same(g, seeded(seed, gamma),
                  "seed " + std::to_string(seed) + " resolution " + std::to_string(gamma));
}

// Hubs: rows of thousands of entries, groups of hundreds of thousands.
TEST_F(CudaLouvain, PowerLawWithHubsLarge) {
  const Graph g = test::random_graph(test::GraphShape::power_law, 300'000, 12, false, false, 29);
  expect_same(g, seeded(1), "power law 300k");
}

// Levels under gpu_min_entries on the CPU, the rest on the GPU: the same
// result.
TEST_F(CudaLouvain, SmallLevelsOnTheCpuSameResultLarge) {
  const Graph g = test::random_graph(test::GraphShape::power_law, 300'000, 12, true, false, 30);
  LouvainOptions o;
  o.gpu_min_entries = 1'000'000;
  expect_same(g, o, "levels of >= 1M entries on the GPU");
}

TEST_F(CudaLouvain, FractionalWeightsDeterministicAndClose) {
  const Graph g = test::random_graph(test::GraphShape::power_law, 20'000, 8, true, true, 41);
  const LouvainResult cpu = louvain(cpu_, g, seeded(2));
  const LouvainResult a = louvain(gpu_, g, seeded(2));
  const LouvainResult b = louvain(gpu_, g, seeded(2));
  EXPECT_EQ(a.community, b.community);
  EXPECT_EQ(a.modularity, b.modularity);
  // The first level is local moving on the input alone: the CPU's bits.
  ASSERT_FALSE(a.level_modularity.empty());
  EXPECT_EQ(a.level_modularity.front(), cpu.level_modularity.front());
  EXPECT_NEAR(a.modularity, modularity(cpu_, g, a.community), 1e-9);
  EXPECT_NEAR(a.modularity, cpu.modularity, 2e-3);
}

TEST_F(CudaLouvain, CallbackStops) {
  const Graph g = test::random_graph(test::GraphShape::power_law, 20'000, 8, false, false, 4);
  LouvainOptions o = seeded(1);
  o.on_iteration = [](const IterationInfo& info) { return info.iteration < 1; };
  const LouvainResult got = louvain(gpu_, g, o);
  const LouvainResult want = louvain(cpu_, g, o);
  EXPECT_FALSE(got.complete);
  EXPECT_EQ(got.levels, 1);
  EXPECT_EQ(got.community, want.community);
}

TEST_F(CudaLouvain, LoopsAloneAndTwoVertices) {
  const Graph loops = test::weighted_graph(3, {0, 1, 2}, {0, 1, 2}, {1.0, 1.0, 1.0});
  const LouvainResult r = louvain(gpu_, loops, seeded(1));
  EXPECT_EQ(r.community, (std::vector<vertex_t>{0, 1, 2}));  // loops are ignored: singletons
  EXPECT_EQ(r.modularity, 0.0);
  const Graph pair = test::weighted_graph(3, {0, 1, 1}, {1, 0, 1}, {2.0, 2.0, 5.0});
  expect_same(pair, seeded(1), "one edge and a loop");
}

TEST_F(CudaLouvain, ShippedAndSharedGraphsLarge) {
  const int checked = test::for_each_real_graph({}, [&](const Graph& g, const std::string& name) {
    const CsrView<double> a = g.adj().view();
    const bool integers = !a.values || std::all_of(a.values, a.values + a.nnz, [](double x) {
      return x >= 0 && x == std::round(x);
    });
    if (!integers) return false;
    expect_same(g, seeded(1), name);
    return true;
  });
  EXPECT_GE(checked, 8);
}

#endif  // GRAPHRUN_HAVE_CUDA

}  // namespace
}  // namespace graphrun
