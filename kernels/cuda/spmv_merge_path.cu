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
//
// Hot columns. On a matrix renumbered so that its hubs come first (degree,
// hubsort, dbg), a few thousand columns take half of the entries of a
// power-law graph (R-MAT 22 by degree: the first 32,768 of 4.2M columns hold
// 52% of the entries), and every one of their gathers is a 32-byte L2
// sector fetched for 4 or 8 useful bytes. merge_path_hot_tiles stages
// x[0, hot) in shared memory once per block and gathers those columns from
// there; its blocks are persistent (a few per SM, as many as the staged
// slice leaves room for), each taking shares blockIdx.x, + gridDim.x, ...
// so the slice is loaded once per block rather than once per share. The
// arithmetic, and so every bit of y, is the plain kernel's.
#include <algorithm>
#include <cstdlib>
#include <cub/block/block_scan.cuh>

#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/engine/device_array.hpp"
#include "spmv_carry.cuh"
#include "spmv_launch.cuh"
#include "spmv_semiring.cuh"

namespace graphrun::cuda::detail {

namespace {

// x(c) read from global memory through the read-only cache.
template <class V, class X>
struct GatherGlobal {
  const X* x;
  __device__ __forceinline__ V operator()(vertex_t c) const { return static_cast<V>(__ldg(x + c)); }
};

// x(c) from the staged slice for c < hot, else as GatherGlobal.
template <class V, class X>
struct GatherHot {
  const X* x;
  const X* s_hot;
  vertex_t hot;
  __device__ __forceinline__ V operator()(vertex_t c) const {
    return static_cast<V>(c < hot ? s_hot[c] : __ldg(x + c));
  }
};

// One share of the partition, by the whole block (tile_block threads).
template <class S, class T, class Gather>
__device__ __forceinline__ void merge_path_share(const MergePathView<T>& part, vertex_t share,
                                                 const Gather& gather,
                                                 typename S::value_type* __restrict__ y, Mask mask,
                                                 vertex_t* __restrict__ carry_row,
                                                 typename S::value_type* __restrict__ carry_val) {
  using D = DeviceSemiring<S>;
  using V = typename S::value_type;
  const CsrView<T> a = part.csr;
  __shared__ offset_t s_row_end[tile_items];  // row_ptr[row_b + 1 + i]
  __shared__ V s_prod[tile_items];
  const int t = threadIdx.x;
  const vertex_t row_b = part.start_row[share];
  const offset_t k_b = part.start_entry[share];
  const int nr = part.start_row[share + 1] - row_b;
  const int nk = static_cast<int>(part.start_entry[share + 1] - k_b);

  for (int i = t; i < nr; i += tile_block) s_row_end[i] = a.row_ptr[row_b + 1 + i];
  for (int j = t; j < nk; j += tile_block) {
    const auto entry = a.values ? D::entry(__ldg(a.values + k_b + j)) : D::entry(T(1));
    s_prod[j] = D::mul(entry, gather(__ldg(a.col_idx + k_b + j)));
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
    carry_row[share] = open ? row_b + nr : vertex_t{-1};
    carry_val[share] = open ? all.value : D::zero();
  }
}

// A block per share.
template <class S, class T, class X>
__global__ void __launch_bounds__(tile_block)
    merge_path_tiles(MergePathView<T> part, const X* __restrict__ x,
                     typename S::value_type* __restrict__ y, Mask mask,
                     vertex_t* __restrict__ carry_row,
                     typename S::value_type* __restrict__ carry_val) {
  merge_path_share<S>(part, blockIdx.x, GatherGlobal<typename S::value_type, X>{x}, y, mask,
                      carry_row, carry_val);
}

// Persistent blocks over the shares, x[0, hot) staged in dynamic shared memory.
template <class S, class T, class X>
__global__ void __launch_bounds__(tile_block)
    merge_path_hot_tiles(MergePathView<T> part, const X* __restrict__ x, vertex_t hot,
                         typename S::value_type* __restrict__ y, Mask mask,
                         vertex_t* __restrict__ carry_row,
                         typename S::value_type* __restrict__ carry_val) {
  extern __shared__ __align__(16) unsigned char hot_bytes[];
  X* s_hot = reinterpret_cast<X*>(hot_bytes);
  for (vertex_t c = threadIdx.x; c < hot; c += tile_block) s_hot[c] = __ldg(x + c);
  __syncthreads();
  const GatherHot<typename S::value_type, X> gather{x, s_hot, hot};
  for (vertex_t share = blockIdx.x; share < part.shares; share += gridDim.x) {
    merge_path_share<S>(part, share, gather, y, mask, carry_row, carry_val);
    __syncthreads();  // the next share restages the tile's arrays
  }
}

// Entries of columns below `below`, summed into *count.
__global__ void count_columns_below(const vertex_t* __restrict__ col_idx, offset_t nnz,
                                    vertex_t below, unsigned long long* count) {
  unsigned long long mine = 0;
  for (offset_t k = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; k < nnz;
       k += offset_t(gridDim.x) * blockDim.x)
    mine += __ldg(col_idx + k) < below;
  for (int o = 16; o > 0; o /= 2) mine += __shfl_down_sync(0xffffffffu, mine, o);
  if ((threadIdx.x & 31) == 0 && mine != 0) atomicAdd(count, mine);
}

// GRAPHRUN_MERGE_PATH_HOT: unset, the rule of merge_path_hot_wanted; 0, never
// stage; 1..8, always, with that many blocks per SM (for measuring the rule,
// and for the tests). Read when an operator is built and at each launch.
int hot_override() {
  const char* v = std::getenv("GRAPHRUN_MERGE_PATH_HOT");
  if (v == nullptr || *v < '0' || *v > '8' || v[1] != '\0') return -1;
  return *v - '0';
}

// Blocks per SM of the staged kernel: 4 (32 warps) leave each a quarter of
// the SM's shared memory, ~40 KB of x on an H100 or H200 beside the tile.
constexpr int hot_blocks_per_sm = 4;

int current_device() {
  int d = 0;
  GRAPHRUN_CUDA_CHECK(cudaGetDevice(&d));
  return d;
}

// The staged bytes a block may hold with `per_sm` blocks on each SM, beside
// the kernel's static shared memory.
std::size_t hot_bytes_per_block(int per_sm, std::size_t static_bytes) {
  const int device = current_device();
  int per_sm_bytes = 0, reserved = 0, optin = 0;
  GRAPHRUN_CUDA_CHECK(
      cudaDeviceGetAttribute(&per_sm_bytes, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
  GRAPHRUN_CUDA_CHECK(
      cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, device));
  GRAPHRUN_CUDA_CHECK(
      cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  const std::size_t share = std::size_t(per_sm_bytes) / std::size_t(per_sm);
  const std::size_t taken = std::size_t(reserved) + static_bytes;
  if (share <= taken + 1024) return 0;
  const std::size_t bytes = std::min(share - taken, std::size_t(optin) - static_bytes);
  return bytes / 128 * 128;
}

template <class S, class T, class X>
void launch_merge_path_hot(const MergePathView<T>& part, const X* x, typename S::value_type* y,
                           Mask mask, Carries carries, int per_sm, cudaStream_t stream) {
  using V = typename S::value_type;
  const auto kernel = merge_path_hot_tiles<S, T, X>;
  cudaFuncAttributes attributes{};
  GRAPHRUN_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  const std::size_t bytes = hot_bytes_per_block(per_sm, attributes.sharedSizeBytes);
  const vertex_t hot = static_cast<vertex_t>(
      std::min<std::size_t>(bytes / sizeof(X), static_cast<std::size_t>(part.csr.n_cols)));
  const std::size_t dynamic = std::size_t(hot) * sizeof(X);
  GRAPHRUN_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(dynamic)));
  int fit = 0, sms = 0;
  GRAPHRUN_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, tile_block, dynamic));
  GRAPHRUN_CUDA_CHECK(
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, current_device()));
  const vertex_t blocks = std::min<vertex_t>(part.shares, std::max(1, fit) * sms);
  kernel<<<static_cast<unsigned>(blocks), tile_block, dynamic, stream>>>(
      part, x, hot, y, mask, carries.row, static_cast<V*>(carries.value));
  GRAPHRUN_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

bool merge_path_hot_wanted(const vertex_t* col_idx, offset_t nnz, vertex_t n_cols,
                           offset_t shares) {
  if (const int o = hot_override(); o >= 0) return o > 0;
  // Persistent blocks pay off with many shares per block, and the staged
  // slice (a few tens of MB read from the L2 per SpMV over all blocks) only
  // on matrices whose SpMV moves far more than that.
  int sms = 0;
  GRAPHRUN_CUDA_CHECK(
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, current_device()));
  if (nnz < (offset_t{1} << 23) || shares < offset_t{8} * hot_blocks_per_sm * sms) return false;
  // The columns a float x stages (the smaller of the two gathers' slices
  // would be double's; float's is what PageRank gathers at this size).
  cudaFuncAttributes attributes{};
  GRAPHRUN_CUDA_CHECK(
      cudaFuncGetAttributes(&attributes, merge_path_hot_tiles<PlusTimes<double>, double, float>));
  const vertex_t below = static_cast<vertex_t>(std::min<std::size_t>(
      hot_bytes_per_block(hot_blocks_per_sm, attributes.sharedSizeBytes) / sizeof(float),
      std::size_t(n_cols)));
  DeviceArray<unsigned long long> count(1);
  GRAPHRUN_CUDA_CHECK(cudaMemset(count.data(), 0, sizeof(unsigned long long)));
  count_columns_below<<<static_cast<unsigned>(sms * 8), 256>>>(col_idx, nnz, below, count.data());
  GRAPHRUN_CUDA_CHECK(cudaGetLastError());
  const unsigned long long hits = count.download()[0];
  return double(hits) >= merge_path_hot_min_share * double(nnz);
}

template <class S, class T, class X>
void launch_merge_path(const MergePathView<T>& part, const X* x, typename S::value_type* y,
                       Mask mask, Carries carries, bool hot, cudaStream_t stream) {
  using V = typename S::value_type;
  if (part.shares == 0) return;
  if (hot) {
    const int o = hot_override();
    launch_merge_path_hot<S, T, X>(part, x, y, mask, carries, o > 0 ? o : hot_blocks_per_sm,
                                   stream);
  } else {
    merge_path_tiles<S, T, X><<<static_cast<unsigned>(part.shares), tile_block, 0, stream>>>(
        part, x, y, mask, carries.row, static_cast<V*>(carries.value));
    GRAPHRUN_CUDA_CHECK(cudaGetLastError());
  }
  launch_carry_fixup<S>(carries, part.shares, y, mask, stream);
}

#define GRAPHRUN_INSTANTIATE_GATHER(S, T, XT)                                             \
  template void launch_merge_path<S, T, XT>(const MergePathView<T>&, const XT*,           \
                                            typename S::value_type*, Mask, Carries, bool, \
                                            cudaStream_t);
#define GRAPHRUN_INSTANTIATE(S, T) GRAPHRUN_INSTANTIATE_GATHER(S, T, typename S::value_type)
GRAPHRUN_CUDA_SPMV_COMBOS(GRAPHRUN_INSTANTIATE)
GRAPHRUN_CUDA_SPMV_GATHER_COMBOS(GRAPHRUN_INSTANTIATE_GATHER)
#undef GRAPHRUN_INSTANTIATE
#undef GRAPHRUN_INSTANTIATE_GATHER

}  // namespace graphrun::cuda::detail
