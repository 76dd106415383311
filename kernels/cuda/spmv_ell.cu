// ELL SpMV, a thread per row: slot j of consecutive rows is consecutive in
// memory, so a warp's loads of col_idx and values are coalesced at every
// step j; a row stops at its first padding slot (sum_slots,
// spmv_semiring.cuh).
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
  const offset_t t = blockIdx.x * offset_t(ell_block) + threadIdx.x;
  if (t >= a.n_rows) return;
  const auto i = static_cast<vertex_t>(t);
  if (!mask.allows(i)) return;
  y[i] = sum_slots<S>(a.col_idx, a.values, offset_t(i), offset_t(a.n_rows), offset_t(a.width), x);
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
