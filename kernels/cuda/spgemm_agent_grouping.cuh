// The grouping agents of the GPU SpGEMM: the kernels that analyse rows and
// list them group by group, launched by the dispatch (spgemm_dispatch.cuh):
//
//   analysis_kernel       IP(i) = Σ_{k ∈ A(i,:)} nnz(B(k,:)) and the row's symbolic
//                         group (plan/spgemm_gpu_policy.hpp), a warp per row; group sizes
//   group_count_kernel    a row's numeric group (or symbolic, per chunk); group sizes
//   group_scatter_kernel  the rows listed group by group (a counting sort)
//
// and the scalars they leave for the host to read in one copy (their layout,
// ScalarsAt, is the plan's: plan/spgemm_gpu_plan.hpp). A row's group and what
// it adds to the totals come from the policy's symbolic_row_group and
// numeric_row_group, the functions the memory estimate tallies rows with.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../plan/spgemm_gpu_plan.hpp"
#include "../plan/spgemm_gpu_policy.hpp"
#include "graphrun/engine/types.hpp"

namespace graphrun::cuda::spgemm_detail {

// Up to 4 other scalars (8 bytes each) copied into the gather area, so that
// one copy brings everything the host waits for.
struct Gather {
  const unsigned long long* src[4];
  int n;
};

// ---- grouping ---------------------------------------------------------------

// A row's symbolic group from its products and its entries of A: a hash,
// bitmap or global group, or a staged one, done before the symbolic phase
// (the symbolic launches leave those groups alone): an expand-sort-compress
// bin, else a direct hash bin, else a staged bitmap bin. A staged row's
// bound is its staging's size.
struct SymbolicKey {
  const unsigned long long* ip;
  const offset_t* a_ptr;
  vertex_t n_cols;
  Tuning tuning;
  __device__ RowGroup of(std::int64_t v, std::int64_t len) const {
    const RowGroup g = symbolic_row_group(v, n_cols, tuning);
    if (const int e = esc_group(v, len, g.group, n_cols, tuning); e >= 0)
      return RowGroup{e, g.bound, 0, 0};
    if (const int d = direct_group(g.bound, v, g.group, n_cols, tuning); d >= 0)
      return RowGroup{d, g.bound, 0, 0};
    if (const int b = staged_dense_group(g.group, n_cols, tuning); b >= 0)
      return RowGroup{b, g.bound, 0, 0};
    return g;
  }
  __device__ RowGroup operator()(vertex_t r) const {
    return of(static_cast<std::int64_t>(ip[r]), a_ptr[r + 1] - a_ptr[r]);
  }
};

// A row's numeric group from nnz(C(i,:)); the rows the symbolic key staged
// are done, and go with the empty ones.
struct NumericKey {
  SymbolicKey sym;
  const offset_t* c_ptr;
  __device__ RowGroup operator()(vertex_t r) const {
    if (sym(r).group >= kFirstStaged) return {kEmptyGroup, 0, 0, 0};
    const offset_t nnz = c_ptr[r + 1] - c_ptr[r];
    return numeric_row_group(nnz, static_cast<std::int64_t>(sym.ip[r]), sym.n_cols, sym.tuning);
  }
};

// A block's share of the totals, gathered in shared memory and added to the
// scalars once per block.
struct GroupTally {
  unsigned int count[kMaxGroups];
  unsigned long long max_bound[kMaxGroups];
  unsigned long long global_slots, global_nnz, ip, staged;

  __device__ void clear() {
    for (int i = threadIdx.x; i < kMaxGroups; i += blockDim.x) {
      count[i] = 0;
      max_bound[i] = 0;
    }
    if (threadIdx.x == 0) global_slots = global_nnz = ip = staged = 0;
  }
  __device__ void add(const RowGroup& k, unsigned long long row_ip) {
    atomicAdd(&count[k.group], 1u);
    atomicMax(&max_bound[k.group], static_cast<unsigned long long>(k.bound));
    if (k.global_slots) {
      atomicAdd(&global_slots, k.global_slots);
      atomicAdd(&global_nnz, k.global_nnz);
    }
    if (row_ip) atomicAdd(&ip, row_ip);
    if (row_ip && k.group >= kFirstStaged)
      atomicAdd(&staged, static_cast<unsigned long long>(k.bound));
  }
  __device__ void flush(unsigned long long* scalars) const {
    for (int i = threadIdx.x; i < kMaxGroups; i += blockDim.x) {
      if (count[i] == 0) continue;
      atomicAdd(&scalars[ScalarsAt::count + i], static_cast<unsigned long long>(count[i]));
      atomicMax(&scalars[ScalarsAt::max_bound + i], max_bound[i]);
    }
    if (threadIdx.x == 0) {
      if (global_slots) atomicAdd(&scalars[ScalarsAt::global_slots], global_slots);
      if (global_nnz) atomicAdd(&scalars[ScalarsAt::global_nnz], global_nnz);
      if (ip) atomicAdd(&scalars[ScalarsAt::total_ip], ip);
      if (staged) atomicAdd(&scalars[ScalarsAt::staged], staged);
    }
  }
};

// Whether every row of B holds exactly one entry (Sᵀ in the second product
// of a contraction S·A·Sᵀ, a selection or permutation): then IP(i) is the
// length of A's row, and the analysis reads neither A's columns nor B's row
// pointers through them (on R-MAT 22's (S·A)·Sᵀ, 65 million gathers: about
// 1 ms). Sets *not_unit (cleared by the caller) at the first other row.
__global__ void __launch_bounds__(256)
    unit_rows_check_kernel(const offset_t* __restrict__ b_ptr, vertex_t n,
                           unsigned long long* __restrict__ not_unit) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long r = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; r < n;
       r += stride)
    if (b_ptr[r + 1] - b_ptr[r] != 1) {
      *not_unit = 1;
      return;
    }
}

// A's rows of at most this many entries are summed by one lane each in
// analysis_kernel; longer ones by the whole warp.
inline constexpr int kLaneRowEntries = 32;

// IP of A's row [a0, a1) by one lane, eight entries in flight.
__device__ inline long long lane_row_ip(const vertex_t* __restrict__ a_col,
                                        const offset_t* __restrict__ b_ptr, offset_t a0,
                                        offset_t a1) {
  long long w = 0;
  offset_t p = a0;
  for (; p + 8 <= a1; p += 8) {
    vertex_t k[8];
#pragma unroll
    for (int u = 0; u < 8; ++u) k[u] = a_col[p + u];
#pragma unroll
    for (int u = 0; u < 8; ++u) w += b_ptr[k[u] + 1] - b_ptr[k[u]];
  }
  for (; p < a1; ++p) w += b_ptr[a_col[p] + 1] - b_ptr[a_col[p]];
  return w;
}

// IP of A's row [a0, a1) by the whole warp (every lane passes the same row),
// eight entries a lane in flight: a hub's row of S·A (contraction,
// consecutive labels) holds a million entries, and one warp walking it a
// load chain at a time took 7.6 ms on R-MAT 22.
__device__ inline long long warp_row_ip(const vertex_t* __restrict__ a_col,
                                        const offset_t* __restrict__ b_ptr, offset_t a0,
                                        offset_t a1, int lane) {
  long long w = 0;
  offset_t p = a0 + lane;
  for (; p + 7 * 32 < a1; p += 8 * 32) {
    vertex_t k[8];
#pragma unroll
    for (int u = 0; u < 8; ++u) k[u] = a_col[p + u * 32];
#pragma unroll
    for (int u = 0; u < 8; ++u) w += b_ptr[k[u] + 1] - b_ptr[k[u]];
  }
  for (; p < a1; p += 32) w += b_ptr[a_col[p] + 1] - b_ptr[a_col[p]];
  for (int d = 16; d > 0; d >>= 1) w += __shfl_xor_sync(0xffffffffu, w, d);
  return w;
}

template <class U>
__device__ inline U warp_sum(U v) {
  for (int d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(0xffffffffu, v, d);
  return v;
}

// Row analysis and the symbolic grouping in one pass: IP(i) = Σ_{k ∈
// A(i,:)} nnz(B(k,:)) (64-bit), the row's group, the group sizes and Σ IP;
// rows with no products get nnz(C(i,:)) = 0 here, as does the scan's extra
// last entry. The scalars must be cleared. `b_not_unit`:
// unit_rows_check_kernel's verdict, or nullptr where B cannot have a row of
// exactly one entry each (nnz(B) is not its row count).
//
// A warp takes 32 consecutive rows, a lane each; a lane sums its own row
// where it holds at most kLaneRowEntries entries, and the rows past that are
// summed by the whole warp, one after another. The rows' groups go into the
// block's tally a group at a time (one shared atomic for all the warp's rows
// of a group), the totals once per lane at the end. A warp per row
// (analysis_warp_kernel) leaves 31 lanes idle on S's rows of 16 entries and
// on B of one entry a row (the two products of a contraction), and with a
// block's tally for every 8 rows, 8,192 blocks' flushes meet on the same
// global words. Nsight Compute on an H100, a warp a row / a lane a row:
// R-MAT 20's contraction (random labels, 65,536 rows) 31 / 19-22 us for S·A
// and 31 / 7 us for (S·A)·Sᵀ; but A·A of R-MAT 17 136 / 532 us and of soc-Epinions1 31 / 73
// us, whose long rows a warp then takes one after another. So the dispatch
// runs it only where B may hold one entry a row (analysis_warp_kernel
// elsewhere).
__global__ void __launch_bounds__(256)
    analysis_kernel(const offset_t* __restrict__ a_ptr, const vertex_t* __restrict__ a_col,
                    vertex_t m, const offset_t* __restrict__ b_ptr,
                    const unsigned long long* __restrict__ b_not_unit, SymbolicKey key,
                    unsigned long long* __restrict__ ip, std::uint8_t* __restrict__ keys,
                    offset_t* __restrict__ row_nnz, unsigned long long* __restrict__ scalars) {
  constexpr unsigned kAll = 0xffffffffu;
  __shared__ GroupTally tally;
  tally.clear();
  __syncthreads();
  const bool unit_b = b_not_unit != nullptr && *b_not_unit == 0;
  const int lane = threadIdx.x % 32;
  const long long n_warps = static_cast<long long>(gridDim.x) * (blockDim.x / 32);
  unsigned long long ip_sum = 0, staged_sum = 0, slots_sum = 0, nnz_sum = 0;
  for (long long base = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32 * 32;
       base < m; base += n_warps * 32) {
    const long long r = base + lane;
    const bool live = r < m;
    const offset_t a0 = live ? a_ptr[r] : 0, a1 = live ? a_ptr[r + 1] : 0;
    long long w = 0;
    const bool by_warp = !unit_b && a1 - a0 > kLaneRowEntries;
    if (unit_b)
      w = a1 - a0;  // unit rows of B: IP is A's row length
    else if (!by_warp)
      w = lane_row_ip(a_col, b_ptr, a0, a1);
    for (unsigned long_rows = __ballot_sync(kAll, by_warp); long_rows != 0;
         long_rows &= long_rows - 1) {
      const int src = __ffs(long_rows) - 1;
      const long long s =
          warp_row_ip(a_col, b_ptr, __shfl_sync(kAll, a0, src), __shfl_sync(kAll, a1, src), lane);
      if (lane == src) w = s;
    }
    RowGroup g{-1, 0, 0, 0};
    if (live) {
      ip[r] = static_cast<unsigned long long>(w);
      g = key.of(w, a1 - a0);
      keys[r] = static_cast<std::uint8_t>(g.group);
      if (w == 0) row_nnz[r] = 0;
      ip_sum += static_cast<unsigned long long>(w);
      if (w != 0 && g.group >= kFirstStaged) staged_sum += static_cast<unsigned long long>(g.bound);
      slots_sum += g.global_slots;
      nnz_sum += g.global_nnz;
    }
    // The warp's rows by group: the first remaining lane's group, its rows'
    // count and largest bound, added by that lane.
    for (unsigned todo = __ballot_sync(kAll, live); todo != 0;) {
      const int leader = __ffs(todo) - 1;
      const int group = __shfl_sync(kAll, g.group, leader);
      const unsigned same = __ballot_sync(kAll, g.group == group);
      unsigned long long bound = g.group == group ? static_cast<unsigned long long>(g.bound) : 0;
      for (int d = 16; d > 0; d >>= 1) bound = max(bound, __shfl_xor_sync(kAll, bound, d));
      if (lane == leader) {
        atomicAdd(&tally.count[group], static_cast<unsigned>(__popc(same)));
        atomicMax(&tally.max_bound[group], bound);
      }
      todo &= ~same;
    }
  }
  ip_sum = warp_sum(ip_sum);
  staged_sum = warp_sum(staged_sum);
  slots_sum = warp_sum(slots_sum);
  nnz_sum = warp_sum(nnz_sum);
  if (lane == 0) {
    if (ip_sum) atomicAdd(&tally.ip, ip_sum);
    if (staged_sum) atomicAdd(&tally.staged, staged_sum);
    if (slots_sum) atomicAdd(&tally.global_slots, slots_sum);
    if (nnz_sum) atomicAdd(&tally.global_nnz, nnz_sum);
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) row_nnz[m] = 0;
  __syncthreads();
  tally.flush(scalars);
}

// analysis_kernel's work a warp per row, each warp's row added to the
// block's tally by its lane 0: the analysis wherever B's rows may be longer
// than one entry (and with SpgemmOptions::lane_analysis off), since a warp
// to each row keeps a skewed A's long rows apart.
__global__ void __launch_bounds__(256)
    analysis_warp_kernel(const offset_t* __restrict__ a_ptr, const vertex_t* __restrict__ a_col,
                         vertex_t m, const offset_t* __restrict__ b_ptr,
                         const unsigned long long* __restrict__ b_not_unit, SymbolicKey key,
                         unsigned long long* __restrict__ ip, std::uint8_t* __restrict__ keys,
                         offset_t* __restrict__ row_nnz, unsigned long long* __restrict__ scalars) {
  __shared__ GroupTally tally;
  tally.clear();
  __syncthreads();
  const bool unit_b = b_not_unit != nullptr && *b_not_unit == 0;
  const int lane = threadIdx.x % 32;
  const long long n_warps = static_cast<long long>(gridDim.x) * (blockDim.x / 32);
  for (long long r = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32; r < m;
       r += n_warps) {
    const offset_t a0 = a_ptr[r], a1 = a_ptr[r + 1];
    // unit rows of B: IP is A's row length
    const long long w = unit_b ? a1 - a0 : warp_row_ip(a_col, b_ptr, a0, a1, lane);
    if (lane == 0) {
      ip[r] = static_cast<unsigned long long>(w);
      const RowGroup g = key.of(w, a1 - a0);
      keys[r] = static_cast<std::uint8_t>(g.group);
      tally.add(g, static_cast<unsigned long long>(w));
      if (w == 0) row_nnz[r] = 0;
    }
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) row_nnz[m] = 0;
  __syncthreads();
  tally.flush(scalars);
}

// keys[r - r0] = group of row r for r in [r0, r1), the group sizes and
// totals in the scalars (cleared by the caller), and the gather.
template <class KeyFn>
__global__ void group_count_kernel(vertex_t r0, vertex_t r1, KeyFn key_of,
                                   std::uint8_t* __restrict__ keys,
                                   unsigned long long* __restrict__ scalars, Gather gather) {
  __shared__ GroupTally tally;
  tally.clear();
  __syncthreads();
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long r = r0 + static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; r < r1;
       r += stride) {
    const RowGroup k = key_of(static_cast<vertex_t>(r));
    keys[r - r0] = static_cast<std::uint8_t>(k.group);
    tally.add(k, 0);
  }
  __syncthreads();
  tally.flush(scalars);
  if (blockIdx.x == 0 && threadIdx.x < gather.n)
    scalars[ScalarsAt::gather + threadIdx.x] = *gather.src[threadIdx.x];
}

// Lists each group's rows contiguously in `sorted_rows`, the groups in
// order, from the keys and group sizes of the counting pass: a counting
// sort, one thread per row. Rows keep no particular order inside a group
// (each block claims a range per group with one atomic); C does not depend
// on it.
__global__ void __launch_bounds__(256)
    group_scatter_kernel(vertex_t r0, vertex_t r1, const std::uint8_t* __restrict__ keys,
                         unsigned long long* __restrict__ scalars,
                         vertex_t* __restrict__ sorted_rows) {
  __shared__ unsigned int local[kMaxGroups];
  __shared__ unsigned long long base[kMaxGroups];
  if (threadIdx.x < kMaxGroups) local[threadIdx.x] = 0;
  __syncthreads();
  const long long r = r0 + static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  int k = -1;
  unsigned int pos = 0;
  if (r < r1) {
    k = keys[r - r0];
    pos = atomicAdd(&local[k], 1u);
  }
  __syncthreads();
  if (threadIdx.x < kMaxGroups && local[threadIdx.x] != 0) {
    unsigned long long start = 0;
    for (int h = 0; h < static_cast<int>(threadIdx.x); ++h) start += scalars[ScalarsAt::count + h];
    base[threadIdx.x] = start + atomicAdd(&scalars[ScalarsAt::cursor + threadIdx.x],
                                          static_cast<unsigned long long>(local[threadIdx.x]));
  }
  __syncthreads();
  if (k >= 0) sorted_rows[base[k] + pos] = static_cast<vertex_t>(r);
}

// Table slots of each row in the global-memory group (0 for the others), the
// input of the scans that place those tables in the workspace: the slots the
// grouping kernels tally, row by row.
struct SymbolicGlobalSlots {
  const unsigned long long* ip;
  vertex_t n_cols;
  vertex_t m;
  Tuning tuning;
  __host__ __device__ std::int64_t operator()(std::int64_t r) const {
    if (r >= m) return 0;
    return static_cast<std::int64_t>(
        symbolic_row_group(static_cast<std::int64_t>(ip[r]), n_cols, tuning).global_slots);
  }
};

struct NumericGlobalSlots {
  const unsigned long long* ip;
  const offset_t* c_ptr;
  vertex_t m;
  vertex_t n_cols;
  Tuning tuning;
  __host__ __device__ std::int64_t operator()(std::int64_t r) const {
    if (r >= m) return 0;
    const offset_t nnz = c_ptr[r + 1] - c_ptr[r];
    return static_cast<std::int64_t>(
        numeric_row_group(nnz, static_cast<std::int64_t>(ip[r]), n_cols, tuning).global_slots);
  }
};

}  // namespace graphrun::cuda::spgemm_detail
