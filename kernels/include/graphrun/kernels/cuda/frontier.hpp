// The frontier operator on the GPU, compiled for BFS's apply
// (ClaimUnvisited); the contract is graphrun/kernels/frontier.hpp. Other
// applies (SSSP's relaxation, connected components' hooking) instantiate
// the same kernels from graphrun/kernels/cuda/frontier.cuh in their own .cu.
//
//   cuda::PushScratch scratch(n);
//   cudaMemsetAsync(counts, 0, sizeof(FrontierCounts));
//   cuda::advance_push(a, queue, nq, m_f, ClaimUnvisited{level, parent, visited, depth},
//                      next_queue, counts, scratch);
//   cuda::advance_pull(at, a.row_ptr().data(), visited, front,
//                      ClaimUnvisited{...}, next_queue, counts);
//
// Pointers are device pointers; counts accumulate into *counts (zero it
// first). Every call only launches work on the default stream.
//
//   push: the frontier's out-edges are laid end to end by an exclusive scan
//     of the queue's degrees (CUB) and one thread per edge finds its source
//     by binary search in the scan (edge-balanced, as Gunrock's
//     load-balanced advance); winners append themselves to the next queue,
//     one atomic per warp.
//   pull: a thread per vertex v not in `visited` scans v's in-edges for the
//     first in the frontier bitmap; the next frontier is a queue.
#pragma once

#include <cstdint>

#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/device_csr.hpp"
#include "graphrun/kernels/frontier.hpp"

namespace graphrun::cuda {

// The edge-balanced push's workspace for queues of up to max_queue
// vertices: their degrees and the degrees' exclusive scan (allocated once),
// and the scan's temporary storage (grown on first use).
struct PushScratch {
  explicit PushScratch(vertex_t max_queue)
      : degrees(std::size_t(max_queue) + 1), offsets(std::size_t(max_queue) + 1) {}
  DeviceArray<offset_t> degrees, offsets;
  DeviceArray<std::uint8_t> scan;
};

// offsets[i] = the out-degrees (row_ptr) of queue[0, i) summed, i <= nq.
void frontier_offsets(const vertex_t* queue, vertex_t nq, const offset_t* row_ptr,
                      PushScratch& scratch);

// Push from queue[0, nq), whose out-edges in a number `total` (as the
// counts of the step that made it said).
void advance_push(const DeviceCsr<double>& a, const vertex_t* queue, vertex_t nq, offset_t total,
                  const ClaimUnvisited& apply, vertex_t* next_queue, FrontierCounts* counts,
                  PushScratch& scratch);

// Pull: for every v with visited[v] == 0, the first in-neighbour (a row of
// at = Aᵀ) with front[v] != 0; out_row_ptr: A's row pointers, for the
// counts' out-edges.
void advance_pull(const DeviceCsr<double>& at, const offset_t* out_row_ptr,
                  const std::uint8_t* visited, const std::uint8_t* front,
                  const ClaimUnvisited& apply, vertex_t* next_queue, FrontierCounts* counts);

// bitmap[0, n) = 1 on queue[0, nq), 0 elsewhere.
void queue_to_bitmap(const vertex_t* queue, vertex_t nq, std::uint8_t* bitmap, vertex_t n);

// Appends the v < n with bitmap[v] != 0 to queue[*tail ...] (in no
// particular order), advancing *tail.
void bitmap_to_queue(const std::uint8_t* bitmap, vertex_t n, vertex_t* queue,
                     unsigned long long* tail);

}  // namespace graphrun::cuda
