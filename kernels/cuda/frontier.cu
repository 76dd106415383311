// The frontier operator's compiled entry points (graphrun/kernels/cuda/frontier.hpp):
// the kernel templates of frontier.cuh for ClaimUnvisited, the degrees' scan
// of the edge-balanced push, and the queue <-> bitmap conversions.
#include <cub/device/device_scan.cuh>

#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/kernels/cuda/frontier.cuh"
#include "graphrun/kernels/cuda/frontier.hpp"

namespace graphrun::cuda {

namespace {

using frontier::kBlock;

// deg[i] = out-degree of queue[i] for i < nq, deg[nq] = 0 (so that the
// exclusive scan's last entry is the total).
__global__ void queue_degrees(const vertex_t* __restrict__ queue, vertex_t nq,
                              const offset_t* __restrict__ row_ptr, offset_t* __restrict__ deg) {
  for (offset_t i = blockIdx.x * kBlock + threadIdx.x; i <= nq; i += offset_t{gridDim.x} * kBlock)
    deg[i] = i < nq ? frontier_row_length(row_ptr, queue[i]) : 0;
}

__global__ void queue_to_dense(const vertex_t* __restrict__ queue, vertex_t nq,
                               std::uint8_t* __restrict__ front) {
  for (offset_t i = blockIdx.x * kBlock + threadIdx.x; i < nq; i += offset_t{gridDim.x} * kBlock)
    front[queue[i]] = 1;
}

__global__ void dense_to_queue(vertex_t n, const std::uint8_t* __restrict__ front, vertex_t* queue,
                               unsigned long long* tail) {
  for (offset_t i = blockIdx.x * kBlock + threadIdx.x; i < n; i += offset_t{gridDim.x} * kBlock)
    if (front[i]) frontier::append(static_cast<vertex_t>(i), queue, tail);
}

}  // namespace

void frontier_offsets(const vertex_t* queue, vertex_t nq, const offset_t* row_ptr,
                      PushScratch& scratch) {
  queue_degrees<<<frontier::grid_for(std::int64_t{nq} + 1, kBlock), kBlock>>>(
      queue, nq, row_ptr, scratch.degrees.data());
  GRAPHRUN_CUDA_CHECK(cudaGetLastError());
  std::size_t bytes = 0;
  GRAPHRUN_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, scratch.degrees.data(),
                                                    scratch.offsets.data(), std::int64_t{nq} + 1));
  if (bytes > scratch.scan.size()) scratch.scan = DeviceArray<std::uint8_t>(bytes);
  GRAPHRUN_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch.scan.data(), bytes,
                                                    scratch.degrees.data(), scratch.offsets.data(),
                                                    std::int64_t{nq} + 1));
}

void advance_push(const DeviceCsr<double>& a, const vertex_t* queue, vertex_t nq, offset_t total,
                  const ClaimUnvisited& apply, vertex_t* next_queue, FrontierCounts* counts,
                  PushScratch& scratch) {
  frontier::advance_push(a.row_ptr().data(), a.col_idx().data(), queue, nq, total, apply,
                         next_queue, counts, scratch);
}

void advance_pull(const DeviceCsr<double>& at, const offset_t* out_row_ptr,
                  const std::uint8_t* visited, const std::uint8_t* front,
                  const ClaimUnvisited& apply, vertex_t* next_queue, FrontierCounts* counts) {
  frontier::advance_pull(at.n_rows(), at.row_ptr().data(), at.col_idx().data(),
                         BitmapClear{visited}, BitmapSet{front}, apply,
                         frontier::Next{out_row_ptr, next_queue, counts});
}

void queue_to_bitmap(const vertex_t* queue, vertex_t nq, std::uint8_t* bitmap, vertex_t n) {
  GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(bitmap, 0, n));
  queue_to_dense<<<frontier::grid_for(nq, kBlock), kBlock>>>(queue, nq, bitmap);
  GRAPHRUN_CUDA_CHECK(cudaGetLastError());
}

void bitmap_to_queue(const std::uint8_t* bitmap, vertex_t n, vertex_t* queue,
                     unsigned long long* tail) {
  dense_to_queue<<<frontier::grid_for(n, kBlock), kBlock>>>(n, bitmap, queue, tail);
  GRAPHRUN_CUDA_CHECK(cudaGetLastError());
}

}  // namespace graphrun::cuda
