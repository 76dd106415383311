// JDS SpMV, a thread per permuted row walking down the jagged diagonals:
// entry d of consecutive permuted rows is consecutive in memory (coalesced),
// and rows of a warp have similar lengths (sorted), so few lanes idle.
#include "graphrun/engine/cuda_check.hpp"
#include "spmv_launch.cuh"
#include "spmv_semiring.cuh"

namespace graphrun::cuda::detail {

namespace {

constexpr int jds_block = 256;

template <class S, class T, class X>
__global__ void __launch_bounds__(jds_block)
    jds_rows(JdsView<T, vertex_t> a, const X* __restrict__ x,
             typename S::value_type* __restrict__ y, Mask mask) {
  using D = DeviceSemiring<S>;
  const offset_t r = blockIdx.x * offset_t(jds_block) + threadIdx.x;
  if (r >= a.n_rows) return;
  const vertex_t i = __ldg(a.perm + r);
  if (!mask.allows(i)) return;
  auto acc = D::zero();
  offset_t start = __ldg(a.jd_ptr);
  for (vertex_t d = 0; d < a.n_diag; ++d) {
    const offset_t next = __ldg(a.jd_ptr + d + 1);
    if (r >= next - start) break;  // diagonal d is shorter than r: the row has ended
    const offset_t slot = start + r;
    acc = D::add(acc, product<S>(a.values, slot, __ldg(a.col_idx + slot), x));
    start = next;
  }
  y[i] = acc;
}

}  // namespace

template <class S, class T, class X>
void launch_jds(const JdsView<T, vertex_t>& a, const X* x, typename S::value_type* y, Mask mask,
                cudaStream_t stream) {
  if (a.n_rows == 0) return;
  const auto grid = static_cast<unsigned>((offset_t(a.n_rows) + jds_block - 1) / jds_block);
  jds_rows<S, T, X><<<grid, jds_block, 0, stream>>>(a, x, y, mask);
  GRAPHRUN_CUDA_CHECK(cudaGetLastError());
}

#define GRAPHRUN_INSTANTIATE_GATHER(S, T, XT)                                \
  template void launch_jds<S, T, XT>(const JdsView<T, vertex_t>&, const XT*, \
                                     typename S::value_type*, Mask, cudaStream_t);
#define GRAPHRUN_INSTANTIATE(S, T) GRAPHRUN_INSTANTIATE_GATHER(S, T, typename S::value_type)
GRAPHRUN_CUDA_SPMV_COMBOS(GRAPHRUN_INSTANTIATE)
GRAPHRUN_CUDA_SPMV_GATHER_COMBOS(GRAPHRUN_INSTANTIATE_GATHER)
#undef GRAPHRUN_INSTANTIATE
#undef GRAPHRUN_INSTANTIATE_GATHER

}  // namespace graphrun::cuda::detail
