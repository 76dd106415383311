// Vertex orderings on the device against the host's, the reference: the
// same permutation for every method on every matrix shape (empty rows, one
// huge row, power-law, banded) and a shipped graph; the same renumbered
// matrix, sorted or handed to a transpose; and PageRank on the GPU under
// every ordering equal to the CPU's unreordered ranks by input vertex, with
// a start vector, on directed, undirected and weighted graphs.
#include "graphrun/engine/vertex_order.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "graphrun/algorithms/pagerank.hpp"
#include "graphrun/engine/device_csr.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/io/load.hpp"
#include "support/random_graphs.hpp"
#include "support/shared_graphs.hpp"

namespace graphrun {
namespace {

#if defined(GRAPHRUN_HAVE_CUDA)

constexpr Reorder methods[] = {Reorder::none, Reorder::degree, Reorder::hubsort,
                               Reorder::dbg,  Reorder::rcm,    Reorder::rabbit};

class DeviceVertexOrder : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }
};

void expect_same(const Csr<double>& got, const Csr<double>& want, const std::string& where) {
  EXPECT_EQ(got.row_ptr(), want.row_ptr()) << where;
  EXPECT_EQ(got.col_idx(), want.col_idx()) << where;
  EXPECT_EQ(got.values(), want.values()) << where;
}

TEST_F(DeviceVertexOrder, EqualsTheHostOrderingAndRenumberingOnEveryShape) {
  std::uint64_t seed = 21;
  for (auto shape :
       {test::MatrixShape::uniform, test::MatrixShape::empty_rows, test::MatrixShape::heavy_row,
        test::MatrixShape::power_law, test::MatrixShape::banded})
    for (vertex_t n : {0, 1, 1000, 300000})
      for (bool pattern : {false, true}) {
        const Csr<double> a =
            Csr<double>::from_coo(test::random_coo(n, n, shape, 6.0, pattern, seed++));
        const DeviceCsr<double> d(a);
        for (Reorder how : methods) {
          const std::string where = test::to_string(shape) + " n=" + std::to_string(n) +
                                    (pattern ? " pattern " : " valued ") +
                                    std::string(to_string(how));
          const std::vector<vertex_t> want = vertex_order(a.view(), how);
          const DeviceArray<vertex_t> order = device_vertex_order(d, how);
          ASSERT_EQ(order.download(), want) << where;
          const Csr<double> b = permute(a, want);
          expect_same(device_permute(d, order).download(), b, where + " sorted");
          // Unsorted rows are what a transpose takes.
          expect_same(device_transpose(device_permute(d, order, false)).download(), b.transpose(),
                      where + " unsorted, transposed");
        }
      }
}

TEST_F(DeviceVertexOrder, EqualsTheHostOnAShippedGraph) {
  const auto files = test::shipped_graph_files();
  ASSERT_FALSE(files.empty());
  const Graph g = io::load_graph(files.front().string());
  const DeviceCsr<double> d(g.adj());
  for (Reorder how : methods) {
    const std::vector<vertex_t> want = vertex_order(g.adj().view(), how);
    const DeviceArray<vertex_t> order = device_vertex_order(d, how);
    EXPECT_EQ(order.download(), want) << to_string(how);
    expect_same(device_permute(d, order).download(), permute(g.adj(), want),
                std::string(to_string(how)));
  }
  EXPECT_THROW(device_vertex_order(d, Reorder::automatic), ArgumentError);
}

double l1(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += std::abs(a[i] - b[i]);
  return s;
}

TEST_F(DeviceVertexOrder, PageRankUnderEveryOrderingEqualsTheCpuByInputVertex) {
  Context cpu(Device::cpu, 2), gpu(Device::cuda);
  std::uint64_t seed = 70;
  for (auto shape : {test::GraphShape::power_law, test::GraphShape::disconnected,
                     test::GraphShape::star, test::GraphShape::erdos_renyi})
    for (bool directed : {true, false})
      for (bool weighted : {false, true}) {
        const Graph g = test::random_graph(shape, 5000, 6.0, directed, weighted, seed++);
        PageRankOptions o;
        o.tol = 1e-13;
        o.reorder = Reorder::none;
        // Jacobi's passes, the same on both devices up to rounding: ranks
        // within 1e-12 (Chebyshev's ω follows the L1 changes' rounding).
        o.method = PageRankMethod::jacobi;
        const PageRankResult want = pagerank(cpu, g, o);
        // A start that is not uniform: it must be renumbered on the way in.
        std::vector<double> start(static_cast<std::size_t>(g.n_vertices()));
        for (std::size_t v = 0; v < start.size(); ++v) start[v] = 1.0 + static_cast<double>(v % 7);
        PageRankOptions s = o;
        s.start = start;
        const PageRankResult want_start = pagerank(cpu, g, s);
        for (Reorder how : methods) {
          const std::string where = test::to_string(shape) + (directed ? " directed" : "") +
                                    (weighted ? " weighted " : " ") + std::string(to_string(how));
          o.reorder = s.reorder = how;
          const PageRankResult got = pagerank(gpu, g, o);
          EXPECT_EQ(got.reorder, how) << where;
          EXPECT_LT(l1(got.rank, want.rank), 1e-12) << where;
          EXPECT_LT(l1(pagerank(gpu, g, s).rank, want_start.rank), 1e-12) << where;
          // The CPU runs an explicit ordering too.
          EXPECT_LT(l1(pagerank(cpu, g, o).rank, want.rank), 1e-12) << where << " on the CPU";
        }
        o.reorder = Reorder::automatic;
        const PageRankResult automatic = pagerank(gpu, g, o);
        EXPECT_EQ(automatic.reorder, choose_reorder(analyze(g.adj().view())));
        EXPECT_LT(l1(automatic.rank, want.rank), 1e-12);
      }
}

#else

TEST(DeviceVertexOrder, NeedsCuda) { GTEST_SKIP() << "built without CUDA"; }

#endif

}  // namespace
}  // namespace graphrun
