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
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>

#include "../plan/spgemm_gpu_policy.hpp"
#include "graphrun/engine/types.hpp"
#include "spgemm_agent_hash.cuh"
#include "spgemm_semiring.cuh"

namespace graphrun::cuda::spgemm_detail {

template <class V, class T>
struct EscArgs : ProductRows<T> {
  vertex_t n_cols;  // B's columns: n_cols itself is the padding key, after every column
  int key_bits;     // bits the sort looks at: enough for n_cols
  const std::int64_t* stage_off;  // where row i's products (a bound on its entries) start
  vertex_t* stage_col;            // out: the rows, sorted and summed
  V* stage_val;
  offset_t* row_nnz;  // out: nnz(C(i,:))
};

// The shared memory of a block of esc_kernel, in dynamic shared memory (the
// bins past 2,048 products need more than the 48 KB of static shared
// memory; the launch sizes it by sizeof): the walk's offsets, the sort's
// scratch and the sorted row take turns in the same bytes, a barrier
// between each and the next, beside the scans' scratch.
template <class V, int BLOCK, int ITEMS>
struct EscShared {
  static constexpr int kCap = BLOCK * ITEMS;
  using Scan = cub::BlockScan<int, BLOCK>;
  using Sort = cub::BlockRadixSort<unsigned, BLOCK, ITEMS, V>;
  struct Walk {
    int start[kCap];       // the first product of A's entry p, in Gustavson order
    offset_t first[kCap];  // where B's row of entry p starts
  };
  struct Sorted {
    unsigned key[kCap];
    V val[kCap];
  };
  union {
    Walk walk;
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
  int count[ITEMS], start[ITEMS];
  offset_t first[ITEMS];
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const int p = threadIdx.x * ITEMS + j;
    count[j] = 0;
    first[j] = 0;
    if (p < len) {
      const vertex_t k = g.a_col[a0 + p];
      first[j] = g.b_ptr[k];
      count[j] = static_cast<int>(g.b_ptr[k + 1] - first[j]);
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

  // 2. The products, ITEMS consecutive ones to a thread (the blocked order
  // the sort ranks by, so equal columns keep Gustavson order); the entry of
  // the first by binary search, the rest by stepping on.
  const unsigned pad = static_cast<unsigned>(g.n_cols);
  unsigned key[ITEMS];
  V val[ITEMS];
  {
    const int x0 = threadIdx.x * ITEMS;
    int p = 0;
    if (x0 < ip) {
      int hi = len;
      while (hi - p > 1) {
        const int mid = (p + hi) / 2;
        if (sh.walk.start[mid] <= x0)
          p = mid;
        else
          hi = mid;
      }
    }
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
      const int x = x0 + j;
      key[j] = pad;
      val[j] = V();
      if (x < ip) {
        while (p + 1 < len && sh.walk.start[p + 1] <= x) ++p;
        const offset_t q = sh.walk.first[p] + (x - sh.walk.start[p]);
        key[j] = static_cast<unsigned>(g.b_col[q]);
        const V av = g.a_val ? static_cast<V>(g.a_val[a0 + p]) : V(1);
        const V bv = g.b_val ? static_cast<V>(g.b_val[q]) : V(1);
        val[j] = Ops::mul(av, bv);
      }
    }
  }
  __syncthreads();  // the walk's arrays become the sort's scratch

  // 3. Sorted by column, stably, then laid out in shared memory in order.
  Sort(sh.sort).Sort(key, val, 0, g.key_bits);
  __syncthreads();
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    sh.sorted.key[threadIdx.x * ITEMS + j] = key[j];
    sh.sorted.val[threadIdx.x * ITEMS + j] = val[j];
  }
  __syncthreads();

  // 4. A run of equal columns is an entry of C, summed by the thread that
  // holds its first product, left to right; a scan of the heads places it.
  int heads = 0;
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const int i = threadIdx.x * ITEMS + j;
    heads += key[j] != pad && (i == 0 || sh.sorted.key[i - 1] != key[j]);
  }
  int at = 0, runs = 0;
  Scan(scan).ExclusiveSum(heads, at, runs);
  const std::int64_t out_at = live ? g.stage_off[row] : 0;
  vertex_t* out_col = g.stage_col + out_at;
  V* out_val = g.stage_val + out_at;
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const int i = threadIdx.x * ITEMS + j;
    if (key[j] == pad || (i > 0 && sh.sorted.key[i - 1] == key[j])) continue;
    V sum = val[j];
    for (int r = i + 1; r < kCap && sh.sorted.key[r] == key[j]; ++r)
      sum = Ops::add(sum, sh.sorted.val[r]);
    out_col[at] = static_cast<vertex_t>(key[j]);
    out_val[at] = sum;
    ++at;
  }
  if (live && threadIdx.x == 0) g.row_nnz[row] = runs;
}

}  // namespace graphrun::cuda::spgemm_detail
