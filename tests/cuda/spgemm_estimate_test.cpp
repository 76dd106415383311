// estimate_spgemm for the GPU against the GPU SpGEMM itself: the same
// intermediate products and global-memory rows, a largest pool allocation
// no larger than the estimated phases, and a pool high-water mark during the
// call within the estimated peak less the inputs (uploaded before it). On
// products whose nnz(C) reaches the bound the numeric figure is the
// allocation itself, but for CUB's scratch, which the estimate over-counts.
// Skips where there is no CUDA backend or no GPU.
#include "graphrun/kernels/spgemm_estimate.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/semiring.hpp"
#include "support/random_graphs.hpp"

#if defined(GRAPHRUN_HAVE_CUDA)
#include <cuda_runtime_api.h>

#include "graphrun/engine/device_csr.hpp"
#include "graphrun/kernels/cuda/spgemm.hpp"
#endif

namespace graphrun {
namespace {

#if defined(GRAPHRUN_HAVE_CUDA)
using test::MatrixShape;
using test::random_csr;

class CudaSpgemmEstimate : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }
};

std::size_t pool_used(cudaMemPool_t pool, cudaMemPoolAttr attr) {
  std::uint64_t v = 0;
  EXPECT_EQ(cudaMemPoolGetAttribute(pool, attr, &v), cudaSuccess);
  return static_cast<std::size_t>(v);
}

// `tight`: no global tables, so the estimate may exceed the pool's high-water
// mark only by C's entries above the bound and by CUB's scratch.
void expect_estimate_holds(const Csr<double>& a, const Csr<double>& b, const std::string& what,
                           bool tight) {
  SCOPED_TRACE(what);
  const SpgemmEstimate e =
      estimate_spgemm<PlusTimes<double>>(a.view(), b.view(), {.device = Device::cuda});
  const DeviceCsr<double> da(a), db(b);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  int device = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  cudaMemPool_t pool;
  ASSERT_EQ(cudaDeviceGetDefaultMemPool(&pool, device), cudaSuccess);
  std::uint64_t zero = 0;
  ASSERT_EQ(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero), cudaSuccess);
  const std::size_t before = pool_used(pool, cudaMemPoolAttrUsedMemCurrent);

  cuda::SpgemmStats st;
  const DeviceCsr<double> dc = cuda::spgemm<PlusTimes<double>>(da, db, &st);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::size_t high = pool_used(pool, cudaMemPoolAttrUsedMemHigh);

  EXPECT_EQ(st.intermediate_products, e.intermediate_products);
  EXPECT_LE(st.nnz_c, e.nnz_c_bound);
  EXPECT_EQ(st.global_rows, e.gpu_symbolic_global_rows);
  const SpgemmMemoryEstimate& m = e.memory;
  EXPECT_LE(st.workspace_bytes, std::max({m.analysis, m.symbolic, m.numeric}));
  // The inputs were uploaded before `before`, wherever they came from.
  const std::size_t used = high - std::min(high, before);
  EXPECT_LE(used, m.peak - m.inputs);
  if (tight) {
    const auto over_bound =
        static_cast<std::size_t>(e.nnz_c_bound - st.nnz_c) * (sizeof(vertex_t) + sizeof(double));
    const std::size_t cub_slack = 4096 + static_cast<std::size_t>(a.n_rows()) / 4;
    EXPECT_LE(m.peak - m.inputs - used, over_bound + cub_slack);
  }
  std::printf(
      "%s: IP %lld, nnz(C) %lld <= %lld; workspace %zu (estimated: analysis %zu, "
      "symbolic %zu, numeric %zu); pool high %zu of estimated %zu\n",
      what.c_str(), static_cast<long long>(st.intermediate_products),
      static_cast<long long>(st.nnz_c), static_cast<long long>(e.nnz_c_bound), st.workspace_bytes,
      m.analysis, m.symbolic, m.numeric, used, m.peak - m.inputs);
}

TEST_F(CudaSpgemmEstimate, RandomShapes) {
  for (MatrixShape shape : {MatrixShape::uniform, MatrixShape::empty_rows, MatrixShape::heavy_row,
                            MatrixShape::power_law, MatrixShape::banded}) {
    const auto a = random_csr<double>(3000, 3000, shape, 8, false, 7);
    expect_estimate_holds(a, a, test::to_string(shape), true);
  }
}

// B wider than one bitmap (2^19 columns): long rows take windowed bitmaps
// (600,000 columns) or, past 64 windows of 2^18 (2^24 + 2^18 + 1 columns),
// hash tables in global memory, in both phases.
TEST_F(CudaSpgemmEstimate, WindowedAndGlobalTables) {
  for (const vertex_t cols : {vertex_t{600000}, (vertex_t{1} << 24) + (vertex_t{1} << 18) + 1}) {
    for (MatrixShape shape : {MatrixShape::heavy_row, MatrixShape::power_law}) {
      const auto a = random_csr<double>(2000, 2000, shape, 40, false, 3);
      const auto b = random_csr<double>(2000, cols, MatrixShape::uniform, 30, false, 4);
      expect_estimate_holds(
          a, b, "B of " + std::to_string(cols) + " columns, " + test::to_string(shape), false);
    }
  }
}

#else
TEST(CudaSpgemmEstimate, NeedsTheCudaBackend) { GTEST_SKIP() << "built without CUDA"; }
#endif

}  // namespace
}  // namespace graphrun
