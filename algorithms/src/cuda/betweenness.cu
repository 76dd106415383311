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
//
// Thin levels stay on the device. A grid or a road network has hundreds to
// thousands of levels of a few hundred vertices, where a launch sequence and
// a read-back per level (~35 µs) is all the time. So, as BFS does, one
// persistent cooperative kernel pushes level after level with grid-wide
// barriers between them (forward_loop: the frontier operator's push_chunks
// with the same apply), while the frontier has at most one vertex per
// thread of the loop's grid and no vertex of more than kLoopMaxDegree
// edges; the counts of each level land in a ring that the host replays into
// the levels' bounds. The sweep back over a search of more than
// kLoopMinLevels levels is one such kernel too (backward_loop), the same
// warp per vertex in the same order, so the scores are the same bits. Reads
// of what other blocks wrote since the launch go past the L1 (__ldcg).
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
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

namespace cg = cooperative_groups;

constexpr int block_size = cuda::frontier::kBlock;
constexpr int warps_per_block = block_size / 32;
// The device-side forward loop leaves to the host (the whole-GPU
// edge-balanced push) a level with a vertex of more edges than this.
constexpr unsigned long long kLoopMaxDegree = 4096;
// Levels per launch of the forward loop (the ring holds one more: the level
// it starts from).
constexpr int kLoopLevels = 1024;
// Searches of more levels sweep back in one launch.
constexpr int kLoopMinLevels = 32;

// Reads a value another block may have written since the kernel began: from
// the L2, past this SM's L1 (Coherent), or a plain load.
template <bool Coherent, class T>
__device__ T load(const T* p) {
  if constexpr (Coherent)
    return __ldcg(p);
  else
    return *p;
}

// The push's apply on the edge u -> v at position k: v joins level `next`
// the first time it is reached; every edge into level `next` carries u's
// paths and is marked as a successor edge.
template <bool Coherent>
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
      atomicAdd(sigma + v, load<Coherent>(sigma + u));
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

struct Sweep {
  const vertex_t* order;
  const offset_t* row_ptr;
  const vertex_t* col_idx;
  const unsigned* successor;
  const double* sigma;
  double* delta;
  double* sum;
  vertex_t s;
};

// δ(v) for the vertices v of order[begin, end) (a level), a warp each over
// their successor edges, added to sum but for the source's own.
template <bool Coherent>
__device__ void accumulate_level(const Sweep& p, vertex_t begin, vertex_t end) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  for (vertex_t i = begin + static_cast<vertex_t>((blockIdx.x * blockDim.x + threadIdx.x) / 32);
       i < end; i += static_cast<vertex_t>(gridDim.x * warps_per_block)) {
    const vertex_t v = p.order[i];
    double share = 0;
    for (offset_t k = p.row_ptr[v] + lane; k < p.row_ptr[v + 1]; k += 32)
      if ((p.successor[k / 32] >> (k % 32)) & 1u) {
        const vertex_t w = p.col_idx[k];
        share += (1 + load<Coherent>(p.delta + w)) / p.sigma[w];
      }
    share = warp_sum(share);
    if (lane == 0) {
      const double delta_v = p.sigma[v] * share;
      p.delta[v] = delta_v;
      if (v != p.s) p.sum[v] += delta_v;
    }
  }
}

__global__ void __launch_bounds__(block_size) accumulate(Sweep p, vertex_t begin, vertex_t end) {
  accumulate_level<false>(p, begin, end);
}

// The sweep back over levels levels - 2 .. 0 (bounds[d] .. bounds[d + 1]),
// one grid-wide barrier between levels. A cooperative launch.
__global__ void __launch_bounds__(block_size)
    backward_loop(Sweep p, const vertex_t* bounds, int levels) {
  const cg::grid_group grid = cg::this_grid();
  for (int d = levels - 2; d >= 0; --d) {
    accumulate_level<true>(p, bounds[d], bounds[d + 1]);
    grid.sync();
  }
}

struct ForwardLoop {
  const offset_t* row_ptr;
  const vertex_t* col_idx;
  vertex_t* depth;
  double* sigma;
  unsigned* successor;
  vertex_t* order;
  FrontierCounts* ring;  // ring[0]: the level it starts from; ring[k]: level first + k
  vertex_t begin;        // where that level starts in order
  vertex_t first;        // its depth
  offset_t max_frontier;
  int* levels_run;
};

// Level after level from `first`, a grid-wide barrier between them, while
// the level is thin (see the top of the file). A cooperative launch.
__global__ void __launch_bounds__(block_size) forward_loop(ForwardLoop p) {
  const cg::grid_group grid = cg::this_grid();
  vertex_t begin = p.begin;
  int k = 0;
  for (; k < kLoopLevels; ++k) {
    // Written by atomics before the last grid.sync(): read past the L1.
    const auto n_f = static_cast<offset_t>(__ldcg(&p.ring[k].vertices));
    const auto m_f = static_cast<offset_t>(__ldcg(&p.ring[k].edges));
    if (n_f == 0 || m_f == 0 || n_f > p.max_frontier ||
        __ldcg(&p.ring[k].max_degree) > kLoopMaxDegree)
      break;
    const auto end = static_cast<vertex_t>(begin + n_f);
    FrontierCounts* stats = &p.ring[k + 1];
    const cuda::frontier::Next next{p.row_ptr, p.order + end, stats};
    cuda::frontier::Tally t;
    cuda::frontier::push_chunks(
        n_f, p.order + begin, p.row_ptr, p.col_idx,
        Advance<true>{p.depth, p.sigma, p.successor, p.first + static_cast<vertex_t>(k) + 1}, next,
        t);
    cuda::frontier::add_block(t.edges, &stats->edges);
    cuda::frontier::max_block(t.max_degree, &stats->max_degree);
    begin = end;
    grid.sync();
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) *p.levels_run = k;
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
  const AdjacencyOnDevice on_device(g, false);
  const DeviceCsr<double>& d_a = on_device.csr();
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
  // The device-side loops (device_util.cuh: two blocks per SM), the
  // counters' ring, the levels' bounds for the sweep back.
  const unsigned forward_blocks =
      cooperative_blocks(reinterpret_cast<const void*>(forward_loop), block_size, "betweenness");
  const unsigned backward_blocks =
      cooperative_blocks(reinterpret_cast<const void*>(backward_loop), block_size, "betweenness");
  DeviceArray<FrontierCounts> ring(std::size_t{kLoopLevels} + 1);
  Pinned<FrontierCounts> host_ring(std::size_t{kLoopLevels} + 1);
  DeviceArray<int> levels_run(1);
  Pinned<int> host_levels_run(1);
  DeviceArray<vertex_t> bounds(size + 1);
  const std::vector<offset_t> row_ptr = d_a.row_ptr().download();  // out-degrees of the sources
  GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());
  const Stopwatch t;
  const IterationReport report(options.on_iteration, nullptr, t);
  BetweennessSums r;
  std::vector<vertex_t> level;
  const offset_t max_frontier = offset_t{forward_blocks} * block_size;
  for (vertex_t s : sources) {
    start<<<1, 1>>>(s, depth.data(), sigma.data(), order.data());
    check_launch();
    level.assign({0, 1});
    offset_t edges = row_ptr[s + 1] - row_ptr[s];
    auto max_degree = static_cast<unsigned long long>(edges);
    // Level d (order[level[d], level[d + 1])) is pushed next, with `edges`
    // out-edges; a push that finds nothing ends the search.
    for (vertex_t d = 0; edges > 0;) {
      const vertex_t begin = level[d], end = level[d + 1];
      if (end - begin <= max_frontier && max_degree <= kLoopMaxDegree) {
        FrontierCounts from{};
        from.vertices = static_cast<unsigned long long>(end - begin);
        from.edges = static_cast<unsigned long long>(edges);
        from.max_degree = max_degree;
        host_ring[0] = from;
        GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(ring.data(), host_ring.data(), sizeof(FrontierCounts),
                                            cudaMemcpyHostToDevice));
        GRAPHRUN_CUDA_CHECK(
            cudaMemsetAsync(ring.data() + 1, 0, sizeof(FrontierCounts) * std::size_t{kLoopLevels}));
        ForwardLoop p{a.row_ptr,
                      a.col_idx,
                      depth.data(),
                      sigma.data(),
                      successor.data(),
                      order.data(),
                      ring.data(),
                      begin,
                      d,
                      max_frontier,
                      levels_run.data()};
        void* args[] = {&p};
        GRAPHRUN_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(forward_loop),
                                                        dim3(forward_blocks), dim3(block_size),
                                                        args, 0, nullptr));
        check_launch();
        GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(host_levels_run.data(), levels_run.data(), sizeof(int),
                                            cudaMemcpyDeviceToHost));
        GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(host_ring.data(), ring.data(),
                                            sizeof(FrontierCounts) * (std::size_t{kLoopLevels} + 1),
                                            cudaMemcpyDeviceToHost));
        GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(nullptr));
        const int ran = host_levels_run[0];
        // The levels it pushed, as a push at a time would have found them.
        for (int k = 1; k <= ran && edges > 0; ++k) {
          const auto found = static_cast<vertex_t>(host_ring[k].vertices);
          edges = found == 0 ? 0 : static_cast<offset_t>(host_ring[k].edges);
          max_degree = host_ring[k].max_degree;
          if (found > 0) level.push_back(level.back() + found);
          ++d;
        }
        if (ran > 0) continue;
      }
      GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(counts.data(), 0, sizeof(FrontierCounts)));
      cuda::frontier::advance_push(
          a.row_ptr, a.col_idx, order.data() + begin, end - begin, edges,
          Advance<false>{depth.data(), sigma.data(), successor.data(), d + 1}, order.data() + end,
          counts.data(), scratch);
      GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(host_counts.data(), counts.data(), sizeof(FrontierCounts),
                                          cudaMemcpyDeviceToHost));
      GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(nullptr));
      const auto found = static_cast<vertex_t>(host_counts[0].vertices);
      if (found == 0) break;
      edges = static_cast<offset_t>(host_counts[0].edges);
      max_degree = host_counts[0].max_degree;
      level.push_back(end + found);
      ++d;
    }
    const auto levels = static_cast<vertex_t>(level.size()) - 1;
    const Sweep sweep{order.data(), a.row_ptr,    a.col_idx,  successor.data(),
                      sigma.data(), delta.data(), sum.data(), s};
    if (levels > kLoopMinLevels) {
      GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(bounds.data(), level.data(),
                                          level.size() * sizeof(vertex_t), cudaMemcpyHostToDevice));
      Sweep p = sweep;
      const vertex_t* b = bounds.data();
      int n_levels = static_cast<int>(levels);
      void* args[] = {&p, &b, &n_levels};
      GRAPHRUN_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(backward_loop),
                                                      dim3(backward_blocks), dim3(block_size), args,
                                                      0, nullptr));
      check_launch();
    } else {
      for (vertex_t d = levels - 2; d >= 0; --d) {
        accumulate<<<warp_grid(level[d + 1] - level[d]), block_size>>>(sweep, level[d],
                                                                       level[d + 1]);
        check_launch();
      }
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
