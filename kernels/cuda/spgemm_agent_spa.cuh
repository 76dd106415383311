// The sparse-accumulator agent of the GPU SpGEMM (SpgemmOptions::spa_windows):
// the longest staged bitmap rows summed in fixed point (MCL's expansion) in
// one walk of their products instead of two.
//
// A bitmap row (spgemm_agent_dense.cuh) walks its products twice: once to
// set the bits of its columns, then, the bits ranked, again to add each
// product at its column's rank, so that its values fit in shared memory
// at the row's length rather than B's width. Here a block holds a window of
// B's columns as a dense accumulator, Gilbert, Moler and Schreiber's SPA
// (SIAM J. Matrix Anal. Appl. 13, 1992): a fixed-point sum (8 bytes) and a
// bit per column. Each product adds at its column itself, in one walk, the
// sum's being nonzero marking the column (the bit only where a product
// rounds to 0: one shared-memory atomic a product fewer); the window's
// entries are then read off in column order. A row's block walks its
// columns' windows in turn (about 28,000 columns each in 228 KB).
//
// A window walks only its own share of each B row. Searching for it
// would cost two binary searches per entry of A per window; instead B's
// rows are cut at every window's first column once per product
// (window_splits_kernel), and a window reads its share's bounds as a row
// reads its row pointers.
#pragma once

#include <cub/block/block_scan.cuh>

#include "spgemm_agent_dense.cuh"

namespace graphrun::cuda::spgemm_detail {

// The group whose rows the SPA takes: the last staged bitmap bin (MCL's
// longest rows).
inline constexpr int kSpaGroup = kFirstStagedDense + SpgemmPolicy::dense_bins - 1;

// Windows of a SPA row, and B's rows cut at them: splits[w * n_b_rows + k]
// is the first entry of B's row k at or past window w's first column, for
// w = 0..count (w = count: the row's end).
struct SpaWindows {
  int count = 0;
  vertex_t width = 0;  // columns of each window, the last's the rest
  const offset_t* splits = nullptr;
  vertex_t n_b_rows = 0;
};

// Shared memory of a SPA block of `width` columns: the bits (rounded to 16
// bytes), then a fixed-point sum (two 32-bit words) per column.
__host__ __device__ constexpr std::size_t spa_bitmap_bytes(std::int64_t width) {
  return static_cast<std::size_t>((bitmap_words(width) + 3) / 4 * 16);
}
__host__ __device__ constexpr std::size_t spa_bytes(std::int64_t width) {
  return spa_bitmap_bytes(width) + static_cast<std::size_t>(width) * 8;
}

// splits (above) for B's n_rows rows and `count` windows of `width` columns.
__global__ void window_splits_kernel(const offset_t* __restrict__ b_ptr,
                                     const vertex_t* __restrict__ b_col, vertex_t n_rows, int count,
                                     vertex_t width, offset_t* __restrict__ splits) {
  const std::int64_t total = std::int64_t{count + 1} * n_rows;
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < total;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    const auto w = static_cast<int>(i / n_rows);
    const auto k = static_cast<vertex_t>(i % n_rows);
    const offset_t q0 = b_ptr[k], q1 = b_ptr[k + 1];
    splits[i] = w == 0       ? q0
                : w == count ? q1
                             : first_at_least(b_col, q0, q1, static_cast<vertex_t>(w * width));
  }
}

// A staged row (one block), window by window: every product adds at its
// column in the window's SPA, then the window's entries go to the row's
// staging after the windows before it, and the SPA is cleared for the next.
// Sums in 64-bit fixed point (fixed_add: g.unit_sums), exact in any order,
// so the row is the bitmap kernel's bit for bit. BATCH: see walk_b_row.
//
// One block walks all of a row's windows, in turn, rather than a block per
// window chained for their places (chain_prefix): with a block an SM, a
// window waiting for the window before it holds an SM idle, and on
// soc-Epinions1's expansion that wait was 55% of the stalls.
template <class S, class T, int BLOCK, int BATCH>
__global__ void __launch_bounds__(BLOCK)
    spa_numeric_kernel(NumericArgs<typename DeviceSemiring<S>::value_type, T> g, SpaWindows sw) {
  using Ops = DeviceSemiring<S>;
  using V = typename Ops::value_type;
  static_assert(kFixedSums<S>, "SPA rows sum in fixed point");
  using BlockScan = cub::BlockScan<int, BLOCK, cub::BLOCK_SCAN_WARP_SCANS>;
  __shared__ typename BlockScan::TempStorage scan_temp;
  extern __shared__ __align__(16) unsigned char smem[];
  const vertex_t row = g.rows[blockIdx.x];
  unsigned int* bits = reinterpret_cast<unsigned int*>(smem);
  auto* sums = reinterpret_cast<unsigned int*>(smem + spa_bitmap_bytes(sw.width));
  const vertex_t* __restrict__ b_col = g.b_col;
  const T* __restrict__ a_val = g.a_val;
  const T* __restrict__ b_val = g.b_val;
  struct BEntry {
    vertex_t col;
    V val;
  };
  const auto n_b = static_cast<std::int64_t>(sw.n_b_rows);
  const std::int64_t ip = window_ip(static_cast<std::int64_t>(g.ip[row]), sw.count);
  const std::int64_t c0 = g.stage_off[row], room = g.stage_off[row + 1] - c0;
  std::int64_t before = 0;  // the row's entries in the windows done
  for (int w = 0; w < sw.count; ++w) {
    const vertex_t lo = static_cast<vertex_t>(std::int64_t{w} * sw.width);
    const int width =
        static_cast<int>(w == sw.count - 1 ? std::int64_t{g.n_cols} - lo : std::int64_t{sw.width});
    const auto words = static_cast<int>(bitmap_words(width));
    for (int i = threadIdx.x; i < words; i += BLOCK) bits[i] = 0;
    for (int i = threadIdx.x; i < width / 2; i += BLOCK)  // 16 bytes: two columns' sums
      reinterpret_cast<uint4*>(sums)[i] = make_uint4(0, 0, 0, 0);
    if (threadIdx.x == 0 && width % 2) reinterpret_cast<uint2*>(sums)[width - 1] = make_uint2(0, 0);
    __syncthreads();
    for_each_product<BLOCK, BATCH, true>(
        g.a_ptr, g.a_col, sw.splits + w * n_b, row, ip, static_cast<int>(threadIdx.x),
        [&](offset_t p) { return a_val ? static_cast<V>(a_val[p]) : V(1); },
        [&](V av, const BEntry& e) {
          // A column's sum is nonzero once a product has added to it; the
          // bit marks only columns whose products all round to 0 (below
          // 2^-64), so that they are entries still, as in a bitmap row.
          const vertex_t c = e.col - lo;
          if (!fixed_add(sums + 2 * c, Ops::mul(av, e.val)))
            atomicOr(&bits[c >> 5], 1u << (c & 31));
        },
        false, ColumnWindow{}, g.balanced,
        [=](offset_t q) {
          return BEntry{b_col[q], b_val ? static_cast<V>(b_val[q]) : V(1)};
        },
        sw.splits + (w + 1) * n_b);
    __syncthreads();

    // The window's entries: the columns with a bit or a nonzero sum. Each
    // warp takes a run of 32-column words, a lane a column (its sum read
    // without bank conflicts), and ORs the word's nonzero sums into its bits;
    // one block scan places the warps' runs, and each word's entries go out
    // in column order, a lane each.
    constexpr int kWarps = BLOCK / 32;
    const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
    const int per = (words + kWarps - 1) / kWarps;
    const int i0 = min(words, warp * per), i1 = min(words, i0 + per);
    int mine = 0;
    for (int i = i0; i < i1; ++i) {
      const int c = i * 32 + lane;
      const bool nonzero = c < width && (sums[2 * c] | sums[2 * c + 1]) != 0;
      const unsigned int m = __ballot_sync(0xffffffffu, nonzero) | bits[i];
      __syncwarp();  // every lane has read bits[i]
      if (lane == 0) bits[i] = m;
      mine += __popc(m);
    }
    int at, nnz;
    BlockScan(scan_temp).ExclusiveSum(lane == 0 ? mine : 0, at, nnz);
    std::int64_t to = before + __shfl_sync(0xffffffffu, at, 0);
    __syncwarp();  // lane 0's words written
    for (int i = i0; i < i1; ++i) {
      const unsigned int m = bits[i];
      if (m >> lane & 1u) {
        const std::int64_t at_c = to + __popc(m & ((1u << lane) - 1u));
        const int c = i * 32 + lane;
        if (at_c < room) {  // always, unless the bound is wrong
          g.stage_col[c0 + at_c] = lo + c;
          g.stage_val[c0 + at_c] = fixed_value(sums + 2 * c);
        }
      }
      to += __popc(m);
    }
    before += nnz;
    __syncthreads();  // the SPA and the scan's storage read before they are reused
  }
  if (threadIdx.x == 0) g.row_nnz[row] = static_cast<offset_t>(before);
}

}  // namespace graphrun::cuda::spgemm_detail
