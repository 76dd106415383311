// Betweenness on the GPU (betweenness.hpp): Brandes from one source at a
// time, as the CPU's steps (cpu/betweenness.cpp), each step a kernel:
//   forward: the frontier operator's edge-balanced push from level d: a
//            compare-and-swap on depth keeps each vertex of level d + 1 once,
//            appended straight after level d in `order`; every edge into
//            level d + 1 adds σ(u) to its head's σ (atomicAdd: path counts
//            are integers, exact in any order below 2^53) and sets its bit
//            in the successor bitmap;
//   back:    a warp per vertex of level d pulls δ over its successor edges
//            and adds it to the vertex's sum.
// The host reads the size of each new level (one copy per level) and keeps
// the levels' bounds. A warp sums its lanes' shares in a fixed tree, so the
// scores are the same on every run; they differ from the CPU's, which sums
// in storage order, in the last bits.
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "../iteration_report.hpp"
#include "cuda_backend.hpp"
#include "device_util.cuh"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/kernels/cuda/frontier.cuh"
#include "graphrun/kernels/cuda/frontier.hpp"
#include "graphrun/kernels/frontier.hpp"

namespace graphrun::detail {

namespace {

constexpr int block_size = 256;
constexpr int warps_per_block = block_size / 32;

// The push's apply on the edge u -> v at position k: v joins level `next`
// the first time it is reached; every edge into level `next` carries u's
// paths and is marked as a successor edge.
struct Advance {
  vertex_t* depth;
  double* sigma;
  unsigned* successor;
  vertex_t next;
  __device__ bool operator()(vertex_t u, vertex_t v, offset_t k) const {
    vertex_t seen = depth[v];
    bool claimed = false;
    if (seen == -1) {
      seen = atomicCAS(depth + v, -1, next);
      if (seen == -1) {
        claimed = true;
        seen = next;
      }
    }
    if (seen == next) {
      atomicAdd(sigma + v, sigma[u]);
      atomicOr(successor + k / 32, 1u << (k % 32));
    }
    return claimed;
  }
};

__device__ double warp_sum(double x) {
  for (int offset = 16; offset > 0; offset /= 2) x += __shfl_xor_sync(0xffffffffu, x, offset);
  return x;
}

__global__ void start(vertex_t s, vertex_t* depth, double* sigma, vertex_t* order) {
  depth[s] = 0;
  sigma[s] = 1;
  order[0] = s;
}

// δ(v) for the vertices v of order[begin, end) (a level), over their
// successor edges, added to sum but for the source's own.
__global__ void accumulate(const vertex_t* order, vertex_t begin, vertex_t end,
                           const offset_t* row_ptr, const vertex_t* col_idx,
                           const unsigned* successor, const double* sigma, double* delta,
                           double* sum, vertex_t s) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  for (vertex_t i = begin + static_cast<vertex_t>((blockIdx.x * blockDim.x + threadIdx.x) / 32);
       i < end; i += static_cast<vertex_t>(gridDim.x * warps_per_block)) {
    const vertex_t v = order[i];
    double share = 0;
    for (offset_t k = row_ptr[v] + lane; k < row_ptr[v + 1]; k += 32)
      if ((successor[k / 32] >> (k % 32)) & 1u) {
        const vertex_t w = col_idx[k];
        share += (1 + delta[w]) / sigma[w];
      }
    share = warp_sum(share);
    if (lane == 0) {
      delta[v] = sigma[v] * share;
      if (v != s) sum[v] += delta[v];
    }
  }
}

__global__ void reset(const vertex_t* order, vertex_t end, vertex_t* depth, double* sigma,
                      double* delta) {
  for (vertex_t i = blockIdx.x * blockDim.x + threadIdx.x; i < end; i += gridDim.x * blockDim.x) {
    const vertex_t v = order[i];
    depth[v] = -1;
    sigma[v] = 0;
    delta[v] = 0;
  }
}

unsigned warp_grid(vertex_t vertices) {
  return grid_for(static_cast<long long>(vertices) * 32, block_size);
}

}  // namespace

BetweennessSums CudaSteps::betweenness(Context& ctx, const Graph& g,
                                       std::span<const vertex_t> sources,
                                       const BetweennessOptions& options) {
  use_device(ctx, "betweenness");
  const vertex_t n = g.n_vertices();
  const auto size = static_cast<std::size_t>(n);
  const DeviceCsr<double> d_a = adjacency_on_device(g, false);
  const CsrView<double> a = d_a.view();
  const auto words = static_cast<std::size_t>((a.nnz + 31) / 32);
  DeviceArray<unsigned> successor(words);
  GRAPHRUN_CUDA_CHECK(cudaMemset(successor.data(), 0, words * sizeof(unsigned)));
  DeviceArray<vertex_t> depth(size), order(size);
  DeviceArray<double> sigma(size), delta(size), sum(size);
  GRAPHRUN_CUDA_CHECK(cudaMemset(depth.data(), 0xff, size * sizeof(vertex_t)));  // -1
  GRAPHRUN_CUDA_CHECK(cudaMemset(sigma.data(), 0, size * sizeof(double)));
  GRAPHRUN_CUDA_CHECK(cudaMemset(delta.data(), 0, size * sizeof(double)));
  GRAPHRUN_CUDA_CHECK(cudaMemset(sum.data(), 0, size * sizeof(double)));
  DeviceArray<FrontierCounts> counts(1);
  Pinned<FrontierCounts> host_counts(1);
  cuda::PushScratch scratch(n);
  const std::vector<offset_t> row_ptr = d_a.row_ptr().download();  // out-degrees of the sources
  GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());
  const Stopwatch t;
  const IterationReport report(options.on_iteration, nullptr, t);
  BetweennessSums r;
  std::vector<vertex_t> level;
  for (vertex_t s : sources) {
    start<<<1, 1>>>(s, depth.data(), sigma.data(), order.data());
    check_launch();
    level.assign({0, 1});
    offset_t edges = row_ptr[s + 1] - row_ptr[s];
    for (vertex_t d = 0; edges > 0; ++d) {
      const vertex_t begin = level[d], end = level[d + 1];
      GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(counts.data(), 0, sizeof(FrontierCounts)));
      cuda::frontier::advance_push(a.row_ptr, a.col_idx, order.data() + begin, end - begin, edges,
                                   Advance{depth.data(), sigma.data(), successor.data(), d + 1},
                                   order.data() + end, counts.data(), scratch);
      GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(host_counts.data(), counts.data(), sizeof(FrontierCounts),
                                          cudaMemcpyDeviceToHost));
      GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(nullptr));
      const auto found = static_cast<vertex_t>(host_counts[0].vertices);
      if (found == 0) break;
      edges = static_cast<offset_t>(host_counts[0].edges);
      level.push_back(end + found);
    }
    const auto levels = static_cast<vertex_t>(level.size()) - 1;
    for (vertex_t d = levels - 2; d >= 0; --d) {
      accumulate<<<warp_grid(level[d + 1] - level[d]), block_size>>>(
          order.data(), level[d], level[d + 1], a.row_ptr, a.col_idx, successor.data(),
          sigma.data(), delta.data(), sum.data(), s);
      check_launch();
    }
    reset<<<grid_for(level.back(), block_size), block_size>>>(
        order.data(), level.back(), depth.data(), sigma.data(), delta.data());
    check_launch();
    // The whole bitmap: a memset of nnz / 8 bytes costs less than finding
    // the reached rows' words.
    GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(successor.data(), 0, words * sizeof(unsigned)));
    ++r.sources_done;
    if (options.on_iteration) GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(nullptr));
    if (!report.level_done({.iteration = r.sources_done, .frontier = levels}) &&
        r.sources_done < static_cast<int>(sources.size())) {
      r.complete = false;
      break;
    }
  }
  GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());
  r.compute_seconds = t.seconds();
  r.sum = sum.download();
  return r;
}

}  // namespace graphrun::detail
