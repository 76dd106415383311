// COO SpMV as a segmented reduction by row, deterministic for every
// semiring (atomics would serve only plus, min and max, and not in a fixed
// order). A block takes a tile of tile_items consecutive entries, a thread
// tile_items_per_thread of them in order:
//   - a row that starts and ends inside one thread is written by it;
//   - a thread's trailing row that goes on past it leaves a carry;
//   - the thread that ends a row begun before it (a "head") adds the carries
//     of the threads before it that hold the same row, summed by a segmented
//     block scan (RowPartial, spmv_carry.cuh);
//   - the carries of the row still open at the end of the tile go out as the
//     block's carry, added by carry_fixup (spmv_carry.cuh).
// Without `accumulate`, rows with no entry get S::zero(): the COO lists them
// (build_coo), and the whole grid shares the list.
#include <cub/block/block_scan.cuh>

#include "graphrun/engine/cuda_check.hpp"
#include "spmv_carry.cuh"
#include "spmv_launch.cuh"
#include "spmv_semiring.cuh"

namespace graphrun::cuda::detail {

namespace {

template <class S>
__device__ __forceinline__ void put(typename S::value_type* y, vertex_t r, typename S::value_type v,
                                    bool accumulate, Mask mask) {
  if (!mask.allows(r)) return;
  y[r] = accumulate ? DeviceSemiring<S>::add(y[r], v) : v;
}

template <class S, class T, class X>
__global__ void __launch_bounds__(tile_block)
    coo_tiles(CooView<T> a, bool accumulate, const X* __restrict__ x,
              typename S::value_type* __restrict__ y, Mask mask, vertex_t* __restrict__ carry_row,
              typename S::value_type* __restrict__ carry_val) {
  using D = DeviceSemiring<S>;
  using V = typename S::value_type;
  const int t = threadIdx.x;
  const offset_t tile_begin = blockIdx.x * offset_t(tile_items);
  const offset_t tile_end = tile_begin + tile_items < a.nnz ? tile_begin + tile_items : a.nnz;
  const offset_t kb = tile_begin + offset_t(t) * tile_items_per_thread;
  const offset_t ke = kb + tile_items_per_thread < tile_end ? kb + tile_items_per_thread : tile_end;

  // The thread's rows, columns and values first, then every gather, so
  // that tile_items_per_thread loads of each kind are in flight at once (a
  // load-then-gather loop per entry waited two memory latencies per entry).
  const int items = static_cast<int>(ke > kb ? ke - kb : 0);
  vertex_t rows[tile_items_per_thread], cols[tile_items_per_thread];
  T vals[tile_items_per_thread];
#pragma unroll
  for (int u = 0; u < tile_items_per_thread; ++u) {
    rows[u] = u < items ? __ldg(a.row_idx + kb + u) : vertex_t{-1};
    cols[u] = u < items ? __ldg(a.col_idx + kb + u) : vertex_t{0};
    vals[u] = u < items && a.values != nullptr ? __ldg(a.values + kb + u) : T(1);
  }
  V products[tile_items_per_thread];
#pragma unroll
  for (int u = 0; u < tile_items_per_thread; ++u)
    products[u] = u < items ? D::mul(D::entry(vals[u]), static_cast<V>(__ldg(x + cols[u])))
                            : D::zero();  // product<S>'s arithmetic

  vertex_t row = -1;
  V acc = D::zero();
  bool first = true, has_head = false;
  V head = D::zero();
#pragma unroll
  for (int u = 0; u < tile_items_per_thread; ++u) {
    if (u >= items) break;
    const offset_t k = kb + u;
    const vertex_t r = rows[u];
    const V v = products[u];
    if (k == kb) {
      row = r;
      acc = D::add(D::zero(), v);  // every row's sum starts from zero (MaxTimes: 0)
    } else if (r == row) {
      acc = D::add(acc, v);
    } else {
      // Close `row`: if it is this thread's first row and began before it,
      // it is a head, finished below with the carries before it.
      if (first && kb > 0 && __ldg(a.row_idx + kb - 1) == row) {
        has_head = true;
        head = acc;
      } else {
        put<S>(y, row, acc, accumulate, mask);
      }
      first = false;
      row = r;
      acc = D::add(D::zero(), v);
    }
  }
  bool carry = false;
  if (kb < ke) {
    if (ke < a.nnz && __ldg(a.row_idx + ke) == row) {
      carry = true;  // the row goes on past this thread
    } else if (first && kb > 0 && __ldg(a.row_idx + kb - 1) == row) {
      has_head = true;
      head = acc;
    } else {
      put<S>(y, row, acc, accumulate, mask);
    }
  }
  if (!accumulate) {
    // The empty rows, shared by every thread of the grid.
    const offset_t stride = offset_t(gridDim.x) * tile_block;
    for (offset_t e = blockIdx.x * offset_t(tile_block) + t; e < a.n_empty; e += stride) {
      const vertex_t r = __ldg(a.empty_rows + e);
      if (mask.allows(r)) y[r] = D::zero();
    }
  }
  // Each thread's carry: the partial of its last row if that row goes on.
  // Threads past the tile's end stand at its last row with nothing.
  using Scan = cub::BlockScan<RowPartial<V>, tile_block>;
  __shared__ typename Scan::TempStorage scan_storage;
  const vertex_t last_row = __ldg(a.row_idx + tile_end - 1);
  RowPartial<V> before, all;
  Scan(scan_storage)
      .ExclusiveScan(RowPartial<V>{kb < ke ? row : last_row, carry ? acc : D::zero()}, before,
                     SegmentedAdd<S>{}, all);
  if (has_head) {
    // The head is the thread's first row: row_idx[kb].
    const vertex_t hr = __ldg(a.row_idx + kb);
    if (t > 0 && before.row == hr) head = D::add(before.value, head);
    put<S>(y, hr, head, accumulate, mask);
  }
  if (t == 0) {
    // The row open at the end of the tile leaves as the block's carry.
    const bool open = tile_end < a.nnz && __ldg(a.row_idx + tile_end) == last_row;
    carry_row[blockIdx.x] = open ? last_row : vertex_t{-1};
    carry_val[blockIdx.x] = open ? all.value : D::zero();
  }
}

template <class S>
__global__ void fill_zero(typename S::value_type* __restrict__ y, vertex_t n, Mask mask) {
  const offset_t i = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  if (i < n && mask.allows(static_cast<vertex_t>(i))) y[i] = DeviceSemiring<S>::zero();
}

}  // namespace

offset_t coo_blocks(offset_t nnz) { return (nnz + tile_items - 1) / tile_items; }

template <class S, class T, class X>
void launch_coo(const CooView<T>& a, bool accumulate, const X* x, typename S::value_type* y,
                Mask mask, Carries carries, cudaStream_t stream) {
  using V = typename S::value_type;
  if (a.n_rows == 0) return;
  if (a.nnz == 0) {
    if (!accumulate)
      fill_zero<S><<<static_cast<unsigned>((offset_t(a.n_rows) + 255) / 256), 256, 0, stream>>>(
          y, a.n_rows, mask);
    GRAPHRUN_CUDA_CHECK(cudaGetLastError());
    return;
  }
  const offset_t blocks = coo_blocks(a.nnz);
  coo_tiles<S, T, X><<<static_cast<unsigned>(blocks), tile_block, 0, stream>>>(
      a, accumulate, x, y, mask, carries.row, static_cast<V*>(carries.value));
  GRAPHRUN_CUDA_CHECK(cudaGetLastError());
  launch_carry_fixup<S>(carries, blocks, y, mask, stream);
}

#define GRAPHRUN_INSTANTIATE_GATHER(S, T, XT)                                                     \
  template void launch_coo<S, T, XT>(const CooView<T>&, bool, const XT*, typename S::value_type*, \
                                     Mask, Carries, cudaStream_t);
#define GRAPHRUN_INSTANTIATE(S, T) GRAPHRUN_INSTANTIATE_GATHER(S, T, typename S::value_type)
GRAPHRUN_CUDA_SPMV_COMBOS(GRAPHRUN_INSTANTIATE)
GRAPHRUN_CUDA_SPMV_GATHER_COMBOS(GRAPHRUN_INSTANTIATE_GATHER)
#undef GRAPHRUN_INSTANTIATE
#undef GRAPHRUN_INSTANTIATE_GATHER

}  // namespace graphrun::cuda::detail
