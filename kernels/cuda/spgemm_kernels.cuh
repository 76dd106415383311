// The kernels of the GPU SpGEMM, phase by phase (the host side that launches
// them is spgemm.cu):
//
//   intermediate_products_kernel   IP(i) = Σ_{k ∈ A(i,:)} nnz(B(k,:)), one thread per entry of A
//   group_keys_kernel              each row's group (spgemm_config.cuh) and the group sizes
//   symbolic_kernel                distinct columns of C(i,:) by hash insertion
//   numeric_kernel                 C(i,:) by hash insertion with accumulation, compacted
//
// Hash tables: open addressing with linear probing, key -1 = empty, a slot
// claimed by atomicCAS on its key (never a plain read while other threads
// insert, so racecheck sees only atomics), values accumulated atomically
// (spgemm_semiring.cuh). A table is never full: its slots are at least the
// row's bound on distinct columns (symbolic) or twice its exact count
// (numeric), so probing always ends.
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "graphrun/engine/types.hpp"
#include "spgemm_config.cuh"
#include "spgemm_semiring.cuh"

namespace graphrun::cuda::spgemm_detail {

namespace cg = cooperative_groups;

inline constexpr int kEmptyKey = -1;

// ---- row analysis ---------------------------------------------------------

// One thread per entry A(i,k) adds nnz(B(k,:)) to IP(i). Entries of one row
// are contiguous, so the lanes of a warp that share a row reduce first and
// one of them adds: balanced however long A's rows are. `ip` must be zeroed.
__global__ void intermediate_products_kernel(const offset_t* __restrict__ a_ptr,
                                             const vertex_t* __restrict__ a_col, vertex_t m,
                                             offset_t nnz_a, const offset_t* __restrict__ b_ptr,
                                             unsigned long long* __restrict__ ip) {
  const auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  const offset_t stride = offset_t(gridDim.x) * blockDim.x;
  for (offset_t base = offset_t(blockIdx.x) * blockDim.x; base < nnz_a; base += stride) {
    const offset_t p = base + threadIdx.x;
    int row = -1;
    long long w = 0;
    if (p < nnz_a) {
      // The row holding entry p: the last i with a_ptr[i] <= p.
      vertex_t lo = 0, hi = m - 1;
      while (lo < hi) {
        const vertex_t mid = lo + (hi - lo + 1) / 2;
        if (a_ptr[mid] <= p)
          lo = mid;
        else
          hi = mid - 1;
      }
      row = lo;
      const vertex_t k = a_col[p];
      w = static_cast<long long>(b_ptr[k + 1] - b_ptr[k]);
    }
    const auto peers = cg::labeled_partition(warp, row);
    const long long s = cg::reduce(peers, w, cg::plus<long long>());
    if (row >= 0 && peers.thread_rank() == 0 && s > 0)
      atomicAdd(&ip[row], static_cast<unsigned long long>(s));
  }
}

// ---- grouping ---------------------------------------------------------------

// A row's group, and what a row of the global-memory group adds to the
// totals the host needs: its table slots and (numeric) its entries.
struct RowGroup {
  int group;
  unsigned long long global_slots;
  unsigned long long global_nnz;
};

struct SymbolicKey {
  const unsigned long long* ip;
  vertex_t n_cols;
  __device__ RowGroup operator()(vertex_t r) const {
    const auto v = static_cast<std::int64_t>(ip[r]);
    const int g = symbolic_group(v, n_cols);
    if (g != SpgemmPolicy::symbolic_bins) return {g, 0, 0};
    return {g, global_slots(symbolic_bound(v, n_cols)), 0};
  }
};

struct NumericKey {
  const unsigned long long* ip;
  const offset_t* c_ptr;
  __device__ RowGroup operator()(vertex_t r) const {
    const offset_t nnz = c_ptr[r + 1] - c_ptr[r];
    const int g = numeric_group(nnz, static_cast<std::int64_t>(ip[r]));
    if (g != SpgemmPolicy::numeric_bins) return {g, 0, 0};
    return {g, global_slots(nnz), static_cast<unsigned long long>(nnz)};
  }
};

// keys[r - r0] = group of row r, rows[r - r0] = r for r in [r0, r1);
// totals[g] += rows in group g, totals[kMaxGroups] += global-memory table
// slots, totals[kMaxGroups + 1] += global-memory rows' entries (all zeroed by
// the caller). A radix sort of (key, row) then lists each group's rows
// contiguously, in row order.
template <class KeyFn>
__global__ void group_keys_kernel(vertex_t r0, vertex_t r1, KeyFn key_of,
                                  std::uint8_t* __restrict__ keys, vertex_t* __restrict__ rows,
                                  unsigned long long* __restrict__ totals) {
  __shared__ unsigned int local[kMaxGroups];
  __shared__ unsigned long long extra[2];
  if (threadIdx.x < kMaxGroups) local[threadIdx.x] = 0;
  if (threadIdx.x < 2) extra[threadIdx.x] = 0;
  __syncthreads();
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long r = r0 + static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; r < r1;
       r += stride) {
    const RowGroup k = key_of(static_cast<vertex_t>(r));
    keys[r - r0] = static_cast<std::uint8_t>(k.group);
    rows[r - r0] = static_cast<vertex_t>(r);
    atomicAdd(&local[k.group], 1u);
    if (k.global_slots) {
      atomicAdd(&extra[0], k.global_slots);
      atomicAdd(&extra[1], k.global_nnz);
    }
  }
  __syncthreads();
  if (threadIdx.x < kMaxGroups && local[threadIdx.x] != 0)
    atomicAdd(&totals[threadIdx.x], static_cast<unsigned long long>(local[threadIdx.x]));
  if (threadIdx.x < 2 && extra[threadIdx.x] != 0)
    atomicAdd(&totals[kMaxGroups + threadIdx.x], extra[threadIdx.x]);
}

// Copies up to 4 scalars (8 bytes each) next to each other, so that one
// copy brings everything the host waits for.
struct Gather {
  const unsigned long long* src[4];
  int n;
};
__global__ void gather_kernel(Gather g, unsigned long long* __restrict__ dst) {
  if (threadIdx.x < g.n) dst[threadIdx.x] = *g.src[threadIdx.x];
}

// Table slots of each row in the global-memory group (0 for the others), the
// input of the scans that place those tables in the workspace.
struct SymbolicGlobalSlots {
  const unsigned long long* ip;
  vertex_t n_cols;
  vertex_t m;
  __host__ __device__ std::int64_t operator()(std::int64_t r) const {
    if (r >= m) return 0;
    const auto v = static_cast<std::int64_t>(ip[r]);
    if (symbolic_group(v, n_cols) != SpgemmPolicy::symbolic_bins) return 0;
    return static_cast<std::int64_t>(global_slots(symbolic_bound(v, n_cols)));
  }
};

struct NumericGlobalSlots {
  const unsigned long long* ip;
  const offset_t* c_ptr;
  vertex_t m;
  __host__ __device__ std::int64_t operator()(std::int64_t r) const {
    if (r >= m) return 0;
    const offset_t nnz = c_ptr[r + 1] - c_ptr[r];
    if (numeric_group(nnz, static_cast<std::int64_t>(ip[r])) != SpgemmPolicy::numeric_bins)
      return 0;
    return static_cast<std::int64_t>(global_slots(nnz));
  }
};

// ---- hash insertion -------------------------------------------------------

template <class Slot>
__device__ inline Slot hash_slot(int col, Slot mask) {
  // Multiplicative scatter: columns a power of two apart do not collide.
  return (static_cast<Slot>(static_cast<std::uint32_t>(col)) * Slot(107)) & mask;
}

// The slot holding `col`, claimed if absent; `inserted` says which.
template <class Slot>
__device__ inline Slot insert_key(int* table, Slot mask, int col, bool& inserted) {
  Slot s = hash_slot(col, mask);
  while (true) {
    const int old = atomicCAS(&table[s], kEmptyKey, col);
    if (old == kEmptyKey || old == col) {
      inserted = old == kEmptyKey;
      return s;
    }
    s = (s + 1) & mask;
  }
}

// Visits every product of row `row` with a team of TEAM threads (lane in
// [0, TEAM)): sub-teams of `sub` threads take the entries A(row,k) in turn
// and walk B(k,:) together, `sub` matched to the mean length of those rows
// so that short B rows do not leave most lanes idle. on_a(p) is called once
// per entry taken, and its result passed to on_b(ctx, q) for each entry of B.
template <int TEAM, class OnA, class OnB>
__device__ inline void for_each_product(const offset_t* __restrict__ a_ptr,
                                        const vertex_t* __restrict__ a_col,
                                        const offset_t* __restrict__ b_ptr, vertex_t row,
                                        std::int64_t ip, int lane, OnA on_a, OnB on_b) {
  constexpr int kMaxSub = TEAM < SpgemmPolicy::max_sub_team ? TEAM : SpgemmPolicy::max_sub_team;
  const offset_t a0 = a_ptr[row], a1 = a_ptr[row + 1];
  const std::int64_t len = a1 - a0;
  int sub = 1;
  while (sub < kMaxSub && static_cast<std::int64_t>(sub) * len < ip) sub <<= 1;
  const int sub_id = lane / sub, sub_lane = lane % sub, n_sub = TEAM / sub;
  for (offset_t p = a0 + sub_id; p < a1; p += n_sub) {
    const vertex_t k = a_col[p];
    const auto ctx = on_a(p);
    const offset_t b1 = b_ptr[k + 1];
    for (offset_t q = b_ptr[k] + sub_lane; q < b1; q += sub) on_b(ctx, q);
  }
}

// Shared memory of a block: one counter per row, padded, then the tables.
__host__ __device__ constexpr int counter_bytes(int rows_per_block) {
  return (rows_per_block * 4 + 15) / 16 * 16;
}

// ---- symbolic -------------------------------------------------------------

struct SymbolicArgs {
  const offset_t* a_ptr;
  const vertex_t* a_col;
  const offset_t* b_ptr;
  const vertex_t* b_col;
  const unsigned long long* ip;
  vertex_t n_cols;
  const vertex_t* rows;  // this group's rows
  std::int64_t n_rows;
  int slots;  // shared-memory groups: table slots per row
  // Global-memory group: row r's table starts at table_off[r] - table_base.
  int* tables;
  const std::int64_t* table_off;
  std::int64_t table_base;
  offset_t* row_nnz;  // out: nnz(C(i,:))
};

template <int BLOCK, int TEAM, bool GLOBAL>
__global__ void __launch_bounds__(BLOCK) symbolic_kernel(SymbolicArgs g) {
  static_assert(BLOCK % TEAM == 0 && (!GLOBAL || BLOCK == TEAM));
  constexpr int kRows = BLOCK / TEAM;
  using Slot = std::conditional_t<GLOBAL, std::uint64_t, std::uint32_t>;
  extern __shared__ __align__(16) unsigned char smem[];
  int* counters = reinterpret_cast<int*>(smem);
  const int team = threadIdx.x / TEAM, lane = threadIdx.x % TEAM;
  const std::int64_t idx = static_cast<std::int64_t>(blockIdx.x) * kRows + team;
  const bool active = idx < g.n_rows;
  const vertex_t row = active ? g.rows[idx] : 0;
  const std::int64_t ip = active ? static_cast<std::int64_t>(g.ip[row]) : 0;

  int* table;
  Slot n_slots;
  if constexpr (GLOBAL) {
    n_slots = global_slots(symbolic_bound(ip, g.n_cols));
    table = g.tables + (g.table_off[row] - g.table_base);
  } else {
    n_slots = static_cast<Slot>(g.slots);
    table = reinterpret_cast<int*>(smem + counter_bytes(kRows)) +
            static_cast<std::size_t>(team) * g.slots;
  }
  for (Slot s = lane; s < n_slots; s += TEAM) table[s] = kEmptyKey;
  if (lane == 0) counters[team] = 0;
  __syncthreads();

  int found = 0;
  if (active) {
    const Slot mask = n_slots - 1;
    const int* __restrict__ b_col = g.b_col;
    for_each_product<TEAM>(
        g.a_ptr, g.a_col, g.b_ptr, row, ip, lane, [](offset_t) { return 0; },
        [&](int, offset_t q) {
          bool inserted;
          insert_key(table, mask, b_col[q], inserted);
          found += inserted;
        });
  }
  if (found) atomicAdd(&counters[team], found);
  __syncthreads();
  if (active && lane == 0) g.row_nnz[row] = counters[team];
}

// ---- numeric --------------------------------------------------------------

// Bitonic sort of keys[0, P) ascending, values alongside, by the TEAM
// threads of one row (lane in [0, TEAM)); P is a power of two and the same
// for every thread of the block, which synchronizes between stages (teams
// of one block sort their own arrays side by side).
template <int TEAM, class V>
__device__ inline void bitonic_sort_pairs(int* keys, V* vals, int P, int lane) {
  for (int k = 2; k <= P; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      for (int t = lane; t < P / 2; t += TEAM) {
        const int i = ((t & ~(j - 1)) << 1) | (t & (j - 1));  // lower index of pair t
        const int l = i + j;
        const bool ascending = (i & k) == 0;
        const int ki = keys[i], kl = keys[l];
        if ((ki > kl) == ascending) {
          keys[i] = kl;
          keys[l] = ki;
          const V v = vals[i];
          vals[i] = vals[l];
          vals[l] = v;
        }
      }
      __syncthreads();
    }
  }
}

inline constexpr int kSortSentinel = 0x7fffffff;  // sorts after every column

template <class V, class T>
struct NumericArgs {
  const offset_t* a_ptr;
  const vertex_t* a_col;
  const T* a_val;  // nullptr: pattern (all ones)
  const offset_t* b_ptr;
  const vertex_t* b_col;
  const T* b_val;
  const unsigned long long* ip;
  const vertex_t* rows;
  std::int64_t n_rows;
  int slots;
  int* table_keys;  // global-memory group
  V* table_vals;
  const std::int64_t* table_off;
  std::int64_t table_base;
  const offset_t* c_ptr;  // C's row pointers (the symbolic phase's scan)
  vertex_t* c_col;        // C: shared-memory rows are written here, sorted
  V* c_val;
  // Global-memory rows are staged, unsorted, at stage_off[j] for the j-th
  // row of the group, for a segmented sort afterwards.
  const std::int64_t* stage_off;
  vertex_t* stage_col;
  V* stage_val;
};

// C(i,:) for a group of rows. Shared-memory rows: accumulate in the table,
// compact into C, read the row back into the (now free) table, sort it
// there and write it out in order. Global-memory rows: accumulate in the
// global table and compact into the staging buffer.
template <class S, class T, int BLOCK, int TEAM, bool GLOBAL>
__global__ void __launch_bounds__(BLOCK)
    numeric_kernel(NumericArgs<typename DeviceSemiring<S>::value_type, T> g) {
  static_assert(BLOCK % TEAM == 0 && (!GLOBAL || BLOCK == TEAM));
  using Ops = DeviceSemiring<S>;
  using V = typename Ops::value_type;
  constexpr int kRows = BLOCK / TEAM;
  using Slot = std::conditional_t<GLOBAL, std::uint64_t, std::uint32_t>;
  extern __shared__ __align__(16) unsigned char smem[];
  int* counters = reinterpret_cast<int*>(smem);
  const int team = threadIdx.x / TEAM, lane = threadIdx.x % TEAM;
  const std::int64_t idx = static_cast<std::int64_t>(blockIdx.x) * kRows + team;
  const bool active = idx < g.n_rows;
  const vertex_t row = active ? g.rows[idx] : 0;
  const offset_t c0 = active ? g.c_ptr[row] : 0;
  const offset_t nnz = active ? g.c_ptr[row + 1] - c0 : 0;

  int* keys;
  V* vals;
  Slot n_slots;
  if constexpr (GLOBAL) {
    n_slots = global_slots(nnz);
    keys = g.table_keys + (g.table_off[row] - g.table_base);
    vals = g.table_vals + (g.table_off[row] - g.table_base);
  } else {
    n_slots = static_cast<Slot>(g.slots);
    int* all_keys = reinterpret_cast<int*>(smem + counter_bytes(kRows));
    V* all_vals = reinterpret_cast<V*>(all_keys + static_cast<std::size_t>(kRows) * g.slots);
    keys = all_keys + static_cast<std::size_t>(team) * g.slots;
    vals = all_vals + static_cast<std::size_t>(team) * g.slots;
  }
  for (Slot s = lane; s < n_slots; s += TEAM) {
    keys[s] = kEmptyKey;
    vals[s] = Ops::zero();
  }
  if (lane == 0) counters[team] = 0;
  __syncthreads();

  if (active) {
    const Slot mask = n_slots - 1;
    const vertex_t* __restrict__ b_col = g.b_col;
    const T* __restrict__ a_val = g.a_val;
    const T* __restrict__ b_val = g.b_val;
    for_each_product<TEAM>(
        g.a_ptr, g.a_col, g.b_ptr, row, static_cast<std::int64_t>(g.ip[row]), lane,
        [&](offset_t p) { return a_val ? static_cast<V>(a_val[p]) : V(1); },
        [&](V av, offset_t q) {
          const V bv = b_val ? static_cast<V>(b_val[q]) : V(1);
          bool inserted;
          const Slot s = insert_key(keys, mask, b_col[q], inserted);
          Ops::atomic_add(&vals[s], Ops::mul(av, bv));
        });
  }
  __syncthreads();

  // Compaction, in table order.
  vertex_t* out_col;
  V* out_val;
  if constexpr (GLOBAL) {
    out_col = g.stage_col + g.stage_off[idx];
    out_val = g.stage_val + g.stage_off[idx];
  } else {
    out_col = g.c_col + c0;
    out_val = g.c_val + c0;
  }
  if (active) {
    for (Slot s = lane; s < n_slots; s += TEAM) {
      const int k = keys[s];
      if (k == kEmptyKey) continue;
      const int pos = atomicAdd(&counters[team], 1);
      if (pos < nnz) {  // always, unless the phases disagree; never write past the row
        out_col[pos] = k;
        out_val[pos] = vals[s];
      }
    }
  }
  if constexpr (!GLOBAL) {
    // The row back into shared memory, padded to a power of two, sorted.
    // Team rows all sort slots / 2 entries (their bound); a block row the
    // power of two above its count. Either way the same P for the block.
    __syncthreads();
    int P;
    if constexpr (kRows > 1) {
      P = g.slots / 2;
    } else {
      P = 1;
      while (P < nnz) P <<= 1;
    }
    for (int i = lane; i < P; i += TEAM) {
      keys[i] = i < nnz ? out_col[i] : kSortSentinel;
      vals[i] = i < nnz ? out_val[i] : V();
    }
    __syncthreads();
    bitonic_sort_pairs<TEAM>(keys, vals, P, lane);
    for (int i = lane; i < nnz; i += TEAM) {
      out_col[i] = keys[i];
      out_val[i] = vals[i];
    }
  }
}

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

}  // namespace graphrun::cuda::spgemm_detail
