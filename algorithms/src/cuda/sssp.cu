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
// Thin steps stay on the device. A road network or a mesh is thousands of
// buckets deep, each a few steps on a near queue of a few hundred vertices,
// where a launch sequence and a read-back per step (~30 µs) is all the time.
// So, as BFS and betweenness do, one persistent cooperative kernel
// (near_far_loop) runs step after step, and the bucket splits between them,
// with grid-wide barriers in between, while the near queue has at most one
// vertex per thread of its grid and none of more than kLoopMaxDegree edges;
// a fat queue goes back to the host's whole-GPU edge-balanced push, and the
// loop resumes when the queue thins again. The loop takes the same steps
// with the same stamps and thresholds (next_threshold, on both sides), so the
// buckets and the distances are the host's. A callback that must see every
// bucket as it ends keeps the search on the host.
//
// Bellman-Ford: d <- min(d, Aᵀ ⊗ d) by the min-plus SpMV of the kernels
// (cuda::SpmvOperator over Aᵀ, its format chosen from the row statistics),
// then an elementwise minimum that counts the changes, until none changes.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <math_constants.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
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

namespace cg = cooperative_groups;

using bits_t = unsigned long long;
constexpr int block_size = cuda::frontier::kBlock;
// The device-side loop leaves to the host a near queue with a vertex of more
// edges than this (one block would expand it alone).
constexpr unsigned long long kLoopMaxDegree = 4096;
constexpr bits_t kNoDistance = ~0ULL;  // the minimum of an empty set

__device__ double as_double(bits_t b) { return __longlong_as_double(static_cast<long long>(b)); }
__device__ bits_t as_bits(double d) { return static_cast<bits_t>(__double_as_longlong(d)); }

// The threshold after the one whose bucket just emptied, `low` being the
// far pile's lowest live distance: past it, on delta's grid (empty buckets
// skipped), or just past `low` where delta is below its spacing. The host
// and the device-side loop call the same function, so they step alike.
__host__ __device__ inline double next_threshold(double threshold, double low, double delta) {
  const double t = fmax(threshold + delta, (floor(low / delta) + 1) * delta);
  return t > low ? t : nextafter(low, HUGE_VAL);
}

// The far pile and the stamps that keep its entries and the near queue's
// unique, with the smallest position of a negative weight met. Coherent:
// u's distance is read past the L1 (the device-side loop, where another
// block may have lowered it since the launch).
template <bool Coherent>
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
    const double nd = as_double(Coherent ? __ldcg(dist + u) : dist[u]) + w;
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

// The lowest distance at or above `floor` among the far pile's entries: a
// warp's minimum, then one atomic per warp.
__device__ void far_minimum_part(const vertex_t* far, unsigned long long count, const bits_t* dist,
                                 double floor, bits_t* lowest) {
  bits_t mine = kNoDistance;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
    const bits_t d = dist[far[i]];
    if (as_double(d) >= floor) mine = min(mine, d);
  }
  for (int offset = 16; offset > 0; offset /= 2)
    mine = min(mine, __shfl_xor_sync(0xffffffffu, mine, offset));
  if (threadIdx.x % 32 == 0 && mine != kNoDistance) atomicMin(lowest, mine);
}

__global__ void far_minimum(const vertex_t* far, unsigned long long count, const bits_t* dist,
                            double floor, bits_t* lowest) {
  far_minimum_part(far, count, dist, floor, lowest);
}

// Splits the far pile at the new threshold: [floor, threshold) to the near
// queue, [threshold, ∞) to the new pile (stamped `split`), below floor
// dropped (stale). The near queue's size, out-edges and largest out-degree
// (for the next push) are counted in `counts`.
struct Split {
  const bits_t* dist;
  const offset_t* row_ptr;
  double floor;
  double threshold;
  vertex_t* near;
  FrontierCounts* counts;
  int* near_stamp;
  int step;
  vertex_t* kept;
  unsigned long long* kept_count;
  int* far_stamp;
  int split;
};

__device__ void split_part(const vertex_t* far, unsigned long long count, const Split& p) {
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
    const vertex_t v = far[i];
    const double d = as_double(p.dist[v]);
    if (d < p.floor) continue;
    if (d < p.threshold) {
      if (atomicExch(p.near_stamp + v, p.step) != p.step) {
        p.near[atomicAdd(&p.counts->vertices, 1ULL)] = v;
        const auto degree = static_cast<unsigned long long>(p.row_ptr[v + 1] - p.row_ptr[v]);
        atomicAdd(&p.counts->edges, degree);
        atomicMax(&p.counts->max_degree, degree);
      }
    } else if (atomicExch(p.far_stamp + v, p.split) != p.split) {
      p.kept[atomicAdd(p.kept_count, 1ULL)] = v;
    }
  }
}

__global__ void split_far(const vertex_t* far, unsigned long long count, Split p) {
  split_part(far, count, p);
}

// Where a search stands between the host's steps and the device-side loop:
// the loop starts from it and writes back where it stopped.
struct SearchState {
  double floor = 0;
  double threshold = 0;
  int step = 0;
  int split = 0;
  int buckets = 0;
  int q = 0;         // queue[q] is the near queue
  int f = 0;         // pile[f] is the far pile, pile_count[f] its size
  int c = 0;         // loop: ring[c] counts the near queue
  int finished = 0;  // loop: the search is over
  unsigned long long relaxations = 0;
};

struct NearFarLoop {
  const offset_t* row_ptr;
  const vertex_t* col_idx;
  const double* weight;
  bits_t* dist;
  int* near_stamp;
  int* far_stamp;
  offset_t* negative;
  vertex_t* queue[2];
  vertex_t* pile[2];
  unsigned long long* pile_count;  // [2]
  FrontierCounts* ring;            // [3]: the near queue's counts, the next's, one cleared ahead
  bits_t* lowest;                  // [2]: this bucket's far minimum, the next's (cleared ahead)
  double delta;
  offset_t max_frontier;
  SearchState* state;
};

// Steps and bucket splits, as the host's loop below takes them, a grid-wide
// barrier after each, until the search ends or the near queue is too fat
// for the loop (see the top of the file). Every thread keeps the state in
// registers and takes the same branches: each decision reads counters that
// nobody writes between the barriers around it. A cooperative launch.
__global__ void __launch_bounds__(block_size) near_far_loop(NearFarLoop p) {
  const cg::grid_group grid = cg::this_grid();
  const bool lead = blockIdx.x == 0 && threadIdx.x == 0;
  SearchState s = *p.state;
  for (;;) {
    const FrontierCounts* now = p.ring + s.c;
    const auto nq = static_cast<offset_t>(__ldcg(&now->vertices));
    const auto edges = __ldcg(&now->edges);
    FrontierCounts* next = p.ring + (s.c + 1) % 3;
    if (nq > 0) {
      if (nq > p.max_frontier || __ldcg(&now->max_degree) > kLoopMaxDegree) break;
      // ring[c + 2] was last read at the top of the step before: clear it
      // for the step after.
      if (lead) p.ring[(s.c + 2) % 3] = FrontierCounts{};
      ++s.step;
      s.relaxations += edges;
      if (edges > 0) {
        cuda::frontier::Tally t;
        cuda::frontier::push_chunks(
            nq, p.queue[s.q], p.row_ptr, p.col_idx,
            NearFar<true>{p.dist, p.weight, s.threshold, p.near_stamp, s.step, p.far_stamp, s.split,
                          p.pile[s.f], p.pile_count + s.f, p.negative},
            cuda::frontier::Next{p.row_ptr, p.queue[1 - s.q], next}, t);
        cuda::frontier::add_block(t.edges, &next->edges);
        cuda::frontier::max_block(t.max_degree, &next->max_degree);
      }
    } else {
      // The bucket is done: the next threshold from the far pile's lowest
      // live distance, then the split.
      ++s.buckets;
      const unsigned long long piled = __ldcg(p.pile_count + s.f);
      if (piled == 0) {
        s.finished = 1;
        break;
      }
      if (lead) {
        p.ring[(s.c + 2) % 3] = FrontierCounts{};
        p.lowest[(s.buckets + 1) % 2] = kNoDistance;
        p.pile_count[1 - s.f] = 0;
      }
      bits_t* lowest = p.lowest + s.buckets % 2;
      far_minimum_part(p.pile[s.f], piled, p.dist, s.threshold, lowest);
      grid.sync();
      const bits_t low = __ldcg(lowest);
      if (low == kNoDistance) {  // every entry stale
        s.finished = 1;
        break;
      }
      s.floor = s.threshold;
      s.threshold = next_threshold(s.threshold, as_double(low), p.delta);
      ++s.step;
      ++s.split;
      split_part(
          p.pile[s.f], piled,
          Split{p.dist, p.row_ptr, s.floor, s.threshold, p.queue[1 - s.q], next, p.near_stamp,
                s.step, p.pile[1 - s.f], p.pile_count + (1 - s.f), p.far_stamp, s.split});
      s.f = 1 - s.f;
    }
    s.q = 1 - s.q;
    s.c = (s.c + 1) % 3;
    grid.sync();
  }
  if (lead) *p.state = s;
}

SsspDistances near_far(const Graph& g, vertex_t source, const SsspSetup& setup) {
  const vertex_t n = g.n_vertices();
  const AdjacencyOnDevice on_device(g, !g.is_pattern());
  const DeviceCsr<double>& d_a = on_device.csr();
  const CsrView<double> a = d_a.view();
  const auto size = static_cast<std::size_t>(n);
  DeviceArray<bits_t> dist(size);
  // The near queue and the next (queue[q] the near one), the far pile and
  // the one a split keeps (pile[f] the far one).
  DeviceArray<vertex_t> queue[2] = {DeviceArray<vertex_t>(size), DeviceArray<vertex_t>(size)};
  DeviceArray<vertex_t> pile[2] = {DeviceArray<vertex_t>(size), DeviceArray<vertex_t>(size)};
  DeviceArray<unsigned long long> pile_count(2);
  DeviceArray<int> near_stamp(size), far_stamp(size);
  DeviceArray<offset_t> negative(1);
  DeviceArray<FrontierCounts> counts(1), ring(3);
  DeviceArray<bits_t> lowest(2);
  DeviceArray<SearchState> loop_state(1);
  cuda::PushScratch scratch(n);
  Pinned<FrontierCounts> host_counts(1);
  Pinned<unsigned long long> host_far(1);
  Pinned<bits_t> host_lowest(1);
  Pinned<SearchState> host_state(1);
  GRAPHRUN_CUDA_CHECK(cudaMemset(near_stamp.data(), 0xff, size * sizeof(int)));  // -1: never
  GRAPHRUN_CUDA_CHECK(cudaMemset(far_stamp.data(), 0xff, size * sizeof(int)));
  GRAPHRUN_CUDA_CHECK(
      cudaMemset(negative.data(), 0xff, sizeof(offset_t)));  // read as unsigned: none
  GRAPHRUN_CUDA_CHECK(cudaMemset(pile_count.data(), 0, 2 * sizeof(unsigned long long)));
  GRAPHRUN_CUDA_CHECK(
      cudaMemcpy(queue[0].data(), &source, sizeof(vertex_t), cudaMemcpyHostToDevice));
  // The device-side loop, where no callback must see each bucket as it ends.
  const bool device_loop = !setup.options.on_iteration;
  const unsigned loop_blocks =
      device_loop
          ? cooperative_blocks(reinterpret_cast<const void*>(near_far_loop), block_size, "sssp")
          : 0;
  const offset_t max_frontier = offset_t{loop_blocks} * block_size;
  GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());
  const Stopwatch t;
  fill_infinity<<<grid_for(n, block_size), block_size>>>(dist.data(), n, source);
  check_launch();

  const double delta = setup.delta;
  const IterationReport report(setup.options.on_iteration, nullptr, t);
  SsspDistances r;
  SearchState st;
  st.threshold = delta;
  vertex_t nq = 1;
  offset_t total = g.adj().row_length(source);  // the near queue's out-edges
  auto max_degree = static_cast<unsigned long long>(total);
  // The counts of a step or a split, read back: the next near queue's.
  const auto take_counts = [&](const FrontierCounts& c) {
    nq = static_cast<vertex_t>(c.vertices);
    total = static_cast<offset_t>(c.edges);
    max_degree = c.max_degree;
  };
  for (;;) {
    if (device_loop && nq <= max_frontier && max_degree <= kLoopMaxDegree) {
      // Steps and splits on the device until the search ends or the near
      // queue is too fat for the loop.
      host_counts[0] = FrontierCounts{};
      host_counts[0].vertices = static_cast<unsigned long long>(nq);
      host_counts[0].edges = static_cast<unsigned long long>(total);
      host_counts[0].max_degree = max_degree;
      host_state[0] = st;
      host_state[0].c = 0;
      host_state[0].finished = 0;
      host_state[0].relaxations = 0;
      GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(ring.data(), 0, 3 * sizeof(FrontierCounts)));
      GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(ring.data(), host_counts.data(), sizeof(FrontierCounts),
                                          cudaMemcpyHostToDevice));
      GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(lowest.data(), 0xff, 2 * sizeof(bits_t)));
      GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(loop_state.data(), host_state.data(), sizeof(SearchState),
                                          cudaMemcpyHostToDevice));
      NearFarLoop p{a.row_ptr,
                    a.col_idx,
                    a.values,
                    dist.data(),
                    near_stamp.data(),
                    far_stamp.data(),
                    negative.data(),
                    {queue[0].data(), queue[1].data()},
                    {pile[0].data(), pile[1].data()},
                    pile_count.data(),
                    ring.data(),
                    lowest.data(),
                    delta,
                    max_frontier,
                    loop_state.data()};
      void* args[] = {&p};
      GRAPHRUN_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(near_far_loop),
                                                      dim3(loop_blocks), dim3(block_size), args, 0,
                                                      nullptr));
      check_launch();
      GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(host_state.data(), loop_state.data(), sizeof(SearchState),
                                          cudaMemcpyDeviceToHost));
      GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(nullptr));
      const SearchState& out = host_state[0];
      r.relaxations += static_cast<offset_t>(out.relaxations);
      st = out;
      if (out.finished) break;
      GRAPHRUN_CUDA_CHECK(cudaMemcpy(host_counts.data(), ring.data() + out.c,
                                     sizeof(FrontierCounts), cudaMemcpyDeviceToHost));
      take_counts(host_counts[0]);
      // The loop stopped at a fat near queue: one step on the host.
    }
    if (nq > 0) {
      // A step: relax the near queue's out-edges.
      ++st.step;
      r.relaxations += total;
      GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(counts.data(), 0, sizeof(FrontierCounts)));
      if (total > 0)
        cuda::frontier::advance_push(
            a.row_ptr, a.col_idx, queue[st.q].data(), nq, total,
            NearFar<false>{dist.data(), a.values, st.threshold, near_stamp.data(), st.step,
                           far_stamp.data(), st.split, pile[st.f].data(), pile_count.data() + st.f,
                           negative.data()},
            queue[1 - st.q].data(), counts.data(), scratch);
      GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(host_counts.data(), counts.data(), sizeof(FrontierCounts),
                                          cudaMemcpyDeviceToHost));
      GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(nullptr));
      take_counts(host_counts[0]);
      st.q = 1 - st.q;
      continue;
    }
    // The near queue ran dry: the bucket is done.
    ++st.buckets;
    GRAPHRUN_CUDA_CHECK(cudaMemcpy(host_far.data(), pile_count.data() + st.f,
                                   sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    const unsigned long long piled = host_far[0];
    if (!report.level_done({.iteration = st.buckets, .frontier = static_cast<offset_t>(piled)}) &&
        piled > 0) {
      r.complete = false;
      break;
    }
    if (piled == 0) break;
    // The next threshold: past the lowest live distance of the pile, on
    // delta's grid.
    GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(lowest.data(), 0xff, sizeof(bits_t)));
    far_minimum<<<grid_for(static_cast<long long>(piled), block_size), block_size>>>(
        pile[st.f].data(), piled, dist.data(), st.threshold, lowest.data());
    check_launch();
    GRAPHRUN_CUDA_CHECK(
        cudaMemcpy(host_lowest.data(), lowest.data(), sizeof(bits_t), cudaMemcpyDeviceToHost));
    if (host_lowest[0] == kNoDistance) break;  // every entry stale
    double low;
    std::memcpy(&low, host_lowest.data(), sizeof low);
    st.floor = st.threshold;
    st.threshold = next_threshold(st.threshold, low, delta);
    ++st.step;
    ++st.split;
    GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(counts.data(), 0, sizeof(FrontierCounts)));
    GRAPHRUN_CUDA_CHECK(
        cudaMemsetAsync(pile_count.data() + (1 - st.f), 0, sizeof(unsigned long long)));
    split_far<<<grid_for(static_cast<long long>(piled), block_size), block_size>>>(
        pile[st.f].data(), piled,
        Split{dist.data(), a.row_ptr, st.floor, st.threshold, queue[1 - st.q].data(), counts.data(),
              near_stamp.data(), st.step, pile[1 - st.f].data(), pile_count.data() + (1 - st.f),
              far_stamp.data(), st.split});
    check_launch();
    st.f = 1 - st.f;
    st.q = 1 - st.q;
    GRAPHRUN_CUDA_CHECK(cudaMemcpy(host_counts.data(), counts.data(), sizeof(FrontierCounts),
                                   cudaMemcpyDeviceToHost));
    take_counts(host_counts[0]);
  }
  GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());
  r.compute_seconds = t.seconds();
  r.iterations = st.buckets;
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
  const AdjacencyOnDevice on_device(g, !g.is_pattern());
  const DeviceCsr<double>& d_a = on_device.csr();
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
