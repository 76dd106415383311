// ELL SpMV, a thread per row: slot j of consecutive rows is consecutive in
// memory, so a warp's loads of col_idx and values are coalesced at every
// step j; a row stops at its first padding slot.
#include "graphrun/engine/cuda_check.hpp"
#include "spmv_launch.cuh"
#include "spmv_semiring.cuh"

namespace graphrun::cuda::detail {

namespace {

constexpr int ell_block = 256;

template <class S, class T, class X>
__global__ void __launch_bounds__(ell_block)
    ell_rows(EllView<T, vertex_t> a, const X* __restrict__ x,
             typename S::value_type* __restrict__ y, Mask mask) {
  using D = DeviceSemiring<S>;
  const offset_t t = blockIdx.x * offset_t(ell_block) + threadIdx.x;
  if (t >= a.n_rows) return;
  const auto i = static_cast<vertex_t>(t);
  if (!mask.allows(i)) return;
  using V = typename S::value_type;
  auto acc = D::zero();
  const std::size_t stride = std::size_t(a.n_rows);
  // Slots in groups of `group`: the group's columns (and values) loaded
  // together, then its gathers, then the sums in slot order up to the first
  // padding. One slot at a time, each gather waited on its column and the
  // next column on the padding test: two memory latencies per slot.
  constexpr int group = 4;
  for (vertex_t j0 = 0; j0 < a.width; j0 += group) {
    vertex_t c[group];
    T v[group];
#pragma unroll
    for (int u = 0; u < group; ++u) {
      const std::size_t slot = std::size_t(i) + std::size_t(j0 + u) * stride;
      c[u] = j0 + u < a.width ? __ldg(a.col_idx + slot) : vertex_t{-1};
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
void launch_ell(const EllView<T, vertex_t>& a, const X* x, typename S::value_type* y, Mask mask,
                cudaStream_t stream) {
  if (a.n_rows == 0) return;
  const auto grid = static_cast<unsigned>((offset_t(a.n_rows) + ell_block - 1) / ell_block);
  ell_rows<S, T, X><<<grid, ell_block, 0, stream>>>(a, x, y, mask);
  GRAPHRUN_CUDA_CHECK(cudaGetLastError());
}

#define GRAPHRUN_INSTANTIATE_GATHER(S, T, XT)                                \
  template void launch_ell<S, T, XT>(const EllView<T, vertex_t>&, const XT*, \
                                     typename S::value_type*, Mask, cudaStream_t);
#define GRAPHRUN_INSTANTIATE(S, T) GRAPHRUN_INSTANTIATE_GATHER(S, T, typename S::value_type)
GRAPHRUN_CUDA_SPMV_COMBOS(GRAPHRUN_INSTANTIATE)
GRAPHRUN_CUDA_SPMV_GATHER_COMBOS(GRAPHRUN_INSTANTIATE_GATHER)
#undef GRAPHRUN_INSTANTIATE
#undef GRAPHRUN_INSTANTIATE_GATHER

}  // namespace graphrun::cuda::detail
