// The dense-bitmap agents of the GPU SpGEMM (plan/spgemm_gpu_policy.hpp says
// which rows): a block per row of C and one bit per column of B in shared
// memory.
//
//   dense_symbolic_kernel  sets the bit of every product's column (atomicOr),
//                          nnz(C(i,:)) = the set bits
//   dense_numeric_kernel   sets the bits again, ranks them (a prefix count per
//                          32-bit word: the rank of column c is the set bits
//                          before it), writes C's columns in order straight
//                          from the bitmap, then accumulates each product at
//                          its column's rank: in shared memory when the row
//                          fits there, in C's values otherwise; staged rows
//                          (SpgemmOptions::stage_bitmap_rows) run it before
//                          the symbolic phase, which then leaves them alone,
//                          into a staging the size of their bound, their
//                          count of set bits the row's nnz
//
// A row whose bound is a sizeable share of n_cols costs less this way than
// in a hash table: no probing, no collisions, and no sort, since the bitmap
// is already in column order. The numeric phase reads B's columns twice;
// the second time they are mostly in L2.
//
// Where B has more columns than a bitmap in shared memory holds, the rows
// past the shared hash bins are cut into windows of columns
// (SpgemmPolicy::window_cols), a block per window: each walks only its
// window's share of the B rows, so the windows of a long row run on as
// many SMs. The row's windows form a chain: window w waits until window
// w - 1 has published the set bits of windows 0..w-1 (a 64-bit word per
// row: the next window's index above bit 48, the count below), adds its
// own and publishes. Blocks are numbered row by row, window by window, and
// a block waits only for one numbered before it, which the GPU has started
// (CUB's single-pass scan makes the same assumption about block order). The
// wait comes after the block's walk that sets its bits, so windows walk in
// parallel and only their counts pass down the chain.
#pragma once

#include <cub/block/block_scan.cuh>
#include <cuda/atomic>
#include <type_traits>

#include "spgemm_agent_hash.cuh"

namespace graphrun::cuda::spgemm_detail {

// How a bitmap group's columns are cut: `count` windows of `width` columns
// (one window of n_cols when B is narrow enough), and the chain words of
// the group's rows (zeroed before the launch; unused for one window).
struct DenseWindows {
  int count = 1;
  vertex_t width = 0;
  unsigned long long* chain = nullptr;
};

inline constexpr int kChainShift = 48;
inline constexpr unsigned long long kChainCount = (1ull << kChainShift) - 1;

// The block's row and its window of columns [lo, hi).
struct WindowTile {
  std::int64_t idx;  // the row's place in its group
  vertex_t row;
  int w;
  vertex_t lo, hi;
  __device__ WindowTile(const vertex_t* rows, const DenseWindows& dw, vertex_t n_cols)
      : idx(static_cast<std::int64_t>(blockIdx.x) / dw.count),
        row(rows[idx]),
        w(static_cast<int>(blockIdx.x % static_cast<unsigned>(dw.count))),
        lo(static_cast<vertex_t>(std::int64_t{w} * dw.width)),
        hi(static_cast<vertex_t>(std::int64_t{lo} + dw.width < n_cols ? lo + dw.width : n_cols)) {}
  __device__ ColumnWindow walk_window(const vertex_t* b_col, const DenseWindows& dw) const {
    return dw.count > 1 ? ColumnWindow{b_col, lo, hi} : ColumnWindow{};
  }
};

// Thread 0: the set bits of the row's windows before this one, after which
// it publishes its own `count` for the next. One window: 0.
__device__ inline std::int64_t chain_prefix(const DenseWindows& dw, const WindowTile& t,
                                            std::int64_t count) {
  if (dw.count == 1) return 0;
  ::cuda::atomic_ref<unsigned long long, ::cuda::thread_scope_device> word(dw.chain[t.idx]);
  unsigned long long v;
  while (((v = word.load(::cuda::memory_order_acquire)) >> kChainShift) !=
         static_cast<unsigned long long>(t.w))
    __nanosleep(64);
  const auto before = static_cast<std::int64_t>(v & kChainCount);
  word.store((static_cast<unsigned long long>(t.w + 1) << kChainShift) |
                 static_cast<unsigned long long>(before + count),
             ::cuda::memory_order_release);
  return before;
}

// Shared memory: the bitmap (words of 32 columns), for the numeric phase
// also its prefix counts and the row's values.
__host__ __device__ constexpr std::size_t dense_symbolic_bytes(std::int64_t n_cols) {
  return static_cast<std::size_t>(bitmap_words(n_cols)) * 4;
}
template <class V>
__host__ __device__ constexpr std::size_t dense_numeric_bytes(std::int64_t n_cols,
                                                              std::int64_t value_slots) {
  return static_cast<std::size_t>(bitmap_words(n_cols)) * 8 +
         static_cast<std::size_t>(value_slots) * sizeof(V);
}

// Sets the bits of row `row`'s product columns in [lo, hi) at bit c - lo;
// bits must be cleared and the block synchronized before, and is
// synchronized after. BATCH: see walk_b_row.
template <int BLOCK, int BATCH = 1>
__device__ inline void set_product_bits(const offset_t* __restrict__ a_ptr,
                                        const vertex_t* __restrict__ a_col,
                                        const offset_t* __restrict__ b_ptr,
                                        const vertex_t* __restrict__ b_col, vertex_t row,
                                        std::int64_t ip, unsigned int* bits, ColumnWindow window,
                                        vertex_t lo, bool balanced) {
  auto set_bit = [&](int, vertex_t col) {
    const vertex_t c = col - lo;
    atomicOr(&bits[c >> 5], 1u << (c & 31));
  };
  if constexpr (BATCH == 1)
    for_each_product<BLOCK>(
        a_ptr, a_col, b_ptr, row, ip, static_cast<int>(threadIdx.x), [](offset_t) { return 0; },
        [&](int, offset_t q) { set_bit(0, b_col[q]); }, false, window, balanced);
  else
    for_each_product<BLOCK, BATCH>(
        a_ptr, a_col, b_ptr, row, ip, static_cast<int>(threadIdx.x), [](offset_t) { return 0; },
        set_bit, false, window, balanced, [=](offset_t q) { return b_col[q]; });
  __syncthreads();
}

// A row's products in one window: IP spread evenly over the windows, the
// figure for_each_product sizes its sub-teams by.
__device__ inline std::int64_t window_ip(std::int64_t ip, int windows) {
  return windows > 1 ? ip / windows + 1 : ip;
}
__device__ inline std::int64_t window_ip(std::int64_t ip, const DenseWindows& dw) {
  return window_ip(ip, dw.count);
}

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) dense_symbolic_kernel(SymbolicArgs g, DenseWindows dw) {
  extern __shared__ __align__(16) unsigned char smem[];
  __shared__ int count;
  unsigned int* bits = reinterpret_cast<unsigned int*>(smem);
  const WindowTile t(g.rows, dw, g.n_cols);
  const auto words = static_cast<int>(bitmap_words(t.hi - t.lo));
  for (int w = threadIdx.x; w < words; w += BLOCK) bits[w] = 0;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  set_product_bits<BLOCK>(g.a_ptr, g.a_col, g.b_ptr, g.b_col, t.row,
                          window_ip(static_cast<std::int64_t>(g.ip[t.row]), dw), bits,
                          t.walk_window(g.b_col, dw), t.lo, g.balanced);
  int local = 0;
  for (int w = threadIdx.x; w < words; w += BLOCK) local += __popc(bits[w]);
  for (int d = 16; d > 0; d >>= 1) local += __shfl_xor_sync(0xffffffffu, local, d);
  if (threadIdx.x % 32 == 0 && local) atomicAdd(&count, local);
  __syncthreads();
  if (threadIdx.x == 0) {
    const std::int64_t before = chain_prefix(dw, t, count);
    if (t.w == dw.count - 1) g.row_nnz[t.row] = static_cast<offset_t>(before + count);
  }
}

// Sums in 64-bit fixed point, units of 2^-63 (SpgemmOptions::unit_sums): a
// sum of products in [0, 2) kept as an integer in a double's 8 bytes of
// shared memory, added with two native 32-bit atomics. The low word's carry
// is read from that word's own old value, so every carry reaches the high
// word once and the sum is exact in any order. sm_90 has no shared-memory
// double atomic (a double add there is a compare-and-swap loop, retried
// under contention, which is why long rows otherwise accumulate in C).
template <class S>
inline constexpr bool kFixedSums = std::is_same_v<S, PlusTimes<double>>;

// Returns whether x added anything (is at least 2^-64).
__device__ inline bool fixed_add(unsigned int* words, double x) {
  const unsigned long long f = __double2ull_rn(x * 0x1p63);
  const auto lo = static_cast<unsigned int>(f);
  auto hi = static_cast<unsigned int>(f >> 32);
  const unsigned int old = atomicAdd(words, lo);
  hi += old + lo < old ? 1u : 0u;  // the low word wrapped: carry
  if (hi) atomicAdd(words + 1, hi);
  return f != 0;
}

__device__ inline double fixed_value(const unsigned int* words) {
  const unsigned long long f = static_cast<unsigned long long>(words[1]) << 32 | words[0];
  return __ull2double_rn(f) * 0x1p-63;
}

// `value_slots`: entries of a window accumulated in shared memory; longer
// windows, and windows of rows of more than `shared_max_products_per_entry`
// products per entry, accumulate in C's values (global atomics, mostly in
// L2). FIXED (kFixedSums, g.unit_sums): sums in shared memory in fixed
// point, whatever the products per entry, and rows of more entries than
// value_slots in chunks of it. STAGED (staged_dense_group, one window, before
// the symbolic phase): the row goes to its staging at g.stage_off[row], its
// bound's room, and its count of set bits, nnz(C(i,:)), to g.row_nnz[row].
// BATCH > 1 (FIXED only; SpgemmOptions::batch_b_loads): every walk loads
// BATCH of B's entries ahead of their use (walk_b_row). BATCH == 1 keeps
// the walks' code as it is, value loaded after the rank, so that the
// default kernels do not change with the batched ones beside them.
template <class S, class T, int BLOCK, bool FIXED = false, bool STAGED = false, int BATCH = 1>
__global__ void __launch_bounds__(BLOCK)
    dense_numeric_kernel(NumericArgs<typename DeviceSemiring<S>::value_type, T> g, vertex_t n_cols,
                         int value_slots, int shared_max_products_per_entry, DenseWindows dw) {
  using Ops = DeviceSemiring<S>;
  using V = typename Ops::value_type;
  using BlockScan = cub::BlockScan<int, BLOCK, cub::BLOCK_SCAN_WARP_SCANS>;  // small temp storage
  __shared__ typename BlockScan::TempStorage scan_temp;
  __shared__ std::int64_t window_at;  // the window's first entry within the row
  extern __shared__ __align__(16) unsigned char smem[];
  const WindowTile t(g.rows, dw, n_cols);
  const auto words = static_cast<int>(bitmap_words(t.hi - t.lo));
  const std::int64_t full_words = bitmap_words(dw.width);  // the shared layout's, every window
  unsigned int* bits = reinterpret_cast<unsigned int*>(smem);
  int* rank0 = reinterpret_cast<int*>(bits + full_words);  // set bits before each word
  V* shared_vals = reinterpret_cast<V*>(rank0 + full_words);

  const auto ip = static_cast<std::int64_t>(g.ip[t.row]);
  // Where the row goes, and its room there: C's row, or (STAGED) its staging.
  std::int64_t c0, row_room;
  vertex_t* __restrict__ out_col;
  V* __restrict__ out_val;
  if constexpr (STAGED) {
    c0 = g.stage_off[t.row];
    row_room = g.stage_off[t.row + 1] - c0;
    out_col = g.stage_col;
    out_val = g.stage_val;
  } else {
    c0 = g.c_ptr[t.row];
    row_room = g.c_ptr[t.row + 1] - c0;
    out_col = g.c_col;
    out_val = g.c_val;
  }
  const ColumnWindow window = t.walk_window(g.b_col, dw);
  for (int w = threadIdx.x; w < words; w += BLOCK) bits[w] = 0;
  __syncthreads();
  set_product_bits<BLOCK, BATCH>(g.a_ptr, g.a_col, g.b_ptr, g.b_col, t.row, window_ip(ip, dw), bits,
                                 window, t.lo, g.balanced);

  // Ranks: each thread counts a contiguous run of words, one block scan
  // places the runs (and counts the window), and the thread writes its
  // words' columns to C after the windows before this one.
  const int per = (words + BLOCK - 1) / BLOCK;
  const int w0 = min(words, static_cast<int>(threadIdx.x) * per), w1 = min(words, w0 + per);
  int mine = 0;
  for (int w = w0; w < w1; ++w) mine += __popc(bits[w]);
  int at, nnz;
  BlockScan(scan_temp).ExclusiveSum(mine, at, nnz);
  if (threadIdx.x == 0) {
    window_at = chain_prefix(dw, t, nnz);
    if constexpr (STAGED) g.row_nnz[t.row] = static_cast<offset_t>(nnz);  // one window
  }
  __syncthreads();
  const std::int64_t base = window_at;
  const std::int64_t row_nnz = STAGED ? nnz : row_room;
  // Products per entry judged on the row as a whole: a window's own count
  // of products is not known.
  const bool in_shared =
      nnz <= value_slots && (FIXED || ip <= std::int64_t{shared_max_products_per_entry} * row_nnz);
  // The window's entries within the row (all of them, unless the phases
  // disagree or, STAGED, the bound is wrong).
  const std::int64_t room = row_room - base < nnz ? row_room - base : nnz;
  // FIXED: a window of more entries than the shared values hold (a row's
  // only window, or one of a wide B's) sums in chunks of them (below), each
  // written whole, so that every sum stays exact.
  const bool chunked = FIXED && !in_shared && value_slots > 0;
  V* acc = in_shared ? shared_vals : out_val + c0 + base;
  if (!chunked)
    for (int i = threadIdx.x; i < room; i += BLOCK) acc[i] = Ops::zero();
  for (int w = w0; w < w1; ++w) {
    rank0[w] = at;
    for (unsigned int b = bits[w]; b; b &= b - 1) {
      if (base + at < row_room)  // always, unless the phases disagree
        out_col[c0 + base + at] = t.lo + w * 32 + (__ffs(b) - 1);
      ++at;
    }
  }
  __syncthreads();

  const vertex_t* __restrict__ b_col = g.b_col;
  const T* __restrict__ a_val = g.a_val;
  const T* __restrict__ b_val = g.b_val;
  static_assert(BATCH == 1 || FIXED, "B's loads are batched only with fixed-point sums");
  struct BEntry {  // B's entry as a batched walk loads it
    vertex_t col;
    V val;
  };
  auto load_entry = [&](offset_t q) {
    return BEntry{b_col[q], b_val ? static_cast<V>(b_val[q]) : V(1)};
  };
  if constexpr (FIXED) {
    // The chunked row: its entries in chunks of value_slots, each a range of
    // columns (from the chunk's first column to the next chunk's, read back
    // from the row's columns just written), each walk of the products
    // narrowed to its range, so that it still sums in shared memory rather
    // than in C.
    if (chunked) {
      auto* words = reinterpret_cast<unsigned int*>(shared_vals);
      for (std::int64_t first = 0; first < room; first += value_slots) {
        const auto count =
            static_cast<int>(room - first < value_slots ? room - first : value_slots);
        // The window's entries are out_col[c0 + base ..]; the last chunk
        // runs to the window's end. The walks size their sub-teams by the
        // window's share of the row's products, as the bitmap's walk does.
        const std::int64_t at0 = c0 + base + first;
        const ColumnWindow chunk{b_col, out_col[at0],
                                 first + count < room ? out_col[at0 + count] : t.hi};
        for (int i = threadIdx.x; i < 2 * count; i += BLOCK) words[i] = 0;
        __syncthreads();
        if constexpr (BATCH == 1)
          for_each_product<BLOCK>(
              g.a_ptr, g.a_col, g.b_ptr, t.row, window_ip(ip, dw), static_cast<int>(threadIdx.x),
              [&](offset_t p) { return a_val ? static_cast<V>(a_val[p]) : V(1); },
              [&](V av, offset_t q) {
                const vertex_t c = b_col[q] - t.lo;
                const int w = c >> 5;
                const std::int64_t r = rank0[w] + __popc(bits[w] & ((1u << (c & 31)) - 1u)) - first;
                const V bv = b_val ? static_cast<V>(b_val[q]) : V(1);
                if (r >= 0 && r < count) fixed_add(words + 2 * r, Ops::mul(av, bv));
              },
              g.ordered, chunk, g.balanced);
        else
          for_each_product<BLOCK, BATCH>(
              g.a_ptr, g.a_col, g.b_ptr, t.row, window_ip(ip, dw), static_cast<int>(threadIdx.x),
              [&](offset_t p) { return a_val ? static_cast<V>(a_val[p]) : V(1); },
              [&](V av, const BEntry& e) {
                const vertex_t c = e.col - t.lo;
                const int w = c >> 5;
                const std::int64_t r = rank0[w] + __popc(bits[w] & ((1u << (c & 31)) - 1u)) - first;
                if (r >= 0 && r < count) fixed_add(words + 2 * r, Ops::mul(av, e.val));
              },
              g.ordered, chunk, g.balanced, load_entry);
        __syncthreads();
        for (int i = threadIdx.x; i < count; i += BLOCK)
          out_val[at0 + i] = fixed_value(words + 2 * i);
        __syncthreads();
      }
      return;
    }
  }
  if constexpr (BATCH == 1) {
    for_each_product<BLOCK>(
        g.a_ptr, g.a_col, g.b_ptr, t.row, window_ip(ip, dw), static_cast<int>(threadIdx.x),
        [&](offset_t p) { return a_val ? static_cast<V>(a_val[p]) : V(1); },
        [&](V av, offset_t q) {
          const vertex_t c = b_col[q] - t.lo;
          const int w = c >> 5;
          const int r = rank0[w] + __popc(bits[w] & ((1u << (c & 31)) - 1u));
          const V bv = b_val ? static_cast<V>(b_val[q]) : V(1);
          if (r >= room) return;
          if constexpr (FIXED) {
            if (in_shared) {
              fixed_add(reinterpret_cast<unsigned int*>(acc + r), Ops::mul(av, bv));
              return;
            }
          }
          Ops::atomic_add(&acc[r], Ops::mul(av, bv));
        },
        g.ordered, window, g.balanced);
  } else {
    for_each_product<BLOCK, BATCH>(
        g.a_ptr, g.a_col, g.b_ptr, t.row, window_ip(ip, dw), static_cast<int>(threadIdx.x),
        [&](offset_t p) { return a_val ? static_cast<V>(a_val[p]) : V(1); },
        [&](V av, const BEntry& e) {
          const vertex_t c = e.col - t.lo;
          const int w = c >> 5;
          const int r = rank0[w] + __popc(bits[w] & ((1u << (c & 31)) - 1u));
          if (r >= room) return;
          if (in_shared)
            fixed_add(reinterpret_cast<unsigned int*>(acc + r), Ops::mul(av, e.val));
          else
            Ops::atomic_add(&acc[r], Ops::mul(av, e.val));
        },
        g.ordered, window, g.balanced, load_entry);
  }
  if (in_shared) {
    __syncthreads();
    for (int i = threadIdx.x; i < room; i += BLOCK) {
      if constexpr (FIXED)
        out_val[c0 + base + i] = fixed_value(reinterpret_cast<const unsigned int*>(acc + i));
      else
        out_val[c0 + base + i] = shared_vals[i];
    }
  }
}

}  // namespace graphrun::cuda::spgemm_detail
