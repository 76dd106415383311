// The hash-table agents of the GPU SpGEMM: the kernels that compute a group
// of rows each, launched group by group by the dispatch (spgemm_launch.cuh):
//
//   (row analysis and grouping: spgemm_agent_grouping.cuh)
//   symbolic_kernel       distinct columns of C(i,:) by hash insertion
//   numeric_kernel        C(i,:) by hash insertion with accumulation, compacted;
//                         also, before the symbolic phase, the direct rows
//                         (tables sized by their bound, rows staged)
//   (the bitmap rows: spgemm_agent_dense.cuh; the staged rows' copy into C:
//   spgemm_agent_sort.cuh)
//
// A template instance per group (block size, team size, shared or global
// tables: plan/spgemm_gpu_policy.hpp); for_each_product, the walk over a
// row's products that every agent shares, is here too.
//
// Hash tables: open addressing with linear probing, key -1 = empty, a slot
// claimed by atomicCAS on its key (never a plain read while other threads
// insert, so racecheck sees only atomics), values accumulated atomically
// (spgemm_semiring.cuh). A table is never full: its slots are the power of
// two at or above twice the row's bound on distinct columns (symbolic, and
// numeric direct rows) or its exact count (numeric), so it is at most half
// full and probing ends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "../plan/spgemm_gpu_policy.hpp"
#include "graphrun/engine/first_at_least.hpp"
#include "graphrun/engine/types.hpp"
#include "spgemm_semiring.cuh"

namespace graphrun::cuda::spgemm_detail {

inline constexpr int kEmptyKey = -1;

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
//
// Each entry costs a chain of three dependent loads (A's column, B's row
// bounds, B's columns); a long row of A walked one entry after another is
// bound by that latency, not by bandwidth. So the loop is software-
// pipelined: the column of the entry two steps ahead and the bounds of the
// next one are loaded while the current B row is walked.
//
// A block-wide team (TEAM > 32, a block per row) defers the B rows far
// longer than its fair share: a sub-team of at most 32 lanes would walk such
// a row long after the rest of the block is done. An R-MAT hub in one row
// of S·A (contraction) is 28,000 products for 32 lanes, ~900 dependent steps
// of global-memory atomics: on the H200, S·A of R-MAT 20 took 6.8 ms with
// the row walked that way and 2.0 ms with it deferred. Deferred
// rows are listed in shared memory and walked by the whole team afterwards
// (at most kDeferred of them; past that a sub-team walks its row itself).
//
// `balanced` (SpgemmOptions::balance_entries; block-wide teams): the
// sub-teams take A's entries from a counter in shared memory as they finish
// the last, rather than every n_sub-th entry in turn. A fixed share is as
// long as its B rows happen to be, and the block waits at its next barrier
// for the longest: on MCL's expansion of soc-Epinions1 (rows of tens to
// thousands of entries, B rows of 1 to 1,400) a model of the walk put the
// longest fixed share at 1.2-1.8x an even split, and the first-come order
// at 1.07-1.37x; measured, the expansions ran 4-6% faster (an H100), and
// what binds them then is the latency of B's loads, no longer the barriers.
// The first two entries of each sub-team are fixed, so that the column of
// the entry after next is still loaded a step ahead. Only where sub-teams
// are whole warps (below).
//
// `ordered` (SpgemmOptions::deterministic) makes sums independent of timing:
// the whole team walks one B(k,:) at a time, k in A's column order, with a
// team barrier between consecutive k. The entries of one B row have distinct
// columns, so no two threads add into the same slot within a step, and each
// C(i,j) receives its products in ascending k, the order of a sequential
// Gustavson loop, run after run. The cost: lanes past a short B row idle.
template <int TEAM>
__device__ inline void team_sync() {
  if constexpr (TEAM > 32) {
    __syncthreads();  // a team wider than a warp is the whole block (plan/spgemm_gpu_policy.hpp)
  } else if constexpr (TEAM == 32) {
    __syncwarp();
  } else {
    const unsigned base = threadIdx.x % 32 / TEAM * TEAM;
    __syncwarp(((1u << TEAM) - 1u) << base);
  }
}

inline constexpr int kDeferred = 32;

// The columns [lo, hi) of B a walk keeps (one window of a windowed bitmap
// row, spgemm_agent_dense.cuh), with B's columns to find them by; without
// b_col every product is kept. B's rows are sorted, so a window's share of
// a row is one range, found by two binary searches.
struct ColumnWindow {
  const vertex_t* b_col = nullptr;
  vertex_t lo = 0, hi = 0;
};

// [q0, q1) narrowed to the window's columns.
__device__ inline void narrow_to(const ColumnWindow& w, offset_t& q0, offset_t& q1) {
  if (w.b_col == nullptr || q0 >= q1) return;
  q0 = first_at_least(w.b_col, q0, q1, w.lo);
  q1 = first_at_least(w.b_col, q0, q1, w.hi);
}

// What the walk hands on_b for B's entry q: by default q itself, and on_b
// loads what it needs of the entry.
struct LoadIndex {
  __device__ offset_t operator()(offset_t q) const { return q; }
};

// The entries [q, q1) of a B row, every step-th, each loaded by load_b and
// given to on_b. BATCH > 1 (SpgemmOptions::batch_b_loads): BATCH entries'
// loads are issued before the first of them is used, so that each lane has
// BATCH loads of B in flight rather than one. A lane's chain per product is
// a load of B from L2, then shared-memory reads and atomics that depend on
// it, and the compiler does not move a later product's load above an
// earlier product's shared atomics; on MCL's larger bitmap bin (one block
// of 1,024 threads an SM) 62% of the stall cycles were waits on those loads.
template <int BATCH, class Ctx, class OnB, class LoadB>
__device__ inline void walk_b_row(offset_t q, offset_t q1, int step, const Ctx& ctx, OnB& on_b,
                                  const LoadB& load_b) {
  if constexpr (BATCH == 1) {
#pragma unroll 4
    for (; q < q1; q += step) on_b(ctx, load_b(q));
  } else {
    using Loaded = decltype(load_b(q));
    for (; q + static_cast<offset_t>(BATCH - 1) * step < q1;
         q += static_cast<offset_t>(BATCH) * step) {
      Loaded b[BATCH];
#pragma unroll
      for (int i = 0; i < BATCH; ++i) b[i] = load_b(q + static_cast<offset_t>(i) * step);
#pragma unroll
      for (int i = 0; i < BATCH; ++i) on_b(ctx, b[i]);
    }
    for (; q < q1; q += step) on_b(ctx, load_b(q));
  }
}

// SPLIT: B's row k is [b_ptr[k], b_end[k]) rather than [b_ptr[k], b_ptr[k + 1]):
// one column window's share of each row, cut ahead of the walk
// (spgemm_agent_spa.cuh), so that no walk searches for its window.
template <int TEAM, int BATCH = 1, bool SPLIT = false, class OnA, class OnB,
          class LoadB = LoadIndex>
__device__ inline void for_each_product(const offset_t* __restrict__ a_ptr,
                                        const vertex_t* __restrict__ a_col,
                                        const offset_t* __restrict__ b_ptr, vertex_t row,
                                        std::int64_t ip, int lane, OnA on_a, OnB on_b,
                                        bool ordered = false, ColumnWindow window = {},
                                        bool balanced = false, LoadB load_b = {},
                                        const offset_t* __restrict__ b_end = nullptr) {
  auto row_end = [&](vertex_t k) {
    if constexpr (SPLIT)
      return b_end[k];
    else
      return b_ptr[k + 1];
  };
  constexpr int kMaxSub = TEAM < SpgemmPolicy::max_sub_team ? TEAM : SpgemmPolicy::max_sub_team;
  constexpr bool kBlockTeam = TEAM > 32;
  // Called by the whole block when kBlockTeam (plan/spgemm_gpu_policy.hpp), so the
  // barriers below are reached by every thread.
  __shared__ offset_t deferred[kBlockTeam ? kDeferred : 1];
  __shared__ int n_deferred;
  __shared__ unsigned int next_entry;  // balanced: the next entry a sub-team takes, from a0
  const offset_t a0 = a_ptr[row], a1 = a_ptr[row + 1];
  const std::int64_t len = a1 - a0;
  int sub = 1;
  if (ordered)
    sub = TEAM;
  else
    while (sub < kMaxSub && static_cast<std::int64_t>(sub) * len < ip) sub <<= 1;
  const int sub_id = lane / sub, sub_lane = lane % sub, n_sub = TEAM / sub;
  // Only sub-teams of a whole warp take entries as they finish: their B rows
  // are long, so one counter update an entry is nothing beside the walk and
  // at most BLOCK / 32 sub-teams share the counter; where B's rows are short
  // (S^T in a contraction: one entry a row), fixed shares are even anyway
  // and a shared counter an entry would cost as much as the products.
  balanced = kBlockTeam && balanced && !ordered && sub == kMaxSub;
  if constexpr (kBlockTeam) {
    if (lane == 0) {
      n_deferred = 0;
      next_entry = 2u * static_cast<unsigned int>(n_sub);
    }
    __syncthreads();
  }
  // A B row is deferred when a sub-team would take more than twice the
  // steps of an even split of the row's products over the team (and more
  // than 8). The lanes of a sub-team share a warp (sub divides 32).
  const std::int64_t fair = ip / TEAM > 4 ? ip / TEAM : 4;
  const std::int64_t defer_above = kBlockTeam && !ordered ? 2 * fair * sub : INT64_MAX;
  const unsigned sub_mask =
      sub >= 32 ? 0xffffffffu : ((1u << sub) - 1u) << (threadIdx.x % 32u / sub * sub);
  // p: the entry walked now; p1 the next (its column in k_next); p2 the one
  // after (its column loaded in this step). Each sub-team's entries only
  // increase, so the walk ends at the first past the row.
  offset_t p = a0 + sub_id, p1 = p + n_sub;
  vertex_t k_next = p1 < a1 ? a_col[p1] : 0;
  offset_t q0 = 0, q1 = 0;
  if (p < a1) {
    const vertex_t k = a_col[p];
    q0 = b_ptr[k];
    q1 = row_end(k);
  }
  while (p < a1) {
    const auto ctx = on_a(p);
    narrow_to(window, q0, q1);
    offset_t p2 = p1 + n_sub;
    if (balanced) {
      unsigned int taken = 0;  // a row of A has fewer than 2^31 entries
      if (sub_lane == 0) taken = atomicAdd(&next_entry, 1u);
      p2 = a0 + __shfl_sync(sub_mask, taken, 0, sub);
    }
    const vertex_t k_after = p2 < a1 ? a_col[p2] : 0;
    const offset_t n0 = p1 < a1 ? b_ptr[k_next] : 0, n1 = p1 < a1 ? row_end(k_next) : 0;
    bool walk = true;
    if (kBlockTeam && q1 - q0 > defer_above) {
      int at = 0;
      if (sub_lane == 0) at = atomicAdd(&n_deferred, 1);
      at = __shfl_sync(sub_mask, at, 0, sub);
      if (at < kDeferred) {
        if (sub_lane == 0) deferred[at] = p;
        walk = false;
      }
    }
    if (walk) walk_b_row<BATCH>(q0 + sub_lane, q1, sub, ctx, on_b, load_b);
    if (ordered) team_sync<TEAM>();
    q0 = n0;
    q1 = n1;
    k_next = k_after;
    p = p1;
    p1 = p2;
  }
  if constexpr (kBlockTeam) {
    __syncthreads();
    const int n = n_deferred < kDeferred ? n_deferred : kDeferred;
    for (int i = 0; i < n; ++i) {
      const offset_t e = deferred[i];
      const auto ctx = on_a(e);
      const vertex_t k = a_col[e];
      offset_t r0 = b_ptr[k], r1 = row_end(k);
      narrow_to(window, r0, r1);
      walk_b_row<BATCH>(r0 + lane, r1, TEAM, ctx, on_b, load_b);
    }
    __syncthreads();  // before a later call resets the list
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
  bool balanced;      // SpgemmOptions::balance_entries (see for_each_product)
};

// The row a team of TEAM threads works on, BLOCK / TEAM teams per block:
// the idx-th of its group's rows. A team past the group's end is inactive
// and stands on row 0, so that its guarded loads stay in bounds. A table in
// global memory (GLOBAL: one row per block) may pass 2^32 slots.
template <int BLOCK, int TEAM, bool GLOBAL>
struct TeamRow {
  static_assert(BLOCK % TEAM == 0 && (!GLOBAL || BLOCK == TEAM));
  static constexpr int kRows = BLOCK / TEAM;
  using Slot = std::conditional_t<GLOBAL, std::uint64_t, std::uint32_t>;
  int team, lane;
  std::int64_t idx;
  bool active;
  vertex_t row;

  __device__ TeamRow(const vertex_t* rows, std::int64_t n_rows)
      : team(threadIdx.x / TEAM),
        lane(threadIdx.x % TEAM),
        idx(static_cast<std::int64_t>(blockIdx.x) * kRows + team),
        active(idx < n_rows),
        row(active ? rows[idx] : 0) {}
};

template <int BLOCK, int TEAM, bool GLOBAL>
__global__ void __launch_bounds__(BLOCK) symbolic_kernel(SymbolicArgs g) {
  using Team = TeamRow<BLOCK, TEAM, GLOBAL>;
  using Slot = typename Team::Slot;
  extern __shared__ __align__(16) unsigned char smem[];
  int* counters = reinterpret_cast<int*>(smem);
  const Team t(g.rows, g.n_rows);
  const std::int64_t ip = t.active ? static_cast<std::int64_t>(g.ip[t.row]) : 0;

  // The row's own table size, at most its bin's (a shared table) or placed
  // by the scan of the global group's sizes.
  const Slot n_slots = t.active ? static_cast<Slot>(table_slots(symbolic_bound(ip, g.n_cols))) : 0;
  int* table;
  if constexpr (GLOBAL) {
    table = g.tables + (t.active ? g.table_off[t.row] - g.table_base : 0);
  } else {
    table = reinterpret_cast<int*>(smem + counter_bytes(Team::kRows)) +
            static_cast<std::size_t>(t.team) * g.slots;
  }
  for (Slot s = t.lane; s < n_slots; s += TEAM) table[s] = kEmptyKey;
  if (t.lane == 0) counters[t.team] = 0;
  __syncthreads();

  int found = 0;
  if (t.active) {
    const Slot mask = n_slots - 1;
    const int* __restrict__ b_col = g.b_col;
    for_each_product<TEAM>(
        g.a_ptr, g.a_col, g.b_ptr, t.row, ip, t.lane, [](offset_t) { return 0; },
        [&](int, offset_t q) {
          bool inserted;
          insert_key(table, mask, b_col[q], inserted);
          found += inserted;
        },
        false, {}, g.balanced);
  }
  if (found) atomicAdd(&counters[t.team], found);
  __syncthreads();
  if (t.active && t.lane == 0) g.row_nnz[t.row] = counters[t.team];
}

// ---- numeric --------------------------------------------------------------

// Bitonic sort of keys[0, P) ascending, values alongside, by the TEAM
// threads of one row (lane in [0, TEAM)); P is a power of two. Teams of one
// block sort their own arrays side by side, synchronizing between stages:
// with warp barriers (WARP: teams of at most a warp, P the same across the
// warp) or block barriers (P the same across the block).
template <int TEAM, bool WARP, class V>
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
      if constexpr (WARP)
        __syncwarp();
      else
        __syncthreads();
    }
  }
}

inline constexpr int kSortSentinel = 0x7fffffff;  // sorts after every column

// The operands of a product with values and the rows one launch computes:
// what the numeric agents (hash, bitmap) and the sorted rows' agent
// (spgemm_agent_esc.cuh) read.
template <class T>
struct ProductRows {
  const offset_t* a_ptr;
  const vertex_t* a_col;
  const T* a_val;  // nullptr: pattern (all ones)
  const offset_t* b_ptr;
  const vertex_t* b_col;
  const T* b_val;
  const unsigned long long* ip;
  const vertex_t* rows;  // this group's rows
  std::int64_t n_rows;
};

template <class V, class T>
struct NumericArgs : ProductRows<T> {
  int slots;
  int* table_keys;  // global-memory group
  V* table_vals;
  const std::int64_t* table_off;
  std::int64_t table_base;
  const offset_t* c_ptr;  // C's row pointers (the symbolic phase's scan)
  vertex_t* c_col;        // C: shared-memory rows are written here, sorted
  V* c_val;
  // Global-memory rows are staged, unsorted, at stage_off[j] for the j-th
  // row of the group, for a segmented sort afterwards. Direct rows (before
  // the symbolic phase, no c_ptr yet) are staged sorted at stage_off[i] for
  // row i, their bound's room, with nnz(C(i,:)) in row_nnz[i].
  const std::int64_t* stage_off;
  vertex_t* stage_col;
  V* stage_val;
  offset_t* row_nnz;   // direct rows
  vertex_t n_cols;     // direct rows: B's columns, for the bound
  bool ordered;        // SpgemmOptions::deterministic (see for_each_product)
  bool unit_sums;      // SpgemmOptions::unit_sums (bitmap rows; spgemm_agent_dense.cuh)
  bool balanced;       // SpgemmOptions::balance_entries (see for_each_product)
  bool batch_b_loads;  // SpgemmOptions::batch_b_loads (bitmap rows with unit_sums; walk_b_row)
};

// C(i,:) for a group of rows. Shared-memory rows: accumulate in the table,
// compact into C, read the row back into the (now free) table, sort it
// there and write it out in order. Global-memory rows: accumulate in the
// global table and compact into the staging buffer. DIRECT (shared-memory
// rows before the symbolic phase): the table sized by the row's bound, the
// row compacted, sorted and written to its staging, its count to row_nnz.
template <class S, class T, int BLOCK, int TEAM, bool GLOBAL, bool DIRECT = false>
__global__ void __launch_bounds__(BLOCK)
    numeric_kernel(NumericArgs<typename DeviceSemiring<S>::value_type, T> g) {
  static_assert(!(GLOBAL && DIRECT));
  using Ops = DeviceSemiring<S>;
  using V = typename Ops::value_type;
  using Team = TeamRow<BLOCK, TEAM, GLOBAL>;
  using Slot = typename Team::Slot;
  extern __shared__ __align__(16) unsigned char smem[];
  int* counters = reinterpret_cast<int*>(smem);
  const Team t(g.rows, g.n_rows);
  // nnz(C(i,:)), or for a direct row the bound on it until it is counted.
  offset_t c0 = 0, nnz = 0;
  if (t.active) {
    if constexpr (DIRECT) {
      nnz = static_cast<offset_t>(symbolic_bound(static_cast<std::int64_t>(g.ip[t.row]), g.n_cols));
    } else {
      c0 = g.c_ptr[t.row];
      nnz = g.c_ptr[t.row + 1] - c0;
    }
  }

  const Slot n_slots = t.active ? static_cast<Slot>(table_slots(nnz)) : 0;
  int* keys;
  V* vals;
  if constexpr (GLOBAL) {
    const std::int64_t at = t.active ? g.table_off[t.row] - g.table_base : 0;
    keys = g.table_keys + at;
    vals = g.table_vals + at;
  } else {
    int* all_keys = reinterpret_cast<int*>(smem + counter_bytes(Team::kRows));
    V* all_vals = reinterpret_cast<V*>(all_keys + static_cast<std::size_t>(Team::kRows) * g.slots);
    keys = all_keys + static_cast<std::size_t>(t.team) * g.slots;
    vals = all_vals + static_cast<std::size_t>(t.team) * g.slots;
  }
  for (Slot s = t.lane; s < n_slots; s += TEAM) {
    keys[s] = kEmptyKey;
    vals[s] = Ops::zero();
  }
  if (t.lane == 0) counters[t.team] = 0;
  __syncthreads();

  if (t.active) {
    const Slot mask = n_slots - 1;
    const vertex_t* __restrict__ b_col = g.b_col;
    const T* __restrict__ a_val = g.a_val;
    const T* __restrict__ b_val = g.b_val;
    for_each_product<TEAM>(
        g.a_ptr, g.a_col, g.b_ptr, t.row, static_cast<std::int64_t>(g.ip[t.row]), t.lane,
        [&](offset_t p) { return a_val ? static_cast<V>(a_val[p]) : V(1); },
        [&](V av, offset_t q) {
          const V bv = b_val ? static_cast<V>(b_val[q]) : V(1);
          bool inserted;
          const Slot s = insert_key(keys, mask, b_col[q], inserted);
          Ops::atomic_add(&vals[s], Ops::mul(av, bv));
        },
        g.ordered, {}, g.balanced);
  }
  __syncthreads();

  // Compaction, in table order: one counter update per step of a warp (or
  // of a team narrower than one), not one per entry, which on a row of
  // 28,000 entries would queue as many atomics on one shared address.
  vertex_t* out_col;
  V* out_val;
  if constexpr (GLOBAL) {
    out_col = g.stage_col + g.stage_off[t.idx];
    out_val = g.stage_val + g.stage_off[t.idx];
  } else if constexpr (DIRECT) {
    const std::int64_t at = t.active ? g.stage_off[t.row] : 0;
    out_col = g.stage_col + at;
    out_val = g.stage_val + at;
  } else {
    out_col = g.c_col + c0;
    out_val = g.c_val + c0;
  }
  if (t.active) {
    constexpr unsigned kWidth = TEAM < 32 ? TEAM : 32;  // lanes sharing one counter update
    const unsigned warp_lane = threadIdx.x % 32u;
    const unsigned mask =
        kWidth == 32 ? 0xffffffffu : ((1u << kWidth) - 1u) << (warp_lane / kWidth * kWidth);
    for (Slot s0 = 0; s0 < n_slots; s0 += TEAM) {  // the same steps for the whole team
      const Slot s = s0 + t.lane;
      const int k = s < n_slots ? keys[s] : kEmptyKey;
      const unsigned full = __ballot_sync(mask, k != kEmptyKey);
      if (full == 0) continue;
      const int leader = __ffs(full) - 1;
      int base = 0;
      if (static_cast<int>(warp_lane) == leader) base = atomicAdd(&counters[t.team], __popc(full));
      base = __shfl_sync(mask, base, leader);
      if (k == kEmptyKey) continue;
      const int pos = base + __popc(full & ((1u << warp_lane) - 1u));
      if (pos < nnz) {  // always, unless the phases disagree; never write past the row
        out_col[pos] = k;
        out_val[pos] = vals[s];
      }
    }
  }
  if constexpr (!GLOBAL) {
    // The row back into shared memory, padded to the power of two above its
    // count, sorted. Teams (at most a warp) sort with warp barriers, to the
    // largest such power in their warp so that every lane takes the same
    // steps; a block row sorts with block barriers.
    __syncthreads();
    if constexpr (DIRECT) {
      nnz = t.active ? counters[t.team] : 0;  // the row's count, now that it is compacted
      if (t.active && t.lane == 0) g.row_nnz[t.row] = nnz;
    }
    int P = static_cast<int>(next_pow2(static_cast<std::uint64_t>(nnz > 1 ? nnz : 1)));
    if constexpr (Team::kRows > 1) {
      static_assert(TEAM <= 32, "teams sharing a block sort with warp barriers");
      for (int d = 16; d >= TEAM; d >>= 1) P = max(P, __shfl_xor_sync(0xffffffffu, P, d));
    }
    for (int i = t.lane; i < P; i += TEAM) {
      keys[i] = i < nnz ? out_col[i] : kSortSentinel;
      vals[i] = i < nnz ? out_val[i] : V();
    }
    __syncthreads();
    bitonic_sort_pairs<TEAM, (Team::kRows > 1)>(keys, vals, P, t.lane);
    for (int i = t.lane; i < nnz; i += TEAM) {
      out_col[i] = keys[i];
      out_val[i] = vals[i];
    }
  }
}

}  // namespace graphrun::cuda::spgemm_detail
