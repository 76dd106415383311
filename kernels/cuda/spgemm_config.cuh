// The tuning of the GPU SpGEMM in one place: how rows are grouped, how big
// each group's hash table is and how many threads work on one row.
//
// A row's group is chosen from a bound on its distinct columns:
//   symbolic  e(i) = min(IP(i), n_cols)  (the distinct columns are not known yet)
//   numeric   nnz(C(i,:))                (known exactly after the symbolic phase)
// Shared-memory groups hold `slots` table entries per row. Symbolic tables
// hold keys only (4 bytes), so they can afford a load of at most 1/2 against
// the worst case; numeric tables hold key and value and are sized to the
// exact count at load 1/2. Rows beyond the last shared group get a table in
// global memory, one block per row, sized to the next power of two of twice
// the bound.
//
// `team` threads work on one row; team == block means a block per row, a
// smaller team a partial warp per row (block / team rows per block).
// Sizes are starting points for the H200 (sm_90: 228 KB shared memory per
// SM, at most 227 KB per block, 2048 threads per SM): every table fits the
// per-block limit and the small groups leave room for several blocks per SM.
// They have not been swept yet; docs/bench/spgemm-h200.md holds the figures
// measured with them.
#pragma once

#include <cstddef>
#include <cstdint>

namespace graphrun::cuda::spgemm_detail {

struct Bin {
  std::int64_t max_bound;  // rows whose bound is <= this (and above the previous bin's)
  int slots;               // hash-table entries per row, a power of two
  int block;               // threads per block
  int team;                // threads per row (divides block; block per row when equal)
};

// The groups, as functions so that host and device code (and template
// arguments) read the same numbers.
struct SpgemmPolicy {
  static constexpr int symbolic_bins = 4;
  __host__ __device__ static constexpr Bin symbolic(int g) {
    switch (g) {
      case 0:
        return {32, 64, 256, 8};  // 32 rows per block, 8 KB
      case 1:
        return {512, 1024, 128, 128};  // 4 KB
      case 2:
        return {4096, 8192, 256, 256};  // 32 KB
      default:
        return {16384, 32768, 1024, 1024};  // 128 KB
    }
  }
  static constexpr int symbolic_global_block = 1024;

  static constexpr int numeric_bins = 4;
  __host__ __device__ static constexpr Bin numeric(int g) {
    switch (g) {
      case 0:
        return {32, 64, 256, 8};  // 32 rows per block; double: 24 KB
      case 1:
        return {512, 1024, 128, 128};  // double: 12 KB
      case 2:
        return {2048, 4096, 256, 256};  // double: 48 KB
      default:
        return {8192, 16384, 1024, 1024};  // double: 192 KB, float: 128 KB
    }
  }
  // A partial-warp team also needs little work: rows with more products than
  // this go to a block even when their few distinct columns would fit.
  static constexpr std::int64_t numeric_team_max_ip = 256;
  static constexpr int numeric_global_block = 1024;

  // Threads of a team that walk one row of B together: a power of two up to
  // this, matched to the mean length of the B rows the row reads.
  static constexpr int max_sub_team = 32;
};

// Group ids: 0 .. bins-1 shared-memory groups, then the global-memory group,
// then rows with nothing to do (IP = 0, or an empty row of C).
inline constexpr int kMaxGroups = 8;

__host__ __device__ inline std::uint64_t next_pow2(std::uint64_t v) {
  std::uint64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

// Table slots of a global-memory row: at most half full.
__host__ __device__ inline std::uint64_t global_slots(std::int64_t bound) {
  return next_pow2(2 * static_cast<std::uint64_t>(bound));
}

__host__ __device__ inline std::int64_t symbolic_bound(std::int64_t ip, std::int32_t n_cols) {
  return ip < n_cols ? ip : n_cols;
}

__host__ __device__ inline int symbolic_group(std::int64_t ip, std::int32_t n_cols) {
  if (ip == 0) return SpgemmPolicy::symbolic_bins + 1;
  const std::int64_t e = symbolic_bound(ip, n_cols);
  for (int g = 0; g < SpgemmPolicy::symbolic_bins; ++g)
    if (e <= SpgemmPolicy::symbolic(g).max_bound) return g;
  return SpgemmPolicy::symbolic_bins;
}

__host__ __device__ inline int numeric_group(std::int64_t nnz, std::int64_t ip) {
  if (nnz == 0) return SpgemmPolicy::numeric_bins + 1;
  for (int g = 0; g < SpgemmPolicy::numeric_bins; ++g) {
    const Bin b = SpgemmPolicy::numeric(g);
    if (nnz > b.max_bound) continue;
    if (b.team < b.block && ip > SpgemmPolicy::numeric_team_max_ip) continue;
    return g;
  }
  return SpgemmPolicy::numeric_bins;
}

}  // namespace graphrun::cuda::spgemm_detail
