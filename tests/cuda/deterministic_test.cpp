// SpgemmOptions::deterministic (--deterministic): the GPU SpGEMM adds each
// C(i,j)'s products in ascending k, so C is the same bits run after run and
// the same sums as a sequential Gustavson loop (cpu::spgemm_reference) —
// over every row group (team, warp, block, bitmap and global-memory rows),
// float and double, and with the numeric phase cut into row chunks. Also
// the algorithms that build on it: contraction with a deterministic context.
// Skips where there is no CUDA backend or no GPU.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "graphrun/algorithms/contract.hpp"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/kernels/cpu/spgemm_reference.hpp"
#include "support/random_graphs.hpp"

#if defined(GRAPHRUN_HAVE_CUDA)
#include "graphrun/kernels/cuda/spgemm.hpp"
#endif

namespace graphrun {
namespace {

#if defined(GRAPHRUN_HAVE_CUDA)

class CudaDeterministic : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }
};

// Same structure and the same bits in every value.
template <class V>
bool identical(const Csr<V>& x, const Csr<V>& y) {
  if (x.row_ptr() != y.row_ptr() || x.col_idx() != y.col_idx() ||
      x.values().size() != y.values().size())
    return false;
  for (std::size_t e = 0; e < x.values().size(); ++e)
    if (std::bit_cast<typename std::conditional_t<sizeof(V) == 8, std::uint64_t, std::uint32_t>>(
            x.values()[e]) !=
        std::bit_cast<typename std::conditional_t<sizeof(V) == 8, std::uint64_t, std::uint32_t>>(
            y.values()[e]))
      return false;
  return true;
}

// The sums of a sequential Gustavson loop (cpu::spgemm_reference): the same
// structure and every value equal as a number. Not bit for bit: the test
// matrices hold explicit zeros, and a sum whose products are all -0 is -0
// on the CPU (its accumulator starts from the first product) but +0 here
// (a slot starts from +0, and +0 + -0 = +0).
template <class T>
void expect_same_sums(const Csr<T>& c, const Csr<T>& a, const Csr<T>& b, const std::string& what) {
  const Csr<T> ref = cpu::spgemm_reference<PlusTimes<T>>(a.view(), b.view());
  ASSERT_EQ(c.row_ptr(), ref.row_ptr()) << what;
  ASSERT_EQ(c.col_idx(), ref.col_idx()) << what;
  std::int64_t bad = 0;
  for (std::size_t e = 0; e < c.values().size(); ++e)
    if (!(c.values()[e] == ref.values()[e]) && ++bad <= 3)
      ADD_FAILURE() << what << ": entry " << e << " is " << c.values()[e] << ", the CPU's "
                    << ref.values()[e];
  EXPECT_EQ(bad, 0) << what << ": sums not those of the sequential loop";
}

// Runs A·B three times deterministically (with the options given) and
// expects the same bits each time, and the sequential loop's sums.
template <class T>
void check(const Csr<T>& a, const Csr<T>& b, cuda::SpgemmOptions options, const std::string& what) {
  options.deterministic = true;
  const DeviceCsr<T> da(a), db(b);
  Csr<T> first;
  for (int run = 0; run < 3; ++run) {
    cuda::SpgemmStats stats;
    const Csr<T> c = cuda::spgemm<PlusTimes<T>>(da, db, options, &stats).download();
    if (run == 0) {
      first = c;
      expect_same_sums(c, a, b, what);
    } else {
      EXPECT_TRUE(identical(c, first)) << what << ": run " << run << " differs from run 0";
    }
  }
}

using test::MatrixShape;
const MatrixShape kShapes[] = {MatrixShape::uniform, MatrixShape::empty_rows,
                               MatrixShape::heavy_row, MatrixShape::power_law, MatrixShape::banded};

TEST_F(CudaDeterministic, SpgemmEveryShapeAndGroup) {
  std::uint64_t seed = 91;
  for (MatrixShape shape : kShapes)
    for (double per_row : {2.0, 16.0, 64.0}) {
      const auto a = test::random_csr<double>(1500, 1500, shape, per_row, false, ++seed);
      const std::string what = test::to_string(shape) + " x" + std::to_string(per_row);
      check(a, a, {}, what);  // bitmap rows where they pay
      cuda::SpgemmOptions hash;
      hash.dense_rows = false;  // every long row in block or global hash tables
      check(a, a, hash, what + " (hash tables only)");
    }
}

TEST_F(CudaDeterministic, SpgemmFloat) {
  const auto a = test::random_csr<float>(2000, 2000, MatrixShape::power_law, 24, false, 5);
  check(a, a, {}, "power-law float");
}

TEST_F(CudaDeterministic, SpgemmRectangularAndChunked) {
  const auto a = test::random_csr<double>(900, 3000, MatrixShape::heavy_row, 40, false, 8);
  const auto b = test::random_csr<double>(3000, 700, MatrixShape::power_law, 30, false, 9);
  check(a, b, {}, "rectangular");
  // A row of ~20000 distinct columns: past the shared-memory tables, into
  // the global-memory group and its segmented sort.
  const auto wide = test::random_csr<double>(300, 20000, MatrixShape::heavy_row, 20, false, 10);
  const auto tall = test::random_csr<double>(20000, 20000, MatrixShape::power_law, 8, false, 11);
  cuda::SpgemmOptions hash;
  hash.dense_rows = false;
  check(wide, tall, hash, "global-memory rows");
  cuda::SpgemmOptions chunked;
  chunked.dense_rows = false;
  chunked.workspace_limit_bytes = 1 << 16;  // the numeric phase in many row chunks
  check(a, b, chunked, "rectangular, chunked");
}

TEST_F(CudaDeterministic, ContractionRunsAreBitIdentical) {
  const Graph g = test::random_graph(test::GraphShape::power_law, 5000, 12, true, true, 3);
  const auto labels = consecutive_labels(g.n_vertices(), 7);
  const vertex_t k = (g.n_vertices() + 6) / 7;
  Context ctx(Device::cuda);
  ctx.set_deterministic(true);
  const Csr<double> first = contract(ctx, g, labels, k).quotient;
  for (int run = 0; run < 2; ++run)
    EXPECT_TRUE(identical(contract(ctx, g, labels, k).quotient, first)) << "run " << run;
}

#else
TEST(CudaDeterministic, NeedsCudaBackend) { GTEST_SKIP() << "built without the CUDA backend"; }
#endif

}  // namespace
}  // namespace graphrun
