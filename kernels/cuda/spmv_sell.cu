// SELL-32-σ SpMV (engine/formats/sell.hpp), a warp per slice and a lane per
// row: entry j of a slice's 32 rows lies in 32 consecutive slots, so every
// load of columns (and values) is one coalesced line, and rows of like
// length side by side (sorted within windows of σ where lengths vary)
// leave few lanes idle. Each row's result goes to y(perm[r]), a row of the same window.
// Each row's slots summed by sum_slots (spmv_semiring.cuh), as ELL's. With
// column parts, a launch per part, in column order: the first writes y, the
// others add into it, each gathering from its own part of x.
#include "graphrun/engine/cuda_check.hpp"
#include "spmv_launch.cuh"
#include "spmv_semiring.cuh"

namespace graphrun::cuda::detail {

namespace {

constexpr int sell_block = 256;  // whole slices: a multiple of sell_chunk
static_assert(sell_block % sell_chunk == 0);

template <class S, class T, class X>
__global__ void __launch_bounds__(sell_block)
    sell_rows(SellView<T> a, vertex_t part, const X* __restrict__ x,
              typename S::value_type* __restrict__ y, Mask mask) {
  const offset_t r = blockIdx.x * offset_t(sell_block) + threadIdx.x;
  if (r >= a.n_rows) return;  // the last slice's positions past the last row
  const vertex_t i = __ldg(a.perm + r);
  if (!mask.allows(i)) return;
  const offset_t s = offset_t{part} * a.n_slices + r / sell_chunk;
  const offset_t base = __ldg(a.slice_ptr + s) + r % sell_chunk;
  const offset_t width = (__ldg(a.slice_ptr + s + 1) - __ldg(a.slice_ptr + s)) / sell_chunk;
  if (part > 0 && width == 0) return;  // nothing of this slice's rows in the part
  const auto sum = sum_slots<S>(a.col_idx, a.values, base, offset_t{sell_chunk}, width, x);
  y[i] = part == 0 ? sum : DeviceSemiring<S>::add(y[i], sum);
}

}  // namespace

template <class S, class T, class X>
void launch_sell(const SellView<T>& a, const X* x, typename S::value_type* y, Mask mask,
                 cudaStream_t stream) {
  if (a.n_rows == 0) return;
  const auto grid = static_cast<unsigned>((offset_t(a.n_rows) + sell_block - 1) / sell_block);
  for (vertex_t part = 0; part < a.n_parts; ++part) {
    sell_rows<S, T, X><<<grid, sell_block, 0, stream>>>(a, part, x, y, mask);
    GRAPHRUN_CUDA_CHECK(cudaGetLastError());
  }
}

#define GRAPHRUN_INSTANTIATE_GATHER(S, T, XT)                                                 \
  template void launch_sell<S, T, XT>(const SellView<T>&, const XT*, typename S::value_type*, \
                                      Mask, cudaStream_t);
#define GRAPHRUN_INSTANTIATE(S, T) GRAPHRUN_INSTANTIATE_GATHER(S, T, typename S::value_type)
GRAPHRUN_CUDA_SPMV_COMBOS(GRAPHRUN_INSTANTIATE)
GRAPHRUN_CUDA_SPMV_GATHER_COMBOS(GRAPHRUN_INSTANTIATE_GATHER)
#undef GRAPHRUN_INSTANTIATE
#undef GRAPHRUN_INSTANTIATE_GATHER

}  // namespace graphrun::cuda::detail
