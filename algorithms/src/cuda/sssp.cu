// Shortest paths on the GPU (sssp.hpp).
//
// Delta-stepping in the near-far form (Davidson, Baxter, Garland, Owens,
// "Work-Efficient Parallel GPU Methods for Single-Source Shortest Paths",
// IPDPS 2014): the near queue holds vertices whose distance is below the
// threshold; each step relaxes its out-edges with the frontier operator's
// edge-balanced push (graphrun/kernels/cuda/frontier.cuh) and an atomic
// minimum on the distance's bits (a double >= 0 orders as its 64-bit
// pattern), a lowered vertex going to the next near queue when it is still
// below the threshold and to the far pile otherwise. When the near queue
// runs dry the threshold moves past the far pile's lowest distance (a
// multiple of delta: empty buckets are skipped), and the far pile is split:
// entries now below the threshold go near, the rest stay, the stale ones
// (lowered and relaxed since) are dropped. A vertex enters a near queue once
// per step and the far pile once per split (stamps), so neither outgrows n.
// The host reads the step's counts (one small copy) to size the next step;
// on_iteration is called after every bucket (near queue emptied).
//
// Bellman-Ford: d <- min(d, Aᵀ ⊗ d) by the min-plus SpMV of the kernels
// (cuda::SpmvOperator over Aᵀ, its format chosen from the row statistics),
// then an elementwise minimum that counts the changes, until none changes.
#include <cuda_runtime.h>
#include <math_constants.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "../iteration_report.hpp"
#include "cuda_backend.hpp"
#include "device_util.cuh"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/kernels/cuda/frontier.cuh"
#include "graphrun/kernels/cuda/frontier.hpp"
#include "graphrun/kernels/cuda/spmv.hpp"
#include "graphrun/kernels/frontier.hpp"

namespace graphrun::detail {

namespace {

using bits_t = unsigned long long;
constexpr int block_size = 256;

__device__ double as_double(bits_t b) { return __longlong_as_double(static_cast<long long>(b)); }
__device__ bits_t as_bits(double d) { return static_cast<bits_t>(__double_as_longlong(d)); }

// The far pile and the stamps that keep its entries and the near queue's
// unique, with the smallest position of a negative weight met.
struct NearFar {
  bits_t* dist;
  const double* weight;  // nullptr: every weight 1
  double threshold;
  int* near_stamp;
  int step;
  int* far_stamp;
  int split;
  vertex_t* far;
  unsigned long long* far_count;
  offset_t* negative;

  // The push's apply: relaxes u -> v (position k); true puts v in the next
  // near queue.
  __device__ bool operator()(vertex_t u, vertex_t v, offset_t k) const {
    const double w = weight ? weight[k] : 1.0;
    if (!(w >= 0)) {
      atomicMin(reinterpret_cast<unsigned long long*>(negative),
                static_cast<unsigned long long>(k));
      return false;
    }
    const double nd = as_double(dist[u]) + w;
    const bits_t b = as_bits(nd);
    if (b >= dist[v] || b >= atomicMin(dist + v, b)) return false;
    if (nd < threshold) return atomicExch(near_stamp + v, step) != step;
    if (atomicExch(far_stamp + v, split) != split) far[atomicAdd(far_count, 1ULL)] = v;
    return false;
  }
};

__global__ void fill_infinity(bits_t* dist, vertex_t n, vertex_t source) {
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x)
    dist[v] = v == source ? 0ULL : 0x7ff0000000000000ULL;
}

// The lowest distance at or above `floor` among the far pile's entries.
__global__ void far_minimum(const vertex_t* far, unsigned long long count, const bits_t* dist,
                            double floor, bits_t* lowest) {
  for (unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x; i < count;
       i += static_cast<unsigned long long>(gridDim.x) * blockDim.x) {
    const bits_t d = dist[far[i]];
    if (as_double(d) >= floor) atomicMin(lowest, d);
  }
}

// Splits the far pile at the new threshold: [floor, threshold) to the near
// queue, [threshold, ∞) to the new pile (stamped `split`), below floor
// dropped (stale).
// The near queue's size and out-edges (for the next push) are counted in
// `counts`.
__global__ void split_far(const vertex_t* far, unsigned long long count, const bits_t* dist,
                          const offset_t* row_ptr, double floor, double threshold, vertex_t* near,
                          FrontierCounts* counts, int* near_stamp, int step, vertex_t* kept,
                          unsigned long long* kept_count, int* far_stamp, int split) {
  for (unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x; i < count;
       i += static_cast<unsigned long long>(gridDim.x) * blockDim.x) {
    const vertex_t v = far[i];
    const double d = as_double(dist[v]);
    if (d < floor) continue;
    if (d < threshold) {
      if (atomicExch(near_stamp + v, step) != step) {
        near[atomicAdd(&counts->vertices, 1ULL)] = v;
        atomicAdd(&counts->edges, static_cast<unsigned long long>(row_ptr[v + 1] - row_ptr[v]));
      }
    } else if (atomicExch(far_stamp + v, split) != split) {
      kept[atomicAdd(kept_count, 1ULL)] = v;
    }
  }
}

SsspDistances near_far(const Graph& g, vertex_t source, const SsspSetup& setup) {
  const vertex_t n = g.n_vertices();
  const DeviceCsr<double> d_a = adjacency_on_device(g, !g.is_pattern());
  const CsrView<double> a = d_a.view();
  const auto size = static_cast<std::size_t>(n);
  DeviceArray<bits_t> dist(size);
  DeviceArray<vertex_t> near(size), next(size), far(size), kept(size);
  DeviceArray<int> near_stamp(size), far_stamp(size);
  DeviceArray<offset_t> negative(1);
  DeviceArray<unsigned long long> far_count(1), kept_count(1);
  DeviceArray<FrontierCounts> counts(1);
  DeviceArray<bits_t> lowest(1);
  cuda::PushScratch scratch(n);
  Pinned<FrontierCounts> host_counts(1);
  Pinned<unsigned long long> host_far(1);
  Pinned<bits_t> host_lowest(1);
  GRAPHRUN_CUDA_CHECK(cudaMemset(near_stamp.data(), 0xff, size * sizeof(int)));  // -1: never
  GRAPHRUN_CUDA_CHECK(cudaMemset(far_stamp.data(), 0xff, size * sizeof(int)));
  GRAPHRUN_CUDA_CHECK(
      cudaMemset(negative.data(), 0xff, sizeof(offset_t)));  // read as unsigned: none
  GRAPHRUN_CUDA_CHECK(cudaMemset(far_count.data(), 0, sizeof(unsigned long long)));
  GRAPHRUN_CUDA_CHECK(cudaMemcpy(near.data(), &source, sizeof(vertex_t), cudaMemcpyHostToDevice));
  GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());
  const Stopwatch t;
  fill_infinity<<<grid_for(n, block_size), block_size>>>(dist.data(), n, source);
  check_launch();

  const double delta = setup.delta;
  const IterationReport report(setup.options.on_iteration, nullptr, t);
  SsspDistances r;
  double floor = 0, threshold = delta;
  vertex_t nq = 1;
  offset_t total = g.adj().row_length(source);  // the near queue's out-edges
  int step = 0, split = 0, buckets = 0;
  for (;;) {
    // Steps until the near queue is empty.
    while (nq > 0) {
      ++step;
      r.relaxations += total;
      GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(counts.data(), 0, sizeof(FrontierCounts)));
      if (total > 0)
        cuda::frontier::advance_push(
            a.row_ptr, a.col_idx, near.data(), nq, total,
            NearFar{dist.data(), a.values, threshold, near_stamp.data(), step, far_stamp.data(),
                    split, far.data(), far_count.data(), negative.data()},
            next.data(), counts.data(), scratch);
      GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(host_counts.data(), counts.data(), sizeof(FrontierCounts),
                                          cudaMemcpyDeviceToHost));
      GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(nullptr));
      nq = static_cast<vertex_t>(host_counts[0].vertices);
      total = static_cast<offset_t>(host_counts[0].edges);
      std::swap(near, next);
    }
    ++buckets;
    GRAPHRUN_CUDA_CHECK(cudaMemcpy(host_far.data(), far_count.data(), sizeof(unsigned long long),
                                   cudaMemcpyDeviceToHost));
    const unsigned long long piled = host_far[0];
    if (!report.level_done({.iteration = buckets, .frontier = static_cast<offset_t>(piled)}) &&
        piled > 0) {
      r.complete = false;
      break;
    }
    if (piled == 0) break;
    // The next threshold: past the lowest live distance of the pile, on
    // delta's grid.
    const bits_t none = ~0ULL;
    GRAPHRUN_CUDA_CHECK(cudaMemcpy(lowest.data(), &none, sizeof none, cudaMemcpyHostToDevice));
    far_minimum<<<grid_for(static_cast<long long>(piled), block_size), block_size>>>(
        far.data(), piled, dist.data(), threshold, lowest.data());
    check_launch();
    GRAPHRUN_CUDA_CHECK(
        cudaMemcpy(host_lowest.data(), lowest.data(), sizeof(bits_t), cudaMemcpyDeviceToHost));
    if (host_lowest[0] == none) break;  // every entry stale
    double low;
    std::memcpy(&low, host_lowest.data(), sizeof low);
    floor = threshold;
    threshold = std::max(threshold + delta, (std::floor(low / delta) + 1) * delta);
    if (!(threshold > low))
      threshold = std::nextafter(low, std::numeric_limits<double>::infinity());
    ++step;
    ++split;
    GRAPHRUN_CUDA_CHECK(cudaMemset(counts.data(), 0, sizeof(FrontierCounts)));
    GRAPHRUN_CUDA_CHECK(cudaMemset(kept_count.data(), 0, sizeof(unsigned long long)));
    split_far<<<grid_for(static_cast<long long>(piled), block_size), block_size>>>(
        far.data(), piled, dist.data(), a.row_ptr, floor, threshold, near.data(), counts.data(),
        near_stamp.data(), step, kept.data(), kept_count.data(), far_stamp.data(), split);
    check_launch();
    std::swap(far, kept);
    std::swap(far_count, kept_count);
    GRAPHRUN_CUDA_CHECK(cudaMemcpy(host_counts.data(), counts.data(), sizeof(FrontierCounts),
                                   cudaMemcpyDeviceToHost));
    nq = static_cast<vertex_t>(host_counts[0].vertices);
    total = static_cast<offset_t>(host_counts[0].edges);
  }
  GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());
  r.compute_seconds = t.seconds();
  r.iterations = buckets;
  offset_t neg = 0;
  GRAPHRUN_CUDA_CHECK(cudaMemcpy(&neg, negative.data(), sizeof neg, cudaMemcpyDeviceToHost));
  r.negative_edge = neg;  // all ones (-1) when none was met
  const std::vector<bits_t> bits = dist.download();
  r.distance.resize(size);
  std::memcpy(r.distance.data(), bits.data(), size * sizeof(double));
  return r;
}

__global__ void find_negative(const double* weight, offset_t m, offset_t* first) {
  for (offset_t k = blockIdx.x * blockDim.x + threadIdx.x; k < m;
       k += static_cast<offset_t>(gridDim.x) * blockDim.x)
    if (!(weight[k] >= 0))
      atomicMin(reinterpret_cast<unsigned long long*>(first), static_cast<unsigned long long>(k));
}

__global__ void fill_distances(double* dist, vertex_t n, vertex_t source) {
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x)
    dist[v] = v == source ? 0.0 : CUDART_INF;
}

// d = min(d, y), counting the vertices lowered (one atomic per block).
__global__ void take_minimum(double* dist, const double* relaxed, vertex_t n,
                             unsigned long long* changed) {
  unsigned long long mine = 0;
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x)
    if (relaxed[v] < dist[v]) {
      dist[v] = relaxed[v];
      ++mine;
    }
  cuda::frontier::add_block(mine, changed);
}

SsspDistances bellman_ford(const Graph& g, vertex_t source, const SsspOptions& options) {
  const vertex_t n = g.n_vertices();
  const auto size = static_cast<std::size_t>(n);
  const DeviceCsr<double> d_a = adjacency_on_device(g, !g.is_pattern());
  SsspDistances r;
  GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());
  const Stopwatch t;
  const IterationReport report(options.on_iteration, nullptr, t);
  DeviceArray<offset_t> negative(1);
  GRAPHRUN_CUDA_CHECK(cudaMemset(negative.data(), 0xff, sizeof(offset_t)));
  if (d_a.values().size() > 0) {
    find_negative<<<grid_for(d_a.nnz(), block_size), block_size>>>(d_a.values().data(), d_a.nnz(),
                                                                   negative.data());
    check_launch();
  }
  GRAPHRUN_CUDA_CHECK(
      cudaMemcpy(&r.negative_edge, negative.data(), sizeof(offset_t), cudaMemcpyDeviceToHost));
  if (r.negative_edge >= 0) return r;
  // The rows of Aᵀ are the in-edges; an undirected graph's A is its own.
  std::optional<DeviceCsr<double>> d_at;
  if (g.directed()) d_at.emplace(device_transpose(d_a));
  const cuda::SpmvOperator<double> op(d_at ? *d_at : d_a, SpmvFormat::automatic);
  DeviceArray<double> dist(size), relaxed(size);
  DeviceArray<unsigned long long> changed(1);
  Pinned<unsigned long long> host_changed(1);
  const unsigned grid = grid_for(n, block_size);
  fill_distances<<<grid, block_size>>>(dist.data(), n, source);
  check_launch();
  for (;;) {
    op.apply<MinPlus<double>>(dist.data(), relaxed.data());
    GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(changed.data(), 0, sizeof(unsigned long long)));
    take_minimum<<<grid, block_size>>>(dist.data(), relaxed.data(), n, changed.data());
    check_launch();
    GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(host_changed.data(), changed.data(),
                                        sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(nullptr));
    ++r.iterations;
    r.relaxations += d_a.nnz();
    const auto lowered = static_cast<offset_t>(host_changed[0]);
    if (!report.level_done({.iteration = r.iterations, .frontier = lowered}) && lowered > 0) {
      r.complete = false;
      break;
    }
    if (lowered == 0) break;
  }
  GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());
  r.compute_seconds = t.seconds();
  r.distance = dist.download();
  return r;
}

}  // namespace

SsspDistances CudaSteps::sssp(Context& ctx, const Graph& g, vertex_t source,
                              const SsspSetup& setup) {
  use_device(ctx, "sssp");
  if (setup.options.method == SsspMethod::bellman_ford)
    return bellman_ford(g, source, setup.options);
  return near_far(g, source, setup);
}

}  // namespace graphrun::detail
