// Merge-path CSR SpMV (Merrill & Garland, "Merge-based parallel sparse
// matrix-vector multiplication", SC'16). The merged list of row ends and
// entries is cut into shares of tile_items items (engine/cuda/merge_path.hpp;
// the view, with the CSR it partitions, is engine/formats/merge_path.hpp);
// block b takes share b, so every block does the same work whatever the row
// lengths. Within the block:
//   1. the share's row ends and its entries' products A(i,k)*x(k) are staged
//      in shared memory with coalesced loads;
//   2. each thread finds its own start on the share's merge path by binary
//      search in shared memory and consumes tile_items_per_thread items:
//      an entry adds its product, a row end closes the row;
//   3. a row a thread closes but did not begin (a "head") is finished with
//      the partials of the threads before it, summed by a segmented block
//      scan (RowPartial, spmv_carry.cuh); the partials of the row open at
//      the end of the share leave as the block's carry, added by
//      carry_fixup.
// Empty rows are row ends with no entry before them: they get S::zero().
#include <cub/block/block_scan.cuh>

#include "graphrun/engine/cuda_check.hpp"
#include "spmv_carry.cuh"
#include "spmv_launch.cuh"
#include "spmv_semiring.cuh"

namespace graphrun::cuda::detail {

namespace {

template <class S, class T, class X>
__global__ void __launch_bounds__(tile_block)
    merge_path_tiles(MergePathView<T> part, const X* __restrict__ x,
                     typename S::value_type* __restrict__ y, Mask mask,
                     vertex_t* __restrict__ carry_row,
                     typename S::value_type* __restrict__ carry_val) {
  using D = DeviceSemiring<S>;
  using V = typename S::value_type;
  const CsrView<T> a = part.csr;
  __shared__ offset_t s_row_end[tile_items];  // row_ptr[row_b + 1 + i]
  __shared__ V s_prod[tile_items];
  const int t = threadIdx.x;
  const vertex_t row_b = part.start_row[blockIdx.x];
  const offset_t k_b = part.start_entry[blockIdx.x];
  const int nr = part.start_row[blockIdx.x + 1] - row_b;
  const int nk = static_cast<int>(part.start_entry[blockIdx.x + 1] - k_b);

  for (int i = t; i < nr; i += tile_block) s_row_end[i] = a.row_ptr[row_b + 1 + i];
  // The products: every column (and value) of the thread's items first, then
  // every gather, then the stores, so that tile_items_per_thread loads of
  // each kind are in flight at once. A loop of load, gather and store per
  // item (the values' null test splitting each step) left every gather
  // waiting on its own column: two memory latencies per item in a row.
  vertex_t col[tile_items_per_thread];
  T val[tile_items_per_thread];
#pragma unroll
  for (int u = 0; u < tile_items_per_thread; ++u) {
    const int j = t + u * tile_block;
    col[u] = j < nk ? __ldg(a.col_idx + k_b + j) : vertex_t{0};
  }
  if (a.values != nullptr) {
#pragma unroll
    for (int u = 0; u < tile_items_per_thread; ++u) {
      const int j = t + u * tile_block;
      val[u] = j < nk ? __ldg(a.values + k_b + j) : T(0);
    }
  } else {
#pragma unroll
    for (int u = 0; u < tile_items_per_thread; ++u) val[u] = T(1);
  }
  V gathered[tile_items_per_thread];
#pragma unroll
  for (int u = 0; u < tile_items_per_thread; ++u) {
    const int j = t + u * tile_block;
    gathered[u] = j < nk ? static_cast<V>(__ldg(x + col[u])) : D::zero();
  }
#pragma unroll
  for (int u = 0; u < tile_items_per_thread; ++u) {
    const int j = t + u * tile_block;
    if (j < nk) s_prod[j] = D::mul(D::entry(val[u]), gathered[u]);  // product<S>'s arithmetic
  }
  __syncthreads();

  // This thread's items: diagonals [d0, d1) of the share.
  const int total = nr + nk;
  const int d0 = min(t * tile_items_per_thread, total);
  const int d1 = min(d0 + tile_items_per_thread, total);
  int lo = max(0, d0 - nk), hi = min(d0, nr);
  while (lo < hi) {  // merge_path_search on the staged share
    const int mid = (lo + hi) / 2;
    if (s_row_end[mid] <= k_b + (d0 - 1 - mid))
      lo = mid + 1;
    else
      hi = mid;
  }
  int i = lo, j = d0 - lo;
  // Whether the thread's first row began before the thread.
  const offset_t first_row_start = i == 0 ? a.row_ptr[row_b] : s_row_end[i - 1];
  const bool begun_before = first_row_start < k_b + j;

  V acc = D::zero();
  bool first = true, has_head = false, pending = false;
  int head_row = 0;
  V head = D::zero();
  for (int d = d0; d < d1; ++d) {
    if (i < nr && s_row_end[i] <= k_b + j) {  // a row end: close row i
      if (first && begun_before) {
        has_head = true;
        head_row = i;
        head = acc;
      } else if (mask.allows(row_b + i)) {
        y[row_b + i] = acc;
      }
      first = false;
      pending = false;
      acc = D::zero();
      ++i;
    } else {
      acc = D::add(acc, s_prod[j]);
      pending = true;
      ++j;
    }
  }
  // Each thread's carry: the partial of the row it stopped in (local row i).
  using Scan = cub::BlockScan<RowPartial<V>, tile_block>;
  __shared__ typename Scan::TempStorage scan_storage;
  RowPartial<V> before, all;
  Scan(scan_storage)
      .ExclusiveScan(RowPartial<V>{i, pending ? acc : D::zero()}, before, SegmentedAdd<S>{}, all);
  if (has_head) {
    if (t > 0 && before.row == head_row) head = D::add(before.value, head);
    if (mask.allows(row_b + head_row)) y[row_b + head_row] = head;
  }
  if (t == 0) {
    // The row open at the end of the share (local row nr) leaves as the
    // block's carry if the share consumed any of its entries.
    const offset_t open_start = nr == 0 ? a.row_ptr[row_b] : s_row_end[nr - 1];
    const bool open = all.row == nr && open_start < k_b + nk;
    carry_row[blockIdx.x] = open ? row_b + nr : vertex_t{-1};
    carry_val[blockIdx.x] = open ? all.value : D::zero();
  }
}

}  // namespace

template <class S, class T, class X>
void launch_merge_path(const MergePathView<T>& part, const X* x, typename S::value_type* y,
                       Mask mask, Carries carries, cudaStream_t stream) {
  using V = typename S::value_type;
  if (part.shares == 0) return;
  merge_path_tiles<S, T, X><<<static_cast<unsigned>(part.shares), tile_block, 0, stream>>>(
      part, x, y, mask, carries.row, static_cast<V*>(carries.value));
  GRAPHRUN_CUDA_CHECK(cudaGetLastError());
  launch_carry_fixup<S>(carries, part.shares, y, mask, stream);
}

#define GRAPHRUN_INSTANTIATE_GATHER(S, T, XT)                                   \
  template void launch_merge_path<S, T, XT>(const MergePathView<T>&, const XT*, \
                                            typename S::value_type*, Mask, Carries, cudaStream_t);
#define GRAPHRUN_INSTANTIATE(S, T) GRAPHRUN_INSTANTIATE_GATHER(S, T, typename S::value_type)
GRAPHRUN_CUDA_SPMV_COMBOS(GRAPHRUN_INSTANTIATE)
GRAPHRUN_CUDA_SPMV_GATHER_COMBOS(GRAPHRUN_INSTANTIATE_GATHER)
#undef GRAPHRUN_INSTANTIATE
#undef GRAPHRUN_INSTANTIATE_GATHER

}  // namespace graphrun::cuda::detail
