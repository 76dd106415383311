// Triangles on the GPU against the CPU's and the textbook loop: equal
// totals, per-vertex counts and degrees (integers: equal, not close) on
// random graphs of every shape, directed (the device folds both directions
// and removes repeats) and undirected, a clique and a band, the total-only
// run, and the shipped and shared real graphs. Skips where there is no
// CUDA backend or no GPU.
#include "graphrun/algorithms/triangles.hpp"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "support/random_graphs.hpp"
#include "support/real_graphs.hpp"
#include "support/triangles_oracle.hpp"

namespace graphrun {
namespace {

#if defined(GRAPHRUN_HAVE_CUDA)

class CudaTriangles : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }
  // The GPU's counts equal the CPU's, with and without the per-vertex ones.
  void expect_same(const Graph& g, const std::string& where) {
    const TriangleResult want = triangles(cpu_, g);
    const TriangleResult got = triangles(gpu_, g);
    EXPECT_EQ(got.total, want.total) << where;
    EXPECT_EQ(got.edges, want.edges) << where;
    ASSERT_EQ(got.degree, want.degree) << where;
    ASSERT_EQ(got.per_vertex, want.per_vertex) << where;
    EXPECT_EQ(got.clustering, want.clustering) << where;  // same integers, same formula
    EXPECT_LE(got.compute_seconds, got.seconds) << where;
    const TriangleResult total_only = triangles(gpu_, g, {.per_vertex = false});
    EXPECT_EQ(total_only.total, want.total) << where;
    EXPECT_TRUE(total_only.per_vertex.empty()) << where;
  }
  Context cpu_{Device::cpu, 2};
  Context gpu_{Device::cuda};
};

const test::GraphShape kShapes[] = {test::GraphShape::erdos_renyi,  test::GraphShape::power_law,
                                    test::GraphShape::chain,        test::GraphShape::star,
                                    test::GraphShape::disconnected, test::GraphShape::no_sinks};

class CudaTrianglesRandom
    : public CudaTriangles,
      public ::testing::WithParamInterface<std::tuple<test::GraphShape, bool>> {};

TEST_P(CudaTrianglesRandom, AsOnTheCpu) {
  const auto [shape, directed] = GetParam();
  for (double degree : {1.5, 12.0, 50.0}) {
    const vertex_t n = degree > 20 ? 2000 : 6000;
    const Graph g = test::random_graph(shape, n, degree, directed, false,
                                       700 + static_cast<std::uint64_t>(shape));
    expect_same(g, test::to_string(shape) + (directed ? " directed" : " undirected") + " degree " +
                       std::to_string(degree));
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, CudaTrianglesRandom,
                         ::testing::Combine(::testing::ValuesIn(kShapes), ::testing::Bool()),
                         [](const auto& shape_and_direction) {
                           return test::to_string(std::get<0>(shape_and_direction.param)) +
                                  (std::get<1>(shape_and_direction.param) ? "_directed"
                                                                          : "_undirected");
                         });

// Hubs of thousands of neighbours, checked against the textbook loop so that
// a mistake shared with the CPU cannot pass.
TEST_F(CudaTriangles, PowerLawAsReferenceLarge) {
  for (bool directed : {true, false}) {
    const Graph g =
        test::random_graph(test::GraphShape::power_law, 100'000, 12.0, directed, false, 17);
    const test::TriangleOracle want = test::reference_triangles(g);
    const TriangleResult got = triangles(gpu_, g);
    EXPECT_EQ(got.total, want.total) << directed;
    EXPECT_EQ(got.per_vertex, want.per_vertex) << directed;
    EXPECT_EQ(got.degree, want.degree) << directed;
  }
}

// A clique of 300 given one way round plus the other way for some edges, and
// loops: C(300, 3) triangles, every row of L as long as it can be.
TEST_F(CudaTriangles, CliqueWithRepeatsAndLoops) {
  const vertex_t k = 300;
  std::vector<vertex_t> row, col;
  for (vertex_t u = 0; u < k; ++u)
    for (vertex_t v = u + 1; v < k; ++v) {
      row.push_back(v), col.push_back(u);
      if ((u + v) % 7 == 0) row.push_back(u), col.push_back(v);
    }
  for (vertex_t u = 0; u < k; u += 3) row.push_back(u), col.push_back(u);
  const Graph g = test::weighted_graph(k, row, col, std::vector<double>(row.size(), 1.0));
  const TriangleResult r = triangles(gpu_, g);
  EXPECT_EQ(r.total, 300ull * 299 * 298 / 6);
  for (vertex_t v = 0; v < k; ++v) ASSERT_EQ(r.per_vertex[v], 299ull * 298 / 2) << v;
  expect_same(g, "clique");
}

// A grid with one diagonal in every cell, undirected: flat degrees, so the
// count runs on the graph's own ids (no renumbering); two triangles a cell,
// and a vertex's count is the number of cells' triangles it is a corner of.
TEST_F(CudaTriangles, TriangulatedGridOnItsOwnIds) {
  const vertex_t side = 150, n = side * side;
  std::vector<vertex_t> row, col;
  const auto add = [&](vertex_t u, vertex_t v) {
    row.insert(row.end(), {u, v});
    col.insert(col.end(), {v, u});
  };
  for (vertex_t r = 0; r < side; ++r)
    for (vertex_t c = 0; c < side; ++c) {
      const vertex_t v = r * side + c;
      if (c + 1 < side) add(v, v + 1);
      if (r + 1 < side) add(v, v + side);
      if (r + 1 < side && c + 1 < side) add(v, v + side + 1);
    }
  Coo<double> coo;
  coo.n_rows = coo.n_cols = n;
  coo.row = std::move(row);
  coo.col = std::move(col);
  const Graph g(Csr<double>::from_coo(coo), {}, false, false);
  const TriangleResult r = triangles(gpu_, g);
  EXPECT_EQ(r.total, 2ull * (side - 1) * (side - 1));
  EXPECT_EQ(r.per_vertex[0], 2u);         // the corner of the cell's two triangles
  EXPECT_EQ(r.per_vertex[side + 1], 6u);  // an inner vertex: six around it
  EXPECT_EQ(r.per_vertex[side - 1], 1u);  // the other corner: one
  expect_same(g, "triangulated grid");
}

TEST_F(CudaTriangles, ShippedAndSharedGraphsLarge) {
  int checked = 0;
  for (bool undirected : {false, true})
    checked += test::for_each_real_graph(test::taken_undirected(undirected),
                                         [&](const Graph& g, const std::string& name) {
                                           expect_same(g, name + (undirected ? " undirected" : ""));
                                           return true;
                                         });
  EXPECT_GE(checked, 8);
}

#endif  // GRAPHRUN_HAVE_CUDA

// Every build: without a CUDA backend (or GPU) the GPU path is a clear error.
TEST(CudaTrianglesAvailability, NoBackendOrDeviceIsADeviceError) {
  if (cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device is present";
  Context gpu(Device::cuda);
  const Graph g(Csr<double>(3, 3, {0, 1, 2, 3}, {1, 2, 0}, {}), {}, true, false);
  EXPECT_THROW(triangles(gpu, g), DeviceError);
}

}  // namespace
}  // namespace graphrun
