// Core numbers on the GPU (kcore.hpp): the CPU's parallel peeling
// (cpu/kcore.cpp) over the undirected view built on the device
// (edge_keys.cuh), each step a kernel:
//   scan:  every vertex left with degree <= k is claimed for level k and
//          queued; the others' least degree is kept (atomicMin);
//   peel:  the frontier operator's edge-balanced push from the queue: each
//          edge to a vertex left takes one off its degree (atomicSub); the
//          one decrement that takes it from k + 1 to k claims it for the
//          next sub-round, the others lower the least degree left.
// The host reads the queue's size after each step and moves k to the least
// degree left when a level runs dry, so empty levels cost nothing.
#include <limits>
#include <utility>

#include "../iteration_report.hpp"
#include "cuda_backend.hpp"
#include "device_util.cuh"
#include "edge_keys.cuh"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/kernels/cuda/frontier.cuh"
#include "graphrun/kernels/cuda/frontier.hpp"
#include "graphrun/kernels/frontier.hpp"

namespace graphrun::detail {

namespace {

constexpr int block_size = 256;

__global__ void row_lengths(const offset_t* row_ptr, vertex_t n, vertex_t* degree, vertex_t* core) {
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
    degree[v] = static_cast<vertex_t>(row_ptr[v + 1] - row_ptr[v]);
    core[v] = -1;
  }
}

// The least degree of the vertices left (the first level), into *lowest.
__global__ void least_degree(const vertex_t* degree, const vertex_t* core, vertex_t n,
                             int* lowest) {
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x)
    if (core[v] < 0) atomicMin(lowest, degree[v]);
}

__global__ void scan_level(const offset_t* row_ptr, vertex_t n, vertex_t k, vertex_t* degree,
                           vertex_t* core, vertex_t* queue, FrontierCounts* counts, int* lowest) {
  unsigned long long edges = 0;
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
    if (core[v] >= 0) continue;
    if (degree[v] <= k) {
      core[v] = k;
      cuda::frontier::append(v, queue, &counts->vertices);
      edges += static_cast<unsigned long long>(row_ptr[v + 1] - row_ptr[v]);
    } else {
      atomicMin(lowest, degree[v]);
    }
  }
  cuda::frontier::add_block(edges, &counts->edges);
}

// The push's apply: removes the edge u -> w from w's degree.
struct Peel {
  vertex_t* degree;
  vertex_t* core;
  vertex_t k;
  int* lowest;
  __device__ bool operator()(vertex_t, vertex_t w, offset_t) const {
    if (core[w] >= 0) return false;
    const vertex_t before = atomicSub(degree + w, 1);
    if (before == k + 1) {
      core[w] = k;
      return true;
    }
    if (before > k + 1) atomicMin(lowest, before - 1);  // w stays, with this degree
    return false;
  }
};

}  // namespace

KcoreResult CudaSteps::core_numbers(Context& ctx, const Graph& g, const KcoreOptions& options) {
  use_device(ctx, "core_numbers");
  const vertex_t n = g.n_vertices();
  const auto size = static_cast<std::size_t>(n);
  const DeviceCsr<double> view = undirected_view(AdjacencyOnDevice(g, false).csr(), g.directed());
  const CsrView<double> s = view.view();
  GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());
  const Stopwatch t;
  const IterationReport report(options.on_iteration, nullptr, t);
  DeviceArray<vertex_t> degree(size), core(size), queue(size), next(size);
  DeviceArray<FrontierCounts> counts(1);
  DeviceArray<int> lowest(1);
  Pinned<FrontierCounts> host_counts(1);
  Pinned<int> host_lowest(1);
  cuda::PushScratch scratch(n);
  const unsigned grid = grid_for(n, block_size);
  row_lengths<<<grid, block_size>>>(s.row_ptr, n, degree.data(), core.data());
  check_launch();
  constexpr int none = std::numeric_limits<int>::max();
  auto reset_lowest = [&] {
    GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(lowest.data(), &none, sizeof(int), cudaMemcpyHostToDevice));
  };
  auto read_back = [&] {
    GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(host_counts.data(), counts.data(), sizeof(FrontierCounts),
                                        cudaMemcpyDeviceToHost));
    GRAPHRUN_CUDA_CHECK(
        cudaMemcpyAsync(host_lowest.data(), lowest.data(), sizeof(int), cudaMemcpyDeviceToHost));
    GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  };
  reset_lowest();
  least_degree<<<grid, block_size>>>(degree.data(), core.data(), n, lowest.data());
  check_launch();
  read_back();
  vertex_t k = host_lowest[0];
  KcoreResult r;
  r.core.assign(size, -1);
  vertex_t left = n;
  while (left > 0) {
    reset_lowest();
    GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(counts.data(), 0, sizeof(FrontierCounts)));
    scan_level<<<grid, block_size>>>(s.row_ptr, n, k, degree.data(), core.data(), queue.data(),
                                     counts.data(), lowest.data());
    check_launch();
    read_back();
    auto nq = static_cast<vertex_t>(host_counts[0].vertices);
    auto edges = static_cast<offset_t>(host_counts[0].edges);
    while (nq > 0) {
      ++r.rounds;
      left -= nq;
      GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(counts.data(), 0, sizeof(FrontierCounts)));
      if (edges > 0)
        cuda::frontier::advance_push(s.row_ptr, s.col_idx, queue.data(), nq, edges,
                                     Peel{degree.data(), core.data(), k, lowest.data()},
                                     next.data(), counts.data(), scratch);
      read_back();
      nq = static_cast<vertex_t>(host_counts[0].vertices);
      edges = static_cast<offset_t>(host_counts[0].edges);
      std::swap(queue, next);
    }
    ++r.iterations;
    if (left > 0 && !report.level_done({.iteration = r.iterations, .frontier = left})) {
      r.complete = false;
      break;
    }
    k = host_lowest[0] == none ? k + 1 : host_lowest[0];
  }
  r.compute_seconds = t.seconds();
  GRAPHRUN_CUDA_CHECK(
      cudaMemcpy(r.core.data(), core.data(), size * sizeof(vertex_t), cudaMemcpyDeviceToHost));
  return r;
}

}  // namespace graphrun::detail
