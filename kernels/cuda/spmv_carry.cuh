// The carry-out fix-up shared by the tiled kernels (COO, merge-path). A row
// whose entries span several blocks is closed by the block holding its last
// entry, which writes that block's part; every earlier block leaves its part
// as a carry (row, value). Carries of one row are adjacent (blocks are in
// row order), so the first block of each run adds the run, in block order,
// to y: deterministic, and no atomics (which would not serve every semiring).
#pragma once

#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/kernels/mask.hpp"
#include "spmv_launch.cuh"
#include "spmv_semiring.cuh"

namespace graphrun::cuda::detail {

template <class S>
__global__ void carry_fixup(const vertex_t* __restrict__ carry_row,
                            const typename S::value_type* __restrict__ carry_val, offset_t blocks,
                            typename S::value_type* __restrict__ y, Mask mask) {
  using D = DeviceSemiring<S>;
  const offset_t p = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  if (p >= blocks) return;
  const vertex_t r = carry_row[p];
  if (r < 0 || (p > 0 && carry_row[p - 1] == r)) return;
  if (!mask.allows(r)) return;
  auto v = carry_val[p];
  for (offset_t q = p + 1; q < blocks && carry_row[q] == r; ++q) v = D::add(v, carry_val[q]);
  y[r] = D::add(v, y[r]);
}

template <class S>
void launch_carry_fixup(Carries c, offset_t blocks, typename S::value_type* y, Mask mask,
                        cudaStream_t stream) {
  if (blocks <= 1) return;  // one block closes every row itself
  constexpr int block = 256;
  const auto grid = static_cast<unsigned>((blocks + block - 1) / block);
  carry_fixup<S><<<grid, block, 0, stream>>>(
      c.row, static_cast<const typename S::value_type*>(c.value), blocks, y, mask);
  GRAPHRUN_CUDA_CHECK(cudaGetLastError());
}

// A thread's partial sum of one row, and the segmented reduction that
// combines the partials of equal rows: with rows in non-decreasing order
// across threads (as in every tile) the operation is associative, so a CUB
// block scan gives each thread the sum of the same row's partials before it
// in O(log threads) steps. Partials of rows a thread did not reach are
// S::zero(), which no row's sum can notice (every row's sum starts from it,
// and zero ⊕ zero = zero in every semiring here).
template <class V>
struct RowPartial {
  vertex_t row;
  V value;
};

template <class S>
struct SegmentedAdd {
  __device__ __forceinline__ RowPartial<typename S::value_type> operator()(
      const RowPartial<typename S::value_type>& a,
      const RowPartial<typename S::value_type>& b) const {
    return b.row == a.row
               ? RowPartial<typename S::value_type>{b.row, DeviceSemiring<S>::add(a.value, b.value)}
               : b;
  }
};

// Shuffle for any value type (bytes travel as int).
template <class V>
__device__ __forceinline__ V shfl_xor(unsigned lanes, V v, int offset, int width) {
  if constexpr (sizeof(V) < sizeof(int)) {
    return static_cast<V>(__shfl_xor_sync(lanes, static_cast<int>(v), offset, width));
  } else {
    return __shfl_xor_sync(lanes, v, offset, width);
  }
}

}  // namespace graphrun::cuda::detail
