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

struct SymbolicKey {
  const unsigned long long* ip;
  vertex_t n_cols;
  __device__ int operator()(vertex_t r) const {
    return symbolic_group(static_cast<std::int64_t>(ip[r]), n_cols);
  }
};

struct NumericKey {
  const unsigned long long* ip;
  const offset_t* c_ptr;
  __device__ int operator()(vertex_t r) const {
    return numeric_group(c_ptr[r + 1] - c_ptr[r], static_cast<std::int64_t>(ip[r]));
  }
};

// keys[r - r0] = group of row r, rows[r - r0] = r for r in [r0, r1), and
// counts[g] += rows in group g (counts zeroed by the caller). A radix sort of
// (key, row) then lists each group's rows contiguously, in row order.
template <class KeyFn>
__global__ void group_keys_kernel(vertex_t r0, vertex_t r1, KeyFn key_of,
                                  std::uint8_t* __restrict__ keys, vertex_t* __restrict__ rows,
                                  unsigned long long* __restrict__ counts) {
  __shared__ unsigned int local[kMaxGroups];
  if (threadIdx.x < kMaxGroups) local[threadIdx.x] = 0;
  __syncthreads();
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long r = r0 + static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; r < r1;
       r += stride) {
    const int g = key_of(static_cast<vertex_t>(r));
    keys[r - r0] = static_cast<std::uint8_t>(g);
    rows[r - r0] = static_cast<vertex_t>(r);
    atomicAdd(&local[g], 1u);
  }
  __syncthreads();
  if (threadIdx.x < kMaxGroups && local[threadIdx.x] != 0)
    atomicAdd(&counts[threadIdx.x], static_cast<unsigned long long>(local[threadIdx.x]));
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
  offset_t c_base;        // out arrays start at C position c_base
  vertex_t* out_col;      // out: C(i,:) compacted, unsorted
  V* out_val;
};

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

  if (active) {
    const offset_t out0 = c0 - g.c_base;
    for (Slot s = lane; s < n_slots; s += TEAM) {
      const int k = keys[s];
      if (k == kEmptyKey) continue;
      const int pos = atomicAdd(&counters[team], 1);
      if (pos < nnz) {  // always, unless the phases disagree; never write past the row
        g.out_col[out0 + pos] = k;
        g.out_val[out0 + pos] = vals[s];
      }
    }
  }
}

}  // namespace graphrun::cuda::spgemm_detail
