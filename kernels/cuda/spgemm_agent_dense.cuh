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
//                          fits there, in C's values otherwise
//
// A row whose bound is a sizeable share of n_cols costs less this way than
// in a hash table: no probing, no collisions, and no sort, since the bitmap
// is already in column order. The numeric phase reads B's columns twice;
// the second time they are mostly in L2.
#pragma once

#include <cub/block/block_scan.cuh>

#include "spgemm_agent_hash.cuh"

namespace graphrun::cuda::spgemm_detail {

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

// Sets the bits of row `row`'s product columns; bits must be cleared and
// the block synchronized before, and is synchronized after.
template <int BLOCK>
__device__ inline void set_product_bits(const offset_t* __restrict__ a_ptr,
                                        const vertex_t* __restrict__ a_col,
                                        const offset_t* __restrict__ b_ptr,
                                        const vertex_t* __restrict__ b_col, vertex_t row,
                                        std::int64_t ip, unsigned int* bits) {
  for_each_product<BLOCK>(
      a_ptr, a_col, b_ptr, row, ip, static_cast<int>(threadIdx.x), [](offset_t) { return 0; },
      [&](int, offset_t q) {
        const vertex_t c = b_col[q];
        atomicOr(&bits[c >> 5], 1u << (c & 31));
      });
  __syncthreads();
}

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) dense_symbolic_kernel(SymbolicArgs g) {
  extern __shared__ __align__(16) unsigned char smem[];
  __shared__ int count;
  unsigned int* bits = reinterpret_cast<unsigned int*>(smem);
  const auto words = static_cast<int>(bitmap_words(g.n_cols));
  const vertex_t row = g.rows[blockIdx.x];
  for (int w = threadIdx.x; w < words; w += BLOCK) bits[w] = 0;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  set_product_bits<BLOCK>(g.a_ptr, g.a_col, g.b_ptr, g.b_col, row,
                          static_cast<std::int64_t>(g.ip[row]), bits);
  int local = 0;
  for (int w = threadIdx.x; w < words; w += BLOCK) local += __popc(bits[w]);
  for (int d = 16; d > 0; d >>= 1) local += __shfl_xor_sync(0xffffffffu, local, d);
  if (threadIdx.x % 32 == 0 && local) atomicAdd(&count, local);
  __syncthreads();
  if (threadIdx.x == 0) g.row_nnz[row] = count;
}

// `value_slots`: entries of a row accumulated in shared memory; longer rows,
// and rows of more than `shared_max_products_per_entry` products per entry,
// accumulate in C's values (global atomics, mostly in L2).
template <class S, class T, int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    dense_numeric_kernel(NumericArgs<typename DeviceSemiring<S>::value_type, T> g, vertex_t n_cols,
                         int value_slots, int shared_max_products_per_entry) {
  using Ops = DeviceSemiring<S>;
  using V = typename Ops::value_type;
  using BlockScan = cub::BlockScan<int, BLOCK, cub::BLOCK_SCAN_WARP_SCANS>;  // small temp storage
  __shared__ typename BlockScan::TempStorage scan_temp;
  extern __shared__ __align__(16) unsigned char smem[];
  const auto words = static_cast<int>(bitmap_words(n_cols));
  unsigned int* bits = reinterpret_cast<unsigned int*>(smem);
  int* rank0 = reinterpret_cast<int*>(bits + words);  // set bits before each word
  V* shared_vals = reinterpret_cast<V*>(rank0 + words);

  const vertex_t row = g.rows[blockIdx.x];
  const offset_t c0 = g.c_ptr[row];
  const auto nnz = static_cast<int>(g.c_ptr[row + 1] - c0);
  const auto ip = static_cast<std::int64_t>(g.ip[row]);
  const bool in_shared =
      nnz <= value_slots && ip <= std::int64_t{shared_max_products_per_entry} * nnz;
  V* acc = in_shared ? shared_vals : g.c_val + c0;
  for (int w = threadIdx.x; w < words; w += BLOCK) bits[w] = 0;
  for (int i = threadIdx.x; i < nnz; i += BLOCK) acc[i] = Ops::zero();
  __syncthreads();
  set_product_bits<BLOCK>(g.a_ptr, g.a_col, g.b_ptr, g.b_col, row, ip, bits);

  // Ranks: each thread counts a contiguous run of words, one block scan
  // places the runs, and the thread writes its words' columns to C.
  const int per = (words + BLOCK - 1) / BLOCK;
  const int w0 = min(words, static_cast<int>(threadIdx.x) * per), w1 = min(words, w0 + per);
  int mine = 0;
  for (int w = w0; w < w1; ++w) mine += __popc(bits[w]);
  int at;
  BlockScan(scan_temp).ExclusiveSum(mine, at);
  for (int w = w0; w < w1; ++w) {
    rank0[w] = at;
    for (unsigned int b = bits[w]; b; b &= b - 1) {
      if (at < nnz)
        g.c_col[c0 + at] = w * 32 + (__ffs(b) - 1);  // always, unless the phases disagree
      ++at;
    }
  }
  __syncthreads();

  const vertex_t* __restrict__ b_col = g.b_col;
  const T* __restrict__ a_val = g.a_val;
  const T* __restrict__ b_val = g.b_val;
  for_each_product<BLOCK>(
      g.a_ptr, g.a_col, g.b_ptr, row, ip, static_cast<int>(threadIdx.x),
      [&](offset_t p) { return a_val ? static_cast<V>(a_val[p]) : V(1); },
      [&](V av, offset_t q) {
        const vertex_t c = b_col[q];
        const int w = c >> 5;
        const int r = rank0[w] + __popc(bits[w] & ((1u << (c & 31)) - 1u));
        const V bv = b_val ? static_cast<V>(b_val[q]) : V(1);
        if (r < nnz) Ops::atomic_add(&acc[r], Ops::mul(av, bv));
      },
      g.ordered);
  if (in_shared) {
    __syncthreads();
    for (int i = threadIdx.x; i < nnz; i += BLOCK) g.c_val[c0 + i] = shared_vals[i];
  }
}

}  // namespace graphrun::cuda::spgemm_detail
