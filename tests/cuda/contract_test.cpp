// Graph contraction on the GPU against the CPU version: random graphs of
// several shapes (directed and undirected, weighted and not), random label
// maps including one cluster, empty clusters and the identity, loops kept
// and removed, the empty graph, and the graphs shipped in datasets/. Both
// run the same two SpGEMMs; the GPU adds in no fixed order (atomics), so the
// structure must be equal and the values within 1e-12 of the magnitude of
// what was summed; the product counts are equal. Skips where there is no
// CUDA backend or no GPU.
#include "graphrun/algorithms/contract.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/io/load.hpp"
#include "support/random_graphs.hpp"
#include "support/shared_graphs.hpp"

namespace graphrun {
namespace {

#if defined(GRAPHRUN_HAVE_CUDA)

using test::GraphShape;

class CudaContract : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }

  // GPU against CPU for one label map, loops kept and removed.
  void expect_same(const Graph& g, const std::vector<vertex_t>& labels, vertex_t n_labels,
                   const std::string& what) {
    // Σ|A(u,v)| per quotient entry bounds the rounding of its sum.
    ContractResult magnitude;
    {
      std::vector<double> abs_values(g.adj().values().size());
      std::transform(g.adj().values().begin(), g.adj().values().end(), abs_values.begin(),
                     [](double x) { return std::abs(x); });
      const Graph abs_g(Csr<double>(g.n_vertices(), g.n_vertices(), g.adj().row_ptr(),
                                    g.adj().col_idx(), std::move(abs_values)),
                        {}, g.directed(), g.weighted());
      magnitude = contract(cpu_, abs_g, labels, n_labels, {.keep_loops = true});
    }
    for (bool keep_loops : {false, true}) {
      const std::string where =
          what + " n_labels=" + std::to_string(n_labels) + (keep_loops ? " keep_loops" : "");
      const ContractResult want = contract(cpu_, g, labels, n_labels, {.keep_loops = keep_loops});
      const ContractResult got = contract(gpu_, g, labels, n_labels, {.keep_loops = keep_loops});
      EXPECT_EQ(got.products, want.products) << where;
      EXPECT_GE(got.compute_seconds, 0.0) << where;
      EXPECT_LE(got.compute_seconds, got.seconds) << where;
      const Csr<double>& c = got.quotient;
      const Csr<double>& w = want.quotient;
      ASSERT_EQ(c.n_rows(), w.n_rows()) << where;
      ASSERT_EQ(c.n_cols(), w.n_cols()) << where;
      ASSERT_EQ(c.row_ptr(), w.row_ptr()) << where;
      ASSERT_EQ(c.col_idx(), w.col_idx()) << where;
      ASSERT_EQ(c.values().size(), w.values().size()) << where;
      for (vertex_t k = 0; k < c.n_rows(); ++k)
        for (offset_t e = c.row_ptr()[k]; e < c.row_ptr()[k + 1]; ++e) {
          const vertex_t l = c.col_idx()[e];
          // The magnitude matrix keeps the loops: find (k, l) in it.
          const auto cols = magnitude.quotient.row_cols(k);
          const auto at = std::lower_bound(cols.begin(), cols.end(), l) - cols.begin();
          const double m = magnitude.quotient.values()[magnitude.quotient.row_ptr()[k] + at];
          ASSERT_NEAR(c.values()[e], w.values()[e], 1e-12 * std::max(1.0, m))
              << where << " C(" << k << "," << l << ")";
        }
    }
  }

  void check_label_maps(const Graph& g, std::uint64_t seed, const std::string& what) {
    const vertex_t n = g.n_vertices();
    test::Rng rng(seed);
    expect_same(g, std::vector<vertex_t>(static_cast<std::size_t>(n), 0), 1, what + " one");
    for (vertex_t k : {vertex_t(3), n / 20 + 1, n / 2 + 1}) {
      std::vector<vertex_t> labels(static_cast<std::size_t>(n));
      for (vertex_t& l : labels) l = static_cast<vertex_t>(rng.below(k));
      expect_same(g, labels, k, what + " random");
      // Every other cluster empty, and labels only in the first half.
      for (vertex_t& l : labels) l = static_cast<vertex_t>(2 * rng.below((k + 1) / 2));
      expect_same(g, labels, 2 * k + 1, what + " empty clusters");
    }
    std::vector<vertex_t> identity(static_cast<std::size_t>(n));
    for (vertex_t v = 0; v < n; ++v) identity[v] = v;
    if (n > 0) expect_same(g, identity, n, what + " identity");
  }

  Context cpu_{Device::cpu, 2};
  Context gpu_{Device::cuda};
};

TEST_F(CudaContract, MatchesCpuOnRandomGraphs) {
  struct Case {
    GraphShape shape;
    vertex_t n;
    double avg_degree;
  };
  const Case cases[] = {
      {GraphShape::erdos_renyi, 1, 1},     {GraphShape::erdos_renyi, 500, 3},
      {GraphShape::erdos_renyi, 20000, 8}, {GraphShape::power_law, 30000, 10},
      {GraphShape::star, 5001, 1},         {GraphShape::disconnected, 4000, 6},
      {GraphShape::chain, 1000, 1},
  };
  std::uint64_t seed = 9100;
  for (const Case& c : cases)
    for (bool directed : {true, false})
      for (bool weighted : {false, true}) {
        const Graph g = test::random_graph(c.shape, c.n, c.avg_degree, directed, weighted, ++seed);
        check_label_maps(g, seed,
                         test::to_string(c.shape) + " n=" + std::to_string(c.n) +
                             (directed ? " directed" : " undirected") +
                             (weighted ? " weighted" : ""));
      }
}

// Weights of both signs and stored zeros: entries that cancel stay stored.
TEST_F(CudaContract, MixedSignWeights) {
  std::uint64_t seed = 9200;
  for (test::MatrixShape shape :
       {test::MatrixShape::uniform, test::MatrixShape::heavy_row, test::MatrixShape::power_law}) {
    const Graph g(test::random_csr<double>(3000, 3000, shape, 8, false, ++seed), {}, true, true);
    check_label_maps(g, seed, "mixed signs " + test::to_string(shape));
  }
}

TEST_F(CudaContract, EmptyGraph) {
  const Graph g;
  const ContractResult r = contract(gpu_, g, std::span<const vertex_t>{}, 4, {.keep_loops = true});
  EXPECT_EQ(r.quotient.n_rows(), 4);
  EXPECT_EQ(r.quotient.nnz(), 0);
  EXPECT_EQ(r.products, 0);
  const Graph isolated(Csr<double>(3, 3, {0, 0, 0, 0}, {}, {}), {}, true, false);
  EXPECT_EQ(contract(gpu_, isolated, std::vector<vertex_t>{0, 1, 0}, 2).quotient.nnz(), 0);
}

TEST_F(CudaContract, BadLabelsAreArgumentErrors) {
  const Graph g = test::random_graph(GraphShape::chain, 10, 1, true, false, 9300);
  std::vector<vertex_t> labels(10, 0);
  labels[3] = 5;
  EXPECT_THROW(contract(gpu_, g, labels, 5), ArgumentError);
  EXPECT_THROW(contract(gpu_, g, labels, 0), ArgumentError);
}

TEST_F(CudaContract, ShippedGraphs) {
  std::uint64_t seed = 9400;
  for (const auto& file : test::shipped_graph_files())
    for (bool undirected : {false, true}) {
      io::LoadOptions options;
      options.undirected = undirected;
      const Graph g = io::load_graph(file.string(), options);
      check_label_maps(g, ++seed,
                       file.filename().string() + (undirected ? " undirected" : " as read"));
    }
}

#endif  // GRAPHRUN_HAVE_CUDA

// Every build: without a CUDA backend (or GPU) the GPU path is a clear error.
TEST(CudaContractAvailability, NoBackendOrDeviceIsADeviceError) {
  if (cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device is present";
  Context gpu(Device::cuda);
  const Graph g(Csr<double>(3, 3, {0, 1, 2, 3}, {1, 2, 0}, {}), {}, true, false);
  EXPECT_THROW(contract(gpu, g, std::vector<vertex_t>{0, 1, 0}, 2), DeviceError);
}

}  // namespace
}  // namespace graphrun
