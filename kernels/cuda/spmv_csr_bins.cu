// csr-bins SpMV (engine/formats/csr_bins.hpp): one grid, each bin of rows a
// range of its blocks, with as many threads per row as the bin's rows want.
//
// A row of bin b < 6 gets a sub-warp of W = 2^b lanes; lane l takes the
// entries l, l + W, l + 2W, ... in that order, four at a time on a warp's
// rows (four columns loaded, then four gathers, then the four products
// added in entry order: the gathers of a long row are in flight together,
// not one latency after another); the W partial sums meet by a butterfly
// of shuffles. A row of bin 6 gets a block: each thread's partial the same
// way, then the warps' by shuffles and the block's eight in order in shared
// memory. Every row's order of additions depends on its length alone, so y
// is the same whatever the launch.
#include <cstdint>

#include "graphrun/engine/cuda/csr_bins.hpp"
#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/engine/error.hpp"
#include "spmv_carry.cuh"
#include "spmv_launch.cuh"
#include "spmv_semiring.cuh"

namespace graphrun::cuda::detail {

namespace {

constexpr int bins_block = 256;
constexpr int unroll = 4;

// This lane's sum over entries k, k + W, ... < end of one row.
template <class S, class T, int W, class X>
__device__ __forceinline__ typename S::value_type lane_sum(const CsrView<T>& a, offset_t k,
                                                           offset_t end, const X* x) {
  using D = DeviceSemiring<S>;
  using V = typename S::value_type;
  V acc = D::zero();
  if constexpr (W >= 32) {
    // The last round too: a lane past the row's end loads nothing and adds
    // the semiring's zero, which changes no sum (each started from it), so
    // a row of 33-128 entries has its gathers in flight together instead
    // of in two to four rounds one latency apart (R-MAT 22 under dbg, H100:
    // the SpMV 1.31x -> 1.39x cuSPARSE, PageRank's iteration 0.835 -> 0.783 ms).
    for (; k < end; k += unroll * W) {
      vertex_t col[unroll];
#pragma unroll
      for (int u = 0; u < unroll; ++u)
        col[u] = k + u * W < end ? __ldg(a.col_idx + k + u * W) : vertex_t{-1};
      V p[unroll];
#pragma unroll
      for (int u = 0; u < unroll; ++u)
        p[u] = col[u] >= 0 ? product<S>(a.values, k + u * W, col[u], x) : D::zero();
#pragma unroll
      for (int u = 0; u < unroll; ++u) acc = D::add(acc, p[u]);
    }
  } else {
    for (; k < end; k += W) acc = D::add(acc, product<S>(a.values, k, __ldg(a.col_idx + k), x));
  }
  return acc;
}

// Where each bin's blocks begin in the one grid, and its rows in the list.
struct BinGrid {
  unsigned first_block[csr_bin_count + 1];
  vertex_t first_row[csr_bin_count + 1];
};

// Rows rows[0 .. count) of one bin, W lanes each; `block` is the block's
// place among the bin's.
template <class S, class T, int W, class X>
__device__ __forceinline__ void bin_rows(const CsrView<T>& a, const vertex_t* __restrict__ rows,
                                         vertex_t count, unsigned block, const X* __restrict__ x,
                                         typename S::value_type* __restrict__ y, Mask mask) {
  using D = DeviceSemiring<S>;
  const offset_t g = (block * offset_t(bins_block) + threadIdx.x) / W;
  // A sub-warp's row is the same for all its lanes, so it leaves as one.
  if (g >= count) return;
  const vertex_t i = rows[g];
  if (!mask.allows(i)) return;
  const int lane = static_cast<int>(threadIdx.x % W);
  auto acc = lane_sum<S, T, W, X>(a, a.row_ptr[i] + lane, a.row_ptr[i + 1], x);
  if constexpr (W > 1) {
    const unsigned lanes = ((W == 32) ? 0xffffffffu : ((1u << W) - 1u))
                           << ((threadIdx.x % 32) & ~unsigned(W - 1));
    for (int off = W / 2; off > 0; off /= 2) acc = D::add(acc, shfl_xor(lanes, acc, off, W));
  }
  if (lane == 0) y[i] = acc;
}

// A long row, the whole block.
template <class S, class T, class X>
__device__ __forceinline__ void long_row(const CsrView<T>& a, vertex_t i, const X* __restrict__ x,
                                         typename S::value_type* __restrict__ y, Mask mask) {
  using D = DeviceSemiring<S>;
  using V = typename S::value_type;
  constexpr int warps = bins_block / 32;
  __shared__ V partial[warps];
  if (!mask.allows(i)) return;  // the whole block: one row
  // Lanes bins_block apart, four at a time, as a warp's row above.
  auto acc = lane_sum<S, T, bins_block, X>(a, a.row_ptr[i] + threadIdx.x, a.row_ptr[i + 1], x);
  for (int off = 16; off > 0; off /= 2) acc = D::add(acc, shfl_xor(0xffffffffu, acc, off, 32));
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    V sum = partial[0];
    for (int w = 1; w < warps; ++w) sum = D::add(sum, partial[w]);
    y[i] = sum;
  }
}

// Block b's bin, B or a later one, found by comparisons with constant
// indices: an index into the grid's arrays computed at run time would make
// every thread copy them to local memory first (64 bytes a thread: 8.6 GB
// of stores on a 4M-row matrix with a warp a row, and a 3x slower SpMV).
template <class S, class T, class X, int B>
__device__ __forceinline__ void run_bin(const CsrView<T>& a, const vertex_t* __restrict__ rows,
                                        const BinGrid& grid, unsigned b, const X* __restrict__ x,
                                        typename S::value_type* __restrict__ y, Mask mask) {
  const unsigned block = b - grid.first_block[B];
  if constexpr (B < csr_bin_count - 1) {
    if (b >= grid.first_block[B + 1]) {
      run_bin<S, T, X, B + 1>(a, rows, grid, b, x, y, mask);
      return;
    }
    bin_rows<S, T, csr_bin_width(B), X>(
        a, rows + grid.first_row[B], grid.first_row[B + 1] - grid.first_row[B], block, x, y, mask);
  } else {
    long_row<S, T, X>(a, rows[grid.first_row[B] + block], x, y, mask);
  }
}

// Every bin in one grid (seven launches cost a small matrix more than its
// work): a block finds its bin among the grid's ranges and runs that bin's
// code, the same for all its threads. The long rows' blocks come first in
// the grid, though their bin is last in the list: the hardware starts
// blocks roughly in index order, and a block that takes one of the longest
// rows as the grid ends holds the launch open alone (R-MAT 22 renumbered
// by dbg, 9,109 such rows: the SpMV 1.18x -> 1.27x cuSPARSE on the H100).
template <class S, class T, class X>
__global__ void __launch_bounds__(bins_block)
    csr_bins_kernel(CsrView<T> a, const vertex_t* __restrict__ rows, BinGrid grid,
                    const X* __restrict__ x, typename S::value_type* __restrict__ y, Mask mask) {
  constexpr int last = csr_bin_count - 1;
  const unsigned long_blocks = gridDim.x - grid.first_block[last];
  const unsigned b =
      blockIdx.x < long_blocks ? grid.first_block[last] + blockIdx.x : blockIdx.x - long_blocks;
  run_bin<S, T, X, 0>(a, rows, grid, b, x, y, mask);
}

}  // namespace

template <class S, class T, class X>
void launch_csr_bins(const DeviceCsrBins& s, const CsrView<T>& a, const X* x,
                     typename S::value_type* y, Mask mask, cudaStream_t stream) {
  if (a.n_rows == 0) return;
  static_assert(csr_bin_width(5) == 32 && csr_bin_count == 7);
  BinGrid grid{};
  offset_t blocks = 0;
  for (int b = 0; b < csr_bin_count; ++b) {
    grid.first_block[b] = static_cast<unsigned>(blocks);
    grid.first_row[b] = s.start[b];
    const offset_t rows = s.bin_rows(b);
    blocks +=
        b == csr_bin_count - 1 ? rows : (rows * csr_bin_width(b) + bins_block - 1) / bins_block;
    if (blocks > offset_t{0x7fffffff}) throw SizeError("csr-bins: too many blocks for one grid");
  }
  grid.first_block[csr_bin_count] = static_cast<unsigned>(blocks);
  grid.first_row[csr_bin_count] = s.start[csr_bin_count];
  if (blocks == 0) return;
  csr_bins_kernel<S, T, X><<<static_cast<unsigned>(blocks), bins_block, 0, stream>>>(
      a, s.rows.data(), grid, x, y, mask);
  GRAPHRUN_CUDA_CHECK(cudaGetLastError());
}

#define GRAPHRUN_INSTANTIATE_GATHER(S, T, XT)                                                 \
  template void launch_csr_bins<S, T, XT>(const DeviceCsrBins&, const CsrView<T>&, const XT*, \
                                          typename S::value_type*, Mask, cudaStream_t);
#define GRAPHRUN_INSTANTIATE(S, T) GRAPHRUN_INSTANTIATE_GATHER(S, T, typename S::value_type)
GRAPHRUN_CUDA_SPMV_COMBOS(GRAPHRUN_INSTANTIATE)
GRAPHRUN_CUDA_SPMV_GATHER_COMBOS(GRAPHRUN_INSTANTIATE_GATHER)
#undef GRAPHRUN_INSTANTIATE
#undef GRAPHRUN_INSTANTIATE_GATHER

}  // namespace graphrun::cuda::detail
