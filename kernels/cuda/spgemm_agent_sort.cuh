// The agents that move staged rows into C:
//   - rows whose hash tables live in global memory are staged unsorted by
//     numeric_kernel, sorted by a CUB segmented sort (the dispatch,
//     spgemm_dispatch.cuh), and copied into C by scatter_rows_kernel;
//   - rows computed before the symbolic phase (expand-sort-compress and
//     direct hash rows, plan/spgemm_gpu_policy.hpp) are staged sorted at
//     offsets their bounds place, and copied by staged_copy_kernel once
//     C's row pointers exist.
#pragma once

#include <cstdint>

#include "../plan/spgemm_gpu_policy.hpp"
#include "graphrun/engine/types.hpp"
#include "graphrun/kernels/cuda/search.cuh"

namespace graphrun::cuda::spgemm_detail {

// Number of entries of the j-th row of a list (0 past its end): the input of
// the scan that places the global-memory rows in the staging buffer.
struct ListedRowNnz {
  const vertex_t* rows;
  std::int64_t count;
  const offset_t* c_ptr;
  __host__ __device__ std::int64_t operator()(std::int64_t j) const {
    if (j >= count) return 0;
    const vertex_t r = rows[j];
    return c_ptr[r + 1] - c_ptr[r];
  }
};

// Copies sorted staged rows to their places in C, a block per row.
template <class V>
__global__ void scatter_rows_kernel(const vertex_t* __restrict__ rows, std::int64_t count,
                                    const std::int64_t* __restrict__ stage_off,
                                    const vertex_t* __restrict__ s_col, const V* __restrict__ s_val,
                                    const offset_t* __restrict__ c_ptr,
                                    vertex_t* __restrict__ c_col, V* __restrict__ c_val) {
  for (std::int64_t j = blockIdx.x; j < count; j += gridDim.x) {
    const std::int64_t src = stage_off[j], len = stage_off[j + 1] - src;
    const offset_t dst = c_ptr[rows[j]];
    for (std::int64_t e = threadIdx.x; e < len; e += blockDim.x) {
      c_col[dst + e] = s_col[src + e];
      c_val[dst + e] = s_val[src + e];
    }
  }
}

// The staged rows into C, a thread per slot of the staging: slot s is in
// the row whose staging [stage_off[r], stage_off[r + 1]) holds it (rows not
// staged have none), and a row's first nnz(C(r,:)) slots are its entries.
// A block takes a tile of kStagedCopyTile slots, finds the rows of its
// first and last by binary search over all rows, then each slot's between
// those two. A warp per row (staged_copy_rows_kernel) leaves the longest
// row to one warp: R-MAT 20's S·A (contraction, random labels), whose sorted
// rows reach 8,192 entries, took 84 us to copy, (S·A)·Sᵀ, as many entries
// in rows of at most 1,024, 47.
//
// Used where the longest staged row's bound is at least kSlotCopyMinBound
// (the dispatch's copy_by_slots): Nsight Compute on an H100, kernel times
// a row to a warp / by slots: R-MAT 20's S·A (random labels, rows up to
// 8,192) 84 / 44 us, A·A of R-MAT 17 277 / 243 us; but (S·A)·Sᵀ (rows up to
// 1,024) 47 / 61 us and A·A of soc-Epinions1 78 / 87 us, where a row's bound
// leaves unused slots that the threads still search.
inline constexpr std::int64_t kSlotCopyMinBound = 4096;
inline constexpr int kStagedCopyBlock = 256;
inline constexpr int kStagedCopyTile = kStagedCopyBlock * 4;

template <class V>
__global__ void __launch_bounds__(kStagedCopyBlock)
    staged_copy_kernel(vertex_t m, const std::int64_t* __restrict__ stage_off,
                       const vertex_t* __restrict__ stage_col, const V* __restrict__ stage_val,
                       const offset_t* __restrict__ c_ptr, vertex_t* __restrict__ c_col,
                       V* __restrict__ c_val) {
  __shared__ vertex_t span[2];
  const std::int64_t total = stage_off[m];
  for (std::int64_t t0 = std::int64_t{blockIdx.x} * kStagedCopyTile; t0 < total;
       t0 += std::int64_t{gridDim.x} * kStagedCopyTile) {
    const std::int64_t t1 = t0 + kStagedCopyTile < total ? t0 + kStagedCopyTile : total;
    if (threadIdx.x < 2)
      span[threadIdx.x] =
          last_at_most(stage_off, vertex_t{0}, m - 1, threadIdx.x == 0 ? t0 : t1 - 1);
    __syncthreads();
    const vertex_t lo = span[0], hi = span[1];
    for (std::int64_t s = t0 + threadIdx.x; s < t1; s += kStagedCopyBlock) {
      const vertex_t r = last_at_most(stage_off, lo, hi, s);  // the row whose staging holds s
      const std::int64_t e = s - stage_off[r];
      const offset_t c0 = c_ptr[r];
      if (e < c_ptr[r + 1] - c0) {
        c_col[c0 + e] = stage_col[s];
        c_val[c0 + e] = stage_val[s];
      }
    }
    __syncthreads();  // the span is the next tile's
  }
}

// staged_copy_kernel's work a warp per row (SpgemmOptions::copy_by_slots
// off), for comparison: row i is a staged row where its staging offsets
// differ (other rows add nothing to the scan that made them).
template <class V>
__global__ void __launch_bounds__(256)
    staged_copy_rows_kernel(vertex_t m, const std::int64_t* __restrict__ stage_off,
                            const vertex_t* __restrict__ stage_col, const V* __restrict__ stage_val,
                            const offset_t* __restrict__ c_ptr, vertex_t* __restrict__ c_col,
                            V* __restrict__ c_val) {
  const int lane = threadIdx.x % 32;
  const long long n_warps = static_cast<long long>(gridDim.x) * (blockDim.x / 32);
  for (long long r = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32; r < m;
       r += n_warps) {
    const std::int64_t s = stage_off[r];
    if (stage_off[r + 1] == s) continue;
    const offset_t c0 = c_ptr[r], n = c_ptr[r + 1] - c0;
    for (offset_t e = lane; e < n; e += 32) {
      c_col[c0 + e] = stage_col[s + e];
      c_val[c0 + e] = stage_val[s + e];
    }
  }
}

// A staged row's bound on its entries (its IP, at most B's columns), 0 for
// the other rows: the scan that places the staging. A row's group is its
// analysis key (f_.keys), read before any later grouping overwrites it.
struct StagedEntries {
  const unsigned long long* ip;
  const std::uint8_t* keys;
  vertex_t m;
  vertex_t n_cols;
  __host__ __device__ std::int64_t operator()(std::int64_t r) const {
    if (r >= m || keys[r] < kFirstStaged) return 0;
    const auto v = static_cast<std::int64_t>(ip[r]);
    return v < n_cols ? v : n_cols;
  }
};

}  // namespace graphrun::cuda::spgemm_detail
