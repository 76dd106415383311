// The expand-sort-compress agent of the GPU SpGEMM (ESC, the scheme of
// Bell, Dalton and Olson's CUSP SpGEMM, here a row to a block or to a slice
// of one), for rows of 17 to 8,192 products (plan/spgemm_gpu_policy.hpp,
// esc_group):
//
//   esc_kernel       a block (or a slice) lays its row's products out in Gustavson order
//                    (A's entries in column order, each B row in order),
//                    sorts them by column with CUB's stable block radix
//                    sort, and sums each run of equal columns in order
//   (once C's row pointers exist, staged_copy_kernel moves the rows into C:
//   spgemm_agent_sort.cuh)
//
// Why a second accumulator beside the hash tables: where nearly every
// product is an entry of its own (S·A of a contraction on an R-MAT graph:
// 16 million products on 11 million entries), the hash phases insert every
// product twice, symbolic and numeric, then sort the row anyway. A sorted
// row needs no symbolic phase: the kernel runs before it, its rows staged
// at their products' offsets (a bound) with nnz(C(i,:)) in row_nnz, so the
// scan of row_nnz that makes C's row pointers covers them too.
//
// The sort is stable and the products start in ascending k, so each
// C(i,j) adds its products in ascending k, left to right, as a sequential
// Gustavson loop does: these rows are deterministic whatever
// SpgemmOptions::deterministic says.
#pragma once

#include <cstdint>
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>

#include "../plan/spgemm_gpu_policy.hpp"
#include "graphrun/engine/types.hpp"
#include "spgemm_agent_hash.cuh"
#include "spgemm_semiring.cuh"

namespace graphrun::cuda::spgemm_detail {

template <class V, class T>
struct EscArgs : ProductRows<T> {
  vertex_t n_cols;  // B's columns
  // Bits the sort looks at: those of the last column, n_cols - 1. A slot
  // past the row's products takes the largest key of that many bits and is
  // told apart by its position (past the products), not by a key past every
  // column: that would cost a bit where n_cols is a power of two, and a
  // radix pass of 4 bits where the power is a multiple of 4 (the
  // contraction of R-MAT 20 into 2^16 clusters: S·A over 2^20 columns in 5
  // passes rather than 6, (S·A)·Sᵀ over 2^16 in 4 rather than 5).
  int key_bits;
  const std::int64_t* stage_off;  // where row i's products (a bound on its entries) start
  vertex_t* stage_col;            // out: the rows, sorted and summed
  V* stage_val;
  offset_t* row_nnz;  // out: nnz(C(i,:))
  // Zero where every row of B holds exactly one entry (then B's row k is
  // entry k: the second product of a contraction, B = Sᵀ), read on the
  // device; nullptr where nnz(B) differs from B's rows and no check ran.
  const unsigned long long* b_not_unit;
};

// The shared memory of a row of esc_kernel, in dynamic shared memory (the
// bins past 2,048 products need more than the 48 KB of static shared
// memory; the launch sizes it by sizeof): the products' values in
// Gustavson order, and the walk's offsets, the sort's scratch and the
// sorted row taking turns in the same bytes, a barrier between each and the
// next, beside the scans' scratch.
//
// The sort carries each product's position (16 bits) rather than its value:
// every radix pass moves a key and its payload through shared memory, the
// bins are bound by that traffic (Nsight Compute: L1 at 89-94% of its
// throughput), and a double is four times a position's bytes. The value is
// read once, by position, when its run is summed.
template <class V, int BLOCK, int ITEMS>
struct EscShared {
  static constexpr int kCap = BLOCK * ITEMS;
  using Position = std::uint16_t;
  static_assert(kCap <= 65536, "a position must fit 16 bits");
  using Scan = cub::BlockScan<int, BLOCK>;
  using Sort = cub::BlockRadixSort<unsigned, BLOCK, ITEMS, Position>;
  using Exchange = cub::BlockExchange<unsigned, BLOCK, ITEMS>;
  struct Walk {
    int start[kCap];       // the first product of A's entry p, in Gustavson order
    offset_t first[kCap];  // where B's row of entry p starts
  };
  struct Sorted {
    unsigned key[kCap];
    Position at[kCap];  // where the product's value is in `val`
  };
  V val[kCap];  // product x's value, x in Gustavson order
  union {
    Walk walk;
    typename Exchange::TempStorage exchange;
    typename Sort::TempStorage sort;
    Sorted sorted;
  };
  typename Scan::TempStorage scan;
};

template <class S, class T, int BLOCK, int ITEMS, int ROWS, int MIN_BLOCKS>
__global__ void __launch_bounds__(BLOCK* ROWS, MIN_BLOCKS)
    esc_kernel(EscArgs<typename DeviceSemiring<S>::value_type, T> g) {
  using Ops = DeviceSemiring<S>;
  using V = typename Ops::value_type;
  using Shared = EscShared<V, BLOCK, ITEMS>;
  constexpr int kCap = Shared::kCap;
  using Scan = typename Shared::Scan;
  using Sort = typename Shared::Sort;
  using Position = typename Shared::Position;
  extern __shared__ __align__(16) unsigned char esc_smem[];
  Shared& sh = reinterpret_cast<Shared*>(esc_smem)[threadIdx.y];
  auto& scan = sh.scan;

  // A block of ROWS rows, one to each threadIdx.y. CUB's collectives see
  // threadIdx.x alone (their BLOCK_DIM_Y is 1) and each row has its own
  // storage; their barriers are the whole block's, so a slot past the
  // group's end still takes every step, as a row of no products.
  const std::int64_t slot = std::int64_t{blockIdx.x} * ROWS + threadIdx.y;
  const bool live = slot < g.n_rows;
  const vertex_t row = live ? g.rows[slot] : 0;
  const offset_t a0 = live ? g.a_ptr[row] : 0;
  const int len = live ? static_cast<int>(g.a_ptr[row + 1] - a0) : 0;  // <= kCap: the group says so
  const int ip = live ? static_cast<int>(g.ip[row]) : 0;               // <= kCap too

  // 1. Each entry's B row and where its products start: a scan of the B
  // rows' lengths, entries held ITEMS to a thread in order.
  // Where B's rows are one entry each, row k is entry k: no gathers of
  // B's row pointers.
  const bool unit_b = g.b_not_unit != nullptr && *g.b_not_unit == 0;
  int count[ITEMS], start[ITEMS];
  offset_t first[ITEMS];
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const int p = threadIdx.x * ITEMS + j;
    count[j] = 0;
    first[j] = 0;
    if (p < len) {
      const vertex_t k = g.a_col[a0 + p];
      if (unit_b) {
        first[j] = k;
        count[j] = 1;
      } else {
        first[j] = g.b_ptr[k];
        count[j] = static_cast<int>(g.b_ptr[k + 1] - first[j]);
      }
    }
  }
  Scan(scan).ExclusiveSum(count, start);
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const int p = threadIdx.x * ITEMS + j;
    if (p < len) {
      sh.walk.start[p] = start[j];
      sh.walk.first[p] = first[j];
    }
  }
  __syncthreads();

  // 2. The products, striped: product x = j * BLOCK + t to thread t, so that
  // a warp's loads of a B row are consecutive addresses (a thread's
  // products consecutive, as they were, put a sector under every lane's
  // load: Nsight Compute had the bins bound by L1), each product's entry by
  // binary search from the last one's, then the keys exchanged into the
  // blocked order the sort ranks by, so equal columns keep Gustavson order.
  // Keys and positions stay in registers for the sort, values go to shared
  // memory. The padding key: a slot past the products sorts after every
  // product of its key (the sort is stable, the slot's position is past
  // them all).
  const unsigned pad = (1u << g.key_bits) - 1u;
  unsigned key[ITEMS];
  Position pos[ITEMS];
  auto product = [&](int x, int p) {
    const offset_t q = sh.walk.first[p] + (x - sh.walk.start[p]);
    const V av = g.a_val ? static_cast<V>(g.a_val[a0 + p]) : V(1);
    const V bv = g.b_val ? static_cast<V>(g.b_val[q]) : V(1);
    sh.val[x] = Ops::mul(av, bv);
    return static_cast<unsigned>(g.b_col[q]);
  };
  // The last entry whose products start at or before x, from p on.
  auto entry_of = [&](int x, int p) {
    int hi = len;
    while (hi - p > 1) {
      const int mid = (p + hi) / 2;
      if (sh.walk.start[mid] <= x)
        p = mid;
      else
        hi = mid;
    }
    return p;
  };
  {
    int p = 0;
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
      const int x = j * BLOCK + static_cast<int>(threadIdx.x);
      key[j] = pad;
      if (x < ip) {
        p = entry_of(x, p);
        key[j] = product(x, p);
      }
    }
    __syncthreads();  // the walk's arrays become the exchange's
    typename Shared::Exchange(sh.exchange).StripedToBlocked(key);
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) pos[j] = static_cast<Position>(threadIdx.x * ITEMS + j);
  }
  __syncthreads();  // the exchange's scratch becomes the sort's

  // 3. Sorted by column, stably, then laid out in shared memory in order.
  Sort(sh.sort).Sort(key, pos, 0, g.key_bits);
  __syncthreads();
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    sh.sorted.key[threadIdx.x * ITEMS + j] = key[j];
    sh.sorted.at[threadIdx.x * ITEMS + j] = pos[j];
  }
  __syncthreads();

  // 4. A run of equal columns is an entry of C, summed by the thread that
  // holds its first product, left to right; a scan of the heads places it.
  int heads = 0;
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const int i = threadIdx.x * ITEMS + j;
    heads += pos[j] < ip && (i == 0 || sh.sorted.key[i - 1] != key[j]);
  }
  int at = 0, runs = 0;
  Scan(scan).ExclusiveSum(heads, at, runs);
  const std::int64_t out_at = live ? g.stage_off[row] : 0;
  vertex_t* out_col = g.stage_col + out_at;
  V* out_val = g.stage_val + out_at;
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const int i = threadIdx.x * ITEMS + j;
    if (pos[j] >= ip || (i > 0 && sh.sorted.key[i - 1] == key[j])) continue;
    V sum = sh.val[pos[j]];
    for (int r = i + 1; r < kCap && sh.sorted.key[r] == key[j] && sh.sorted.at[r] < ip; ++r)
      sum = Ops::add(sum, sh.val[sh.sorted.at[r]]);
    out_col[at] = static_cast<vertex_t>(key[j]);
    out_val[at] = sum;
    ++at;
  }
  if (live && threadIdx.x == 0) g.row_nnz[row] = runs;
}

}  // namespace graphrun::cuda::spgemm_detail
