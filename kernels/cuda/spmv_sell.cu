// SELL-32-σ SpMV (engine/formats/sell.hpp), a warp per slice and a lane per
// row: entry j of a slice's 32 rows lies in 32 consecutive slots, so every
// load of columns (and values) is one coalesced line, and rows of like
// length side by side (sorted within windows of σ where lengths vary)
// leave few lanes idle. Each row's result goes to y(perm[r]), a row of the same window.
// Slots in groups of four, as ELL takes them: the group's columns, then its
// gathers, then the sums in slot order up to the first padding slot.
#include "graphrun/engine/cuda_check.hpp"
#include "spmv_launch.cuh"
#include "spmv_semiring.cuh"

namespace graphrun::cuda::detail {

namespace {

constexpr int sell_block = 256;  // whole slices: a multiple of sell_chunk
static_assert(sell_block % sell_chunk == 0);

template <class S, class T, class X>
__global__ void __launch_bounds__(sell_block)
    sell_rows(SellView<T> a, const X* __restrict__ x, typename S::value_type* __restrict__ y,
              Mask mask) {
  using D = DeviceSemiring<S>;
  using V = typename S::value_type;
  const offset_t r = blockIdx.x * offset_t(sell_block) + threadIdx.x;
  if (r >= a.n_rows) return;  // the last slice's positions past the last row
  const vertex_t i = __ldg(a.perm + r);
  if (!mask.allows(i)) return;
  const offset_t s = r / sell_chunk;
  const offset_t base = __ldg(a.slice_ptr + s) + r % sell_chunk;
  const offset_t width = (__ldg(a.slice_ptr + s + 1) - __ldg(a.slice_ptr + s)) / sell_chunk;
  auto acc = D::zero();
  constexpr int group = 4;
  for (offset_t j0 = 0; j0 < width; j0 += group) {
    vertex_t c[group];
    T v[group];
#pragma unroll
    for (int u = 0; u < group; ++u) {
      const offset_t slot = base + (j0 + u) * sell_chunk;
      c[u] = j0 + u < width ? __ldg(a.col_idx + slot) : vertex_t{-1};
      v[u] = c[u] >= 0 && a.values != nullptr ? __ldg(a.values + slot) : T(1);
    }
    V p[group];
#pragma unroll
    for (int u = 0; u < group; ++u)  // product<S>'s arithmetic
      p[u] = c[u] >= 0 ? D::mul(D::entry(v[u]), static_cast<V>(__ldg(x + c[u]))) : D::zero();
    bool ended = false;
#pragma unroll
    for (int u = 0; u < group; ++u) {
      ended = ended || c[u] < 0;  // padding: the row has ended
      if (!ended) acc = D::add(acc, p[u]);
    }
    if (ended) break;
  }
  y[i] = acc;
}

}  // namespace

template <class S, class T, class X>
void launch_sell(const SellView<T>& a, const X* x, typename S::value_type* y, Mask mask,
                 cudaStream_t stream) {
  if (a.n_rows == 0) return;
  const auto grid = static_cast<unsigned>((offset_t(a.n_rows) + sell_block - 1) / sell_block);
  sell_rows<S, T, X><<<grid, sell_block, 0, stream>>>(a, x, y, mask);
  GRAPHRUN_CUDA_CHECK(cudaGetLastError());
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
