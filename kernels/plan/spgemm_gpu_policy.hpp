// The tuning of the GPU SpGEMM in one place: how rows are grouped, how big
// each group's accumulator is and how many threads work on one row.
//
// A row's group is chosen from a bound on its distinct columns:
//   symbolic  e(i) = min(IP(i), n_cols)  (the distinct columns are not known yet)
//   numeric   nnz(C(i,:))                (known exactly after the symbolic phase)
// and from IP(i), which sends rows with many products per distinct column
// from a partial warp to a whole block.
//
// Four kinds of accumulator:
//   - hash tables in shared memory (the `bins`): a team of threads per row
//     (a partial warp or a warp, several rows per block) for short rows, a
//     block per row for longer ones. Each row uses the power of two at or
//     above twice its bound (at most half full), up to its bin's slots, so
//     short rows of a bin do not pay for the longest one. Numeric tables
//     hold a value beside each key and are sorted in place afterwards.
//   - a dense bitmap (`dense`): one bit per column of B in shared memory,
//     for rows whose bound is a sizeable share of n_cols. The symbolic phase
//     counts set bits; the numeric phase ranks each column among the set
//     bits (a prefix count per 32-bit word) and accumulates at that rank,
//     in shared memory when the row fits there and in C itself otherwise.
//     C's row comes out in column order: no hash probing, no sort.
//   - the same bitmap over windows of columns (`windowed`), when n_cols is
//     too large for one bitmap: rows beyond the shared bins get a block per
//     window of window_cols columns, each walking only its window's share
//     of every B row (found by binary search: B's rows are sorted). The
//     windows of a row write their parts of C(i,:) in column order, each
//     after the windows before it have published their counts.
//   - hash tables in global memory, a block per row: rows beyond the shared
//     bins when n_cols needs more than max_windows windows, or when bitmaps
//     are turned off. Their rows are staged and sorted by a CUB segmented
//     sort.
// and one that is not an accumulator:
//   - expand-sort-compress (`esc`): rows of 17 to 2,048 products
//     that would take a team or block hash bin are laid out product by
//     product, sorted by column (a block radix sort) and summed run by run,
//     before the symbolic phase and instead of both hash phases.
// The other rows of the shared hash bins skip the symbolic phase too where
// their bound fits a numeric bin (`direct`): the numeric agent runs before
// the symbolic phase with its table sized by the bound, not by nnz(C(i,:)),
// and stages the row as expand-sort-compress does. The symbolic phase is
// left to the bitmap and global rows, and to every row when the staging
// does not fit.
//
// Sizes are for the H200 (sm_90: 228 KB shared memory per SM, at most 227 KB
// per block, 2048 threads per SM).
//
// Plain C++ (GRAPHRUN_HD): the GPU's kernels group rows with these
// functions, and the plan (spgemm_gpu_plan.hpp) and the memory estimate size
// the same groups with them on the host, in builds with or without CUDA.
#pragma once

#include <cstddef>
#include <cstdint>

#include "graphrun/engine/host_device.hpp"

namespace graphrun::cuda::spgemm_detail {

struct Bin {
  std::int64_t max_bound;  // rows whose bound is <= this (and not in an earlier bin)
  int slots;               // most hash-table entries per row, a power of two
  int block;               // threads per block
  int team;                // threads per row (divides block; block per row when equal)
  std::int64_t max_ip;     // team bins: rows with more products go to a later bin
};

inline constexpr std::int64_t kAnyIp = INT64_MAX;

struct DenseBin {
  std::int64_t max_bound;
  std::int64_t max_ip;  // rows with more products take the next, larger block
  int block;
};

struct SpgemmPolicy {
  // A warp per row for rows of at most this many products: more, and a
  // warp walks them too long (measured on facebook_combined: 4096 -> 1024
  // took its time from 0.47 to 0.43 ms).
  static constexpr std::int64_t warp_max_ip = 1024;

  // Shared-memory hash bins, in the order they are tried.
  static constexpr int bins = 5;
  GRAPHRUN_HD static constexpr Bin symbolic(int g) {
    switch (g) {
      case 0:
        return {32, 64, 256, 8, 256};  // 32 rows per block, 8 KB
      case 1:
        return {256, 512, 256, 32, warp_max_ip};  // a warp per row, 16 KB
      case 2:
        return {1024, 2048, 256, 256, kAnyIp};  // 8 KB
      case 3:
        return {4096, 8192, 512, 512, kAnyIp};  // 32 KB
      default:
        return {16384, 32768, 1024, 1024, kAnyIp};  // 128 KB
    }
  }
  GRAPHRUN_HD static constexpr Bin numeric(int g) {
    switch (g) {
      case 0:
        return {16, 32, 256, 8, 256};  // 32 rows per block; double: 12 KB
      case 1:
        return {128, 256, 256, 32, warp_max_ip};  // a warp per row; double: 24 KB
      case 2:
        return {1024, 2048, 256, 256, kAnyIp};  // double: 24 KB
      case 3:
        return {4096, 8192, 512, 512, kAnyIp};  // double: 96 KB
      default:
        return {8192, 16384, 1024, 1024, kAnyIp};  // double: 192 KB, float: 128 KB
    }
  }

  // Dense bitmap rows: those past the team bins whose bitmap has at most
  // dense_words_per_entry 32-bit words per entry of their bound, when B has
  // at most dense_max_cols columns (the numeric bitmap and its prefix
  // counts take n_cols / 4 bytes of shared memory).
  static constexpr int dense_words_per_entry = 2;
  static constexpr std::int64_t dense_max_cols = std::int64_t{1} << 19;
  // A bitmap row with more products than this per entry accumulates in C's
  // values (native global atomics, in L2) even when it would fit in shared
  // memory: many threads adding into few entries make the compare-and-swap
  // loops of shared-memory double atomics retry without end.
  static constexpr int dense_shared_max_products_per_entry = 16;
  static constexpr int dense_bins = 2;
  GRAPHRUN_HD static constexpr DenseBin dense(int g) {
    return g == 0 ? DenseBin{4096, 16384, 256} : DenseBin{INT64_MAX, kAnyIp, 1024};
  }

  // Windows of columns for bitmap rows of a B wider than dense_max_cols:
  // 2^18 columns take 32 KB of bits (64 KB with the numeric phase's prefix
  // counts), so two blocks of 1,024 threads share an SM. Past max_windows
  // windows a row walks its products too many times; it keeps a global
  // hash table instead.
  static constexpr std::int64_t window_cols = std::int64_t{1} << 18;
  static constexpr std::int64_t max_windows = 64;

  static constexpr int global_block = 1024;

  // Rows of more than sort_min_ip and at most sort_max_ip products (and at
  // most as many entries of A as their bin holds) whose hash group would be
  // a team or block bin are computed in one pass by expand-sort-compress
  // (spgemm_agent_esc.cuh): a block per row sorts the row's products by
  // column and sums the runs, with no symbolic phase. Bins by products: the
  // smallest whose capacity holds the row, a block of `block` threads of
  // cap / block items each; the bins of 4,096 and 8,192 products keep their
  // arrays in ~50 and ~100 KB of dynamic shared memory.
  //
  // The upper bound, 8,192, measured on the H100 against 2,048 (rows of
  // 2,049-8,192 products direct instead), consecutive / random labels: the
  // contraction of R-MAT 20 (ef 16) 1.46 / 1.64 -> 1.81 / 1.87x cuSPARSE,
  // R-MAT 22 20.7 / 14.5 -> 17.9 / 12.3 ms, R-MAT 20 ef 5 1.69 / 1.55 ->
  // 1.90 / 1.52x, the uniform graph level; A*A of four shared graphs and
  // R-MAT 16/17 within 2% but facebook_combined (0.326 -> 0.346 ms).
  //
  // The lower bound, 16, measured on the H100 against 128: the contraction
  // of R-MAT 22 (random labels) 14.5 -> 13.7 ms and of the uniform 1M x 8
  // graph 1.32 -> 1.16 ms, A*A of six shared graphs level or better
  // (ca-HepPh 0.745 -> 0.714 ms). Rows that short would otherwise go direct,
  // whose tables cost more per product than a warp's sort of 128 keys.
  static constexpr std::int64_t sort_min_ip = 16;
  static constexpr std::int64_t sort_max_ip = 8192;
  // ... and only where B has at least this many columns per product: a row
  // whose products would cover a larger share of B's columns tends to repeat
  // them, and its sort then costs its products where the hash numeric phase
  // costs its entries. Measured on the H100 (sorted / hashed A·A):
  // facebook_combined (4,039 columns, 8 products an entry) 0.34 / 0.25 ms,
  // ca-HepPh (12,008, 9.4) 0.76 / 0.66 ms; email-Enron (36,692, 1.7) and
  // soc-Epinions1 (75,879, 1.9) 9-17% faster sorted, as is every
  // contraction (B of 2^16 columns and more). 64 is the bitmap rows' share.
  static constexpr std::int64_t sort_cols_per_product = 64;
  static constexpr int esc_bins = 7;

  // Rows of the shared hash bins whose bound is at most this (the largest
  // numeric bin's) are computed in one pass, before the symbolic phase: a
  // numeric table sized by the bound, the row staged. The symbolic phase
  // inserted every product of these rows once more only to size a table.
  static constexpr std::int64_t direct_max_bound = 8192;

  // Threads of a team that walk one row of B together: a power of two up to
  // this, matched to the mean length of the B rows the row reads.
  static constexpr int max_sub_team = 32;
};

// The sorted bins' shapes. A row of up to 128 products is a warp's work and
// one of up to 256 two warps': four and two such rows share a block, since
// an SM holds at most 32 blocks and a block of one warp left half its warp
// slots empty. min_blocks caps the registers (64 for the bins of 8 items a
// thread, which took 80-92 and so ran 16-24 warps an SM; 40 for the bins
// of 4 items, which took 47-52): with a few spilled words, 32 and 48 warps
// an SM. Measured on the H100 (Nsight Compute after the change: 44-73%
// achieved occupancy, the longer bins bound by L1 at 89-95% of its
// throughput), the contraction against cuSPARSE, two alternated runs each:
// R-MAT 20 ef 5 random labels 1.47 / 1.51 -> 1.56 / 1.58x, consecutive
// 1.73 / 1.91 -> 1.94 / 2.02x, R-MAT 22 random 1.65 / 1.62 -> 1.71 / 1.75x,
// R-MAT 20 random 1.86 / 1.85 -> 1.95 / 1.99x; A*A of soc-Epinions1,
// cit-HepPh and R-MAT 16/17 level.
struct EscBin {
  int cap;         // most products (and entries of A) of a row
  int block;       // threads per row
  int rows;        // rows per block, a row to each `block` threads
  int min_blocks;  // blocks an SM should hold: caps the registers a thread
};
GRAPHRUN_HD constexpr EscBin esc_bin(int g) {
  switch (g) {
    case 0:
      return {128, 32, 4, 12};
    case 1:
      return {256, 64, 2, 12};
    case 2:
      return {512, 128, 1, 12};
    case 3:
      return {1024, 128, 1, 8};
    case 4:
      return {2048, 256, 1, 4};
    case 5:
      return {4096, 512, 1, 2};
    default:
      return {8192, 1024, 1, 1};
  }
}
// The most products a sorted row may have (SpgemmOptions::sort_max_ip).
inline constexpr std::int64_t kSortMaxIpLimit = esc_bin(SpgemmPolicy::esc_bins - 1).cap;
static_assert(kSortMaxIpLimit >= SpgemmPolicy::sort_max_ip);
static_assert(SpgemmPolicy::direct_max_bound <=
              SpgemmPolicy::numeric(SpgemmPolicy::bins - 1).max_bound);

// Group ids: the hash bins, the dense bins, the global-memory group, rows
// with nothing to do (IP = 0, or an empty row of C), then the rows done
// before the symbolic phase and staged: the expand-sort-compress bins, the
// direct hash bins (the numeric bins, one to one) and the staged bitmap
// rows (the dense bins, one to one).
inline constexpr int kFirstDense = SpgemmPolicy::bins;
inline constexpr int kGlobalGroup = kFirstDense + SpgemmPolicy::dense_bins;
inline constexpr int kEmptyGroup = kGlobalGroup + 1;
inline constexpr int kFirstEsc = kEmptyGroup + 1;
inline constexpr int kFirstStaged = kFirstEsc;  // every group from here on is staged
inline constexpr int kFirstDirect = kFirstEsc + SpgemmPolicy::esc_bins;
inline constexpr int kFirstStagedDense = kFirstDirect + SpgemmPolicy::bins;
inline constexpr int kMaxGroups = kFirstStagedDense + SpgemmPolicy::dense_bins;

GRAPHRUN_HD constexpr std::uint64_t next_pow2(std::uint64_t v) {
  std::uint64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

// Hash-table slots for a row with this bound: at most half full.
GRAPHRUN_HD constexpr std::uint64_t table_slots(std::int64_t bound) {
  return next_pow2(2 * static_cast<std::uint64_t>(bound > 0 ? bound : 1));
}

GRAPHRUN_HD constexpr std::int64_t bitmap_words(std::int64_t n_cols) { return (n_cols + 31) / 32; }

GRAPHRUN_HD inline std::int64_t symbolic_bound(std::int64_t ip, std::int32_t n_cols) {
  return ip < n_cols ? ip : n_cols;
}

GRAPHRUN_HD constexpr std::int64_t column_windows(std::int64_t n_cols) {
  return (n_cols + SpgemmPolicy::window_cols - 1) / SpgemmPolicy::window_cols;
}

// The three constants above that SpgemmOptions may override at run time
// (for sweeps: graphrun bench spgemm --tune), whether bitmap rows are
// possible at all (B's columns within dense_max_cols, the caller's choice),
// and whether rows past the shared bins take windowed bitmaps (B wider than
// that, within max_windows windows) rather than global hash tables.
struct Tuning {
  bool dense = true;
  bool windowed = false;
  int dense_words_per_entry = SpgemmPolicy::dense_words_per_entry;
  int dense_shared_max_products_per_entry = SpgemmPolicy::dense_shared_max_products_per_entry;
  std::int64_t warp_max_ip = SpgemmPolicy::warp_max_ip;
  std::int64_t sort_min_ip = SpgemmPolicy::sort_min_ip;
  std::int64_t sort_max_ip = SpgemmPolicy::sort_max_ip;  // 0: no row is sorted
  std::int64_t sort_cols_per_product = SpgemmPolicy::sort_cols_per_product;
  std::int64_t direct_max_bound = SpgemmPolicy::direct_max_bound;  // 0: no row is direct
  // A row goes direct only where B has at least this many columns per entry
  // of its bound (0: any B). For sweeps: direct rows cost A·A of graphs whose
  // products repeat their columns (facebook_combined, 4,039 columns) more
  // than their symbolic phase saved; B's width is the sign known beforehand.
  std::int64_t direct_cols_per_bound = 0;
  // Bitmap rows (one window: B within dense_max_cols) skip the symbolic
  // phase too, their rows staged at their bounds (SpgemmOptions::
  // stage_bitmap_rows).
  bool staged_dense = false;
};

// The group of a row with `bound` and `ip`, bins from `bin` (symbolic or
// numeric), in the order: team bins, dense, block bins, global.
template <class BinOf>
GRAPHRUN_HD inline int group_of(std::int64_t bound, std::int64_t ip, std::int32_t n_cols,
                                const Tuning& t, BinOf bin) {
  int g = 0;
  for (; g < SpgemmPolicy::bins; ++g) {
    const Bin b = bin(g);
    if (b.team == b.block) break;  // the block bins come after dense
    const std::int64_t max_ip = b.team == 32 ? t.warp_max_ip : b.max_ip;
    if (bound <= b.max_bound && ip <= max_ip) return g;
  }
  if (t.dense && bitmap_words(n_cols) <= t.dense_words_per_entry * bound) {
    for (int d = 0; d < SpgemmPolicy::dense_bins; ++d)
      if (bound <= SpgemmPolicy::dense(d).max_bound && ip <= SpgemmPolicy::dense(d).max_ip)
        return kFirstDense + d;
  }
  for (; g < SpgemmPolicy::bins; ++g)
    if (bound <= bin(g).max_bound) return g;
  return t.windowed ? kFirstDense + SpgemmPolicy::dense_bins - 1 : kGlobalGroup;
}

GRAPHRUN_HD inline int symbolic_group(std::int64_t ip, std::int32_t n_cols, const Tuning& t) {
  if (ip == 0) return kEmptyGroup;
  return group_of(symbolic_bound(ip, n_cols), ip, n_cols, t,
                  [](int g) { return SpgemmPolicy::symbolic(g); });
}

GRAPHRUN_HD inline int numeric_group(std::int64_t nnz, std::int64_t ip, std::int32_t n_cols,
                                     const Tuning& t) {
  if (nnz == 0) return kEmptyGroup;
  return group_of(nnz, ip, n_cols, t, [](int g) { return SpgemmPolicy::numeric(g); });
}

// A row's group, its bound, and what a row of the global-memory group adds
// to the totals the plan sizes buffers by: its table slots and (numeric) its
// entries. The grouping kernels tally these per row on the device; the
// estimate tallies the same on the host.
struct RowGroup {
  int group;
  std::int64_t bound;
  unsigned long long global_slots;
  unsigned long long global_nnz;
};

// Symbolic phase: the row's group from its products `ip`.
GRAPHRUN_HD inline RowGroup symbolic_row_group(std::int64_t ip, std::int32_t n_cols,
                                               const Tuning& t) {
  const int g = symbolic_group(ip, n_cols, t);
  const std::int64_t e = symbolic_bound(ip, n_cols);
  if (g != kGlobalGroup) return {g, e, 0, 0};
  return {g, e, table_slots(e), 0};
}

// Numeric phase: the row's group from nnz(C(i,:)) and its products.
GRAPHRUN_HD inline RowGroup numeric_row_group(std::int64_t nnz, std::int64_t ip,
                                              std::int32_t n_cols, const Tuning& t) {
  const int g = numeric_group(nnz, ip, n_cols, t);
  if (g != kGlobalGroup) return {g, nnz, 0, 0};
  return {g, nnz, table_slots(nnz), static_cast<unsigned long long>(nnz)};
}

// The expand-sort-compress group of a row with `ip` products over `len`
// entries of A whose hash-table group would be `group`, or -1: rows in a
// team or block bin only (a bitmap row has few columns to find, a global
// one too many products) whose products spread over B's n_cols columns, in
// the smallest bin that holds both counts.
GRAPHRUN_HD inline int esc_group(std::int64_t ip, std::int64_t len, int group, std::int32_t n_cols,
                                 const Tuning& t) {
  if (ip <= t.sort_min_ip || ip > t.sort_max_ip || group >= kFirstDense) return -1;
  if (ip * t.sort_cols_per_product > n_cols) return -1;
  const std::int64_t need = ip > len ? ip : len;
  for (int g = 0; g < SpgemmPolicy::esc_bins; ++g)
    if (need <= esc_bin(g).cap) return kFirstEsc + g;
  return -1;
}

// The direct group of a row with `bound` and `ip` whose symbolic group is
// `group`, or -1: rows of the shared hash bins (a bitmap row counts its
// columns in a bitmap, cheaply; a global row has no shared table to fill)
// whose bound fits a numeric bin. Their numeric bin is the one a row with
// that many entries would take.
GRAPHRUN_HD inline int direct_group(std::int64_t bound, std::int64_t ip, int group,
                                    std::int32_t n_cols, const Tuning& t) {
  if (group >= kFirstDense || bound <= 0 || bound > t.direct_max_bound) return -1;
  if (t.direct_cols_per_bound > 0 && bound * t.direct_cols_per_bound > n_cols) return -1;
  const int g = numeric_group(bound, ip, n_cols, t);
  return g < kFirstDense ? kFirstDirect + g : -1;
}

// The staged bitmap group of a row whose symbolic group is `group`, or -1:
// a bitmap row of one window, when Tuning::staged_dense. The numeric phase's
// own count of the bitmap's bits is the row's nnz, so the symbolic phase's
// walk of the products, the same bits set once more, is saved; the staging
// takes the row's bound (min(IP, n_cols)) and the row is copied into C once
// C's row pointers exist.
GRAPHRUN_HD inline int staged_dense_group(int group, std::int32_t n_cols, const Tuning& t) {
  if (!t.staged_dense || group < kFirstDense || group >= kGlobalGroup ||
      n_cols > SpgemmPolicy::dense_max_cols)
    return -1;
  return kFirstStagedDense + (group - kFirstDense);
}

}  // namespace graphrun::cuda::spgemm_detail
