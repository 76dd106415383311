// The frontier operator's device pieces (the contract is
// graphrun/kernels/frontier.hpp), for .cu files: the per-edge step of a
// push (reach), a block-chunked push and a thread-per-vertex pull as
// __device__ functions, the kernels built on them, and the block counters.
// A kernel that runs many levels itself (BFS's persistent level loop, with
// grid barriers between levels) calls push_chunks and pull_vertices; the
// one-step kernels below call the same reach and pull_vertices, so every
// advance runs one inner loop. graphrun/kernels/cuda/frontier.hpp has the
// compiled entry points; another apply instantiates these templates:
//
//   frontier::advance_push(a.row_ptr().data(), a.col_idx().data(), queue, nq, m_f,
//                          Relax{w, dist}, next_queue, counts, scratch);
//
// Blocks are kBlock threads; every counter is a 64-bit atomic add or max
// per block.
#pragma once

#include <cooperative_groups.h>

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cuda/functional>

#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/kernels/cuda/frontier.hpp"
#include "graphrun/kernels/cuda/search.cuh"
#include "graphrun/kernels/frontier.hpp"

namespace graphrun::cuda::frontier {

namespace cg = cooperative_groups;

inline constexpr int kBlock = 256;

using BlockReduce = cub::BlockReduce<unsigned long long, kBlock>;

// Adds a block's per-thread counts into *total (one atomic per block).
__device__ inline void add_block(unsigned long long mine, unsigned long long* total) {
  __shared__ typename BlockReduce::TempStorage tmp;
  const unsigned long long sum = BlockReduce(tmp).Sum(mine);
  if (threadIdx.x == 0 && sum != 0) atomicAdd(total, sum);
  __syncthreads();  // tmp may be reused by the caller
}

// Raises *total to the block's largest per-thread value.
__device__ inline void max_block(unsigned long long mine, unsigned long long* total) {
  __shared__ typename BlockReduce::TempStorage tmp;
  const unsigned long long m = BlockReduce(tmp).Reduce(mine, ::cuda::maximum<>{});
  if (threadIdx.x == 0 && m != 0) atomicMax(total, m);
  __syncthreads();
}

// Appends v to queue[*tail ...]; the threads of a warp that append together
// share one atomic.
__device__ inline void append(vertex_t v, vertex_t* queue, unsigned long long* tail) {
  const cg::coalesced_group group = cg::coalesced_threads();
  unsigned long long base = 0;
  if (group.thread_rank() == 0)
    base = atomicAdd(tail, static_cast<unsigned long long>(group.size()));
  base = group.shfl(base, 0);
  queue[base + group.thread_rank()] = v;
}

// Edge e of a frontier whose out-edges are laid end to end belongs to the
// last entry j < count with first[j] <= e (first: the exclusive scan of the
// degrees; entries of degree 0 share their successor's start and lose).
template <class Index>
__device__ Index source_of_edge(const offset_t* first, Index count, offset_t e) {
  return last_at_most(first, Index{0}, static_cast<Index>(count - 1), e);
}

// Where an advance puts the vertices it reaches: the next queue, its
// counters, and A's row pointers for their out-degrees.
struct Next {
  const offset_t* row_ptr;
  vertex_t* queue;
  FrontierCounts* counts;
};

// One thread's share of the counters, added per block at the end.
struct Tally {
  unsigned long long edges = 0;       // out-edges of the vertices reached
  unsigned long long max_degree = 0;  // their largest out-degree
  unsigned long long scanned = 0;     // pull: in-edges of the filtered vertices
};

// The inner step of every advance: apply(u, v) on the edge u -> v at
// position k; a v it keeps is counted and appended to the next queue.
template <class Apply>
__device__ bool reach(const Next& next, const Apply& apply, vertex_t u, vertex_t v, offset_t k,
                      Tally& t) {
  if (!frontier_apply(apply, u, v, k)) return false;
  const auto d = static_cast<unsigned long long>(frontier_row_length(next.row_ptr, v));
  t.edges += d;
  t.max_degree = max(t.max_degree, d);
  append(v, next.queue, &next.counts->vertices);
  return true;
}

// Push over the whole grid, edge-balanced: edge e of the frontier's
// out-edges (0 <= e < total) belongs to queue[j] with
// offs[j] <= e < offs[j+1].
template <class Apply>
__global__ void __launch_bounds__(kBlock)
    push_expand(const vertex_t* __restrict__ queue, vertex_t nq, const offset_t* __restrict__ offs,
                offset_t total, const offset_t* __restrict__ row_ptr,
                const vertex_t* __restrict__ col_idx, Apply apply, vertex_t* next_queue,
                FrontierCounts* counts) {
  const Next next{row_ptr, next_queue, counts};
  Tally t;
  for (offset_t e = blockIdx.x * kBlock + threadIdx.x; e < total;
       e += offset_t{gridDim.x} * kBlock) {
    const vertex_t j = source_of_edge(offs, nq, e);
    const vertex_t u = queue[j];
    const offset_t k = row_ptr[u] + (e - offs[j]);
    reach(next, apply, u, col_idx[k], k, t);
  }
  add_block(t.edges, &counts->edges);
  max_block(t.max_degree, &counts->max_degree);
}

// Push by one block at a time, for a kernel that runs whole levels (no
// global scan to wait for): the n_f queued vertices are dealt to the blocks
// in chunks of at most kBlock, as evenly as the frontier allows (a few
// thousand vertices spread over every block rather than filling a few),
// and each chunk's out-edges are expanded edge-balanced, a block scan of
// the degrees giving each edge its source. Every thread of the block calls it.
template <class Apply>
__device__ void push_chunks(offset_t n_f, const vertex_t* queue, const offset_t* row_ptr,
                            const vertex_t* col_idx, const Apply& apply, const Next& next,
                            Tally& t) {
  using BlockScan = cub::BlockScan<offset_t, kBlock>;
  __shared__ typename BlockScan::TempStorage scan_tmp;
  __shared__ offset_t first_edge[kBlock];  // of each queue entry in the chunk's edges
  __shared__ offset_t row_start[kBlock];
  __shared__ vertex_t source[kBlock];
  const offset_t per_chunk =
      min(offset_t{kBlock}, (n_f + offset_t{gridDim.x} - 1) / offset_t{gridDim.x});
  for (offset_t chunk = offset_t{blockIdx.x} * per_chunk; chunk < n_f;
       chunk += offset_t{gridDim.x} * per_chunk) {
    const offset_t in_chunk = min(per_chunk, n_f - chunk);
    offset_t degree = 0;
    if (threadIdx.x < in_chunk) {
      const vertex_t u = queue[chunk + threadIdx.x];
      source[threadIdx.x] = u;
      row_start[threadIdx.x] = row_ptr[u];
      degree = row_ptr[u + 1] - row_start[threadIdx.x];
    }
    offset_t total = 0;
    BlockScan(scan_tmp).ExclusiveSum(degree, first_edge[threadIdx.x], total);
    __syncthreads();
    for (offset_t e = threadIdx.x; e < total; e += kBlock) {
      const int j = source_of_edge(first_edge, static_cast<int>(in_chunk), e);
      const offset_t k = row_start[j] + (e - first_edge[j]);
      reach(next, apply, source[j], col_idx[k], k, t);
    }
    __syncthreads();  // the chunk's shared arrays are refilled next
  }
}

// Pull, a thread per vertex over the grid: every v < n with filter(v) looks
// through its in-edges (at_row_ptr, at_col_idx: Aᵀ) for the first u with
// in_frontier(u) and reaches v from it; t.scanned counts the in-edges of
// the filtered vertices.
template <class Filter, class InFrontier, class Apply>
__device__ void pull_vertices(vertex_t n, const offset_t* at_row_ptr, const vertex_t* at_col_idx,
                              const Filter& filter, const InFrontier& in_frontier,
                              const Apply& apply, const Next& next, Tally& t) {
  for (offset_t i = offset_t{blockIdx.x} * kBlock + threadIdx.x; i < n;
       i += offset_t{gridDim.x} * kBlock) {
    const auto v = static_cast<vertex_t>(i);
    if (!filter(v)) continue;
    const offset_t begin = at_row_ptr[v], end = at_row_ptr[v + 1];
    t.scanned += static_cast<unsigned long long>(end - begin);
    first_in_frontier(at_col_idx, begin, end, in_frontier,
                      [&](vertex_t u, offset_t k) { reach(next, apply, u, v, k, t); });
  }
}

// One pull step (pull_vertices) as a kernel.
template <class Filter, class InFrontier, class Apply>
__global__ void __launch_bounds__(kBlock)
    pull_expand(vertex_t n, const offset_t* __restrict__ at_row_ptr,
                const vertex_t* __restrict__ at_col_idx, Filter filter, InFrontier in_frontier,
                Apply apply, Next next) {
  Tally t;
  pull_vertices(n, at_row_ptr, at_col_idx, filter, in_frontier, apply, next, t);
  add_block(t.edges, &next.counts->edges);
  max_block(t.max_degree, &next.counts->max_degree);
  add_block(t.scanned, &next.counts->scanned);
}

// Blocks for a grid-stride loop over `work` items: enough to fill the GPU
// `per_sm` times over, never more than the work needs (at least 1).
inline unsigned grid_for(long long work, int block, int per_sm = 8) {
  int device = 0, sms = 0;
  GRAPHRUN_CUDA_CHECK(cudaGetDevice(&device));
  GRAPHRUN_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const long long want = (work + block - 1) / block;
  const long long cap = static_cast<long long>(sms) * per_sm;
  return static_cast<unsigned>(want < 1 ? 1 : (want < cap ? want : cap));
}

// A push step from queue[0, nq) with `total` out-edges, through row_ptr and
// col_idx (A): the degrees' scan, then push_expand.
template <class Apply>
void advance_push(const offset_t* row_ptr, const vertex_t* col_idx, const vertex_t* queue,
                  vertex_t nq, offset_t total, const Apply& apply, vertex_t* next_queue,
                  FrontierCounts* counts, PushScratch& scratch) {
  frontier_offsets(queue, nq, row_ptr, scratch);
  push_expand<<<grid_for(total, kBlock, 16), kBlock>>>(queue, nq, scratch.offsets.data(), total,
                                                       row_ptr, col_idx, apply, next_queue, counts);
  GRAPHRUN_CUDA_CHECK(cudaGetLastError());
}

// A pull step over every vertex of Aᵀ (at_row_ptr, at_col_idx, n rows).
template <class Filter, class InFrontier, class Apply>
void advance_pull(vertex_t n, const offset_t* at_row_ptr, const vertex_t* at_col_idx,
                  const Filter& filter, const InFrontier& in_frontier, const Apply& apply,
                  const Next& next) {
  pull_expand<<<grid_for(n, kBlock), kBlock>>>(n, at_row_ptr, at_col_idx, filter, in_frontier,
                                               apply, next);
  GRAPHRUN_CUDA_CHECK(cudaGetLastError());
}

}  // namespace graphrun::cuda::frontier
