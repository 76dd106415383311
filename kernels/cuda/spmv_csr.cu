// CSR SpMV, `W` threads per row: W = 1 is the classic thread per row
// (coalescing only across rows); W = 2..32 is the "vector" kernel of Bell &
// Garland with sub-warps sized to the rows, so that short rows do not leave
// most of a warp idle and long rows are read in coalesced runs. The W
// partial sums of a row are combined by a butterfly of shuffles, in an order
// fixed by the row alone: the result does not depend on the launch.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <utility>

#include "graphrun/engine/cuda_check.hpp"
#include "spmv_carry.cuh"
#include "spmv_launch.cuh"
#include "spmv_semiring.cuh"

namespace graphrun::cuda::detail {

namespace {

constexpr int csr_block = 256;

template <class S, class T, int W, class X>
__global__ void __launch_bounds__(csr_block)
    csr_rows(CsrView<T> a, const X* __restrict__ x, typename S::value_type* __restrict__ y,
             Mask mask) {
  using D = DeviceSemiring<S>;
  const offset_t t = blockIdx.x * offset_t(csr_block) + threadIdx.x;
  const offset_t row = t / W;
  // The sub-warp's rows are the same for all its lanes, so it leaves as one.
  if (row >= a.n_rows) return;
  const auto i = static_cast<vertex_t>(row);
  if (!mask.allows(i)) return;
  const int lane = static_cast<int>(threadIdx.x % W);
  const offset_t begin = a.row_ptr[i], end = a.row_ptr[i + 1];
  auto acc = D::zero();
  for (offset_t k = begin + lane; k < end; k += W)
    acc = D::add(acc, product<S>(a.values, k, __ldg(a.col_idx + k), x));
  if constexpr (W > 1) {
    const unsigned lanes = ((W == 32) ? 0xffffffffu : ((1u << W) - 1u))
                           << ((threadIdx.x % 32) & ~unsigned(W - 1));
    for (int off = W / 2; off > 0; off /= 2) acc = D::add(acc, shfl_xor(lanes, acc, off, W));
  }
  if (lane == 0) y[i] = acc;
}

template <class S, class T, int W, class X>
void launch_width(const CsrView<T>& a, const X* x, typename S::value_type* y, Mask mask,
                  cudaStream_t stream) {
  const offset_t threads = offset_t(a.n_rows) * W;
  const auto grid = static_cast<unsigned>((threads + csr_block - 1) / csr_block);
  csr_rows<S, T, W, X><<<grid, csr_block, 0, stream>>>(a, x, y, mask);
}

// The widths csr_warp_width gives, W...; any other runs a full warp.
template <class S, class T, class X, int... W>
void launch_widths(std::integer_sequence<int, W...>, const CsrView<T>& a, int width, const X* x,
                   typename S::value_type* y, Mask mask, cudaStream_t stream) {
  const bool launched =
      ((width == W && (launch_width<S, T, W, X>(a, x, y, mask, stream), true)) || ...);
  if (!launched) launch_width<S, T, 32, X>(a, x, y, mask, stream);
}

}  // namespace

// Sub-warp width for csr-warp, from the H200 sweep of widths 2..32 in
// `graphrun bench spmv` (docs/bench/spmv-h200.md). Small matrices are
// latency-bound: the best width keeps about 2^19 threads busy (w16-w32 below
// ~16K rows, w8 near 37K, w2-w4 past 100K rows). Long rows want at least
// their mean in lanes (a row is then read in one coalesced pass).
int csr_warp_width(const RowStats& s) {
  const auto rows = static_cast<std::uint64_t>(std::max<vertex_t>(s.n_rows, 1));
  const std::uint64_t busy = std::bit_floor(std::max<std::uint64_t>((1u << 19) / rows, 1));
  const auto mean = static_cast<std::uint64_t>(std::min(s.mean, 32.0) + 0.999);
  const std::uint64_t w = std::max(busy, std::bit_ceil(std::max<std::uint64_t>(mean, 1)));
  return static_cast<int>(std::clamp<std::uint64_t>(w, 2, 32));
}

template <class S, class T, class X>
void launch_csr(const CsrView<T>& a, int width, const X* x, typename S::value_type* y, Mask mask,
                cudaStream_t stream) {
  if (a.n_rows == 0) return;
  launch_widths<S, T, X>(std::integer_sequence<int, 1, 2, 4, 8, 16>{}, a, width, x, y, mask,
                         stream);
  GRAPHRUN_CUDA_CHECK(cudaGetLastError());
}

#define GRAPHRUN_INSTANTIATE_GATHER(S, T, XT)                                                    \
  template void launch_csr<S, T, XT>(const CsrView<T>&, int, const XT*, typename S::value_type*, \
                                     Mask, cudaStream_t);
#define GRAPHRUN_INSTANTIATE(S, T) GRAPHRUN_INSTANTIATE_GATHER(S, T, typename S::value_type)
GRAPHRUN_CUDA_SPMV_COMBOS(GRAPHRUN_INSTANTIATE)
GRAPHRUN_CUDA_SPMV_GATHER_COMBOS(GRAPHRUN_INSTANTIATE_GATHER)
#undef GRAPHRUN_INSTANTIATE
#undef GRAPHRUN_INSTANTIATE_GATHER

}  // namespace graphrun::cuda::detail
