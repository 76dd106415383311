// Connected components on the GPU (components.hpp).
//
// Weak: Afforest's steps (cpu/components_weak.cpp) over a lock-free
// union-find in device memory, after ECL-CC (Jaiganesh and Burtscher,
// "A High-Performance Connected Components Implementation for GPUs",
// HPDC 2018): find() halves the path as it climbs, link() hooks the larger
// root under the smaller with atomicCAS, so comp[v] <= v always and a root
// is the smallest vertex of its tree. The rows left after sampling go to a
// thread each when short, and are queued for a warp (up to 1024 entries) or
// a block (longer) each, so a hub does not hold one thread for a million
// edges.
//
// Strong: trimming and colouring (Orzan, "On distributed verification and
// verified distribution", 2004; the GPU form of Barnat et al., and of Hong
// et al.'s "Multistep", SC'13, without its BFS phase), each step one
// data-parallel sweep over the out-edges of the vertices not yet assigned:
//   trim:    a vertex with no unassigned in- or out-neighbour (itself
//            excluded) is a component of its own; repeated until none is;
//   colour:  every unassigned vertex starts with a colour, a bijective hash
//            of its id, and the largest colour is pushed along out-edges
//            until nothing changes: a vertex's colour is then the largest
//            colour among the vertices that reach it;
//   reach:   the root of a colour (the vertex whose hash it is) and every
//            vertex of that colour that reaches it along vertices of that
//            colour make one strong component: pulled along out-edges
//            until nothing changes.
// Every round assigns at least one component per colour. Colours are 64-bit
// (hash + 1), so 0 marks an assigned vertex that no sweep may match. The
// host reads one flag per sweep; on_iteration sees each round.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "../afforest_sample.hpp"
#include "cuda_backend.hpp"
#include "device_util.cuh"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/stopwatch.hpp"

namespace graphrun::detail {

namespace {

constexpr int block_size = 256;
constexpr int sample_rounds = 2;     // as the CPU's Afforest
constexpr offset_t thread_row = 32;  // longest remaining row a thread takes alone
constexpr offset_t warp_row = 1024;  // longest a warp takes; longer rows get a block

// ---- The union-find forest ------------------------------------------------

// The root of v's tree, halving the path on the way (each vertex passed is
// pointed at its grandparent). Races with other halvings and links are
// benign: every value written is an ancestor, and comp[x] <= x holds.
__device__ vertex_t find_root(vertex_t* comp, vertex_t v) {
  vertex_t curr = comp[v];
  if (curr != v) {
    vertex_t prev = v, next;
    while (curr > (next = comp[curr])) {
      comp[prev] = next;
      prev = curr;
      curr = next;
    }
  }
  return curr;
}

// Joins the trees of u and v: the larger root is hooked under the smaller
// by atomicCAS; where another link moved it first, climb on from what the
// CAS found.
__device__ void link(vertex_t* comp, vertex_t u, vertex_t v) {
  vertex_t ru = find_root(comp, u), rv = find_root(comp, v);
  while (ru != rv) {
    const vertex_t high = ru > rv ? ru : rv, low = ru > rv ? rv : ru;
    const vertex_t seen = atomicCAS(comp + high, high, low);
    if (seen == high) return;
    ru = seen;  // high was hooked meanwhile: go on from its parent
    rv = low;
  }
}

__global__ void identity(vertex_t* comp, vertex_t n) {
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x)
    comp[v] = v;
}

__global__ void link_sample(CsrView<double> a, vertex_t* comp, int r) {
  for (vertex_t u = blockIdx.x * blockDim.x + threadIdx.x; u < a.n_rows;
       u += gridDim.x * blockDim.x) {
    const offset_t k = a.row_ptr[u] + r;
    if (k < a.row_ptr[u + 1]) link(comp, u, a.col_idx[k]);
  }
}

__global__ void compress(vertex_t* comp, vertex_t n) {
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
    vertex_t c = comp[v];
    while (c != comp[c]) c = comp[c];
    comp[v] = c;
  }
}

__global__ void gather(const vertex_t* comp, const vertex_t* at, vertex_t* out, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = comp[at[i]];
}

// Links the rows' entries from `sample_rounds` on, for every vertex not in
// `skip`'s tree (-1: none skipped); short rows here, the others queued by
// length for link_rows_cooperatively.
__global__ void link_short_rows(CsrView<double> a, vertex_t* comp, vertex_t skip,
                                vertex_t* warp_queue, vertex_t* block_queue,
                                unsigned long long* queued) {
  for (vertex_t u = blockIdx.x * blockDim.x + threadIdx.x; u < a.n_rows;
       u += gridDim.x * blockDim.x) {
    if (comp[u] == skip) continue;
    const offset_t begin = a.row_ptr[u] + sample_rounds, end = a.row_ptr[u + 1];
    if (end - begin > warp_row)
      block_queue[atomicAdd(queued + 1, 1ULL)] = u;
    else if (end - begin > thread_row)
      warp_queue[atomicAdd(queued, 1ULL)] = u;
    else
      for (offset_t k = begin; k < end; ++k) link(comp, u, a.col_idx[k]);
  }
}

// One queued row per group of `group` threads (a warp or a block).
__global__ void link_rows_cooperatively(CsrView<double> a, vertex_t* comp, const vertex_t* queue,
                                        unsigned long long count, int group) {
  const unsigned long long groups =
      (static_cast<unsigned long long>(gridDim.x) * blockDim.x) / static_cast<unsigned>(group);
  const unsigned long long first =
      (static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x) / group;
  const int lane = static_cast<int>(threadIdx.x % static_cast<unsigned>(group));
  for (unsigned long long q = first; q < count; q += groups) {
    const vertex_t u = queue[q];
    const offset_t end = a.row_ptr[u + 1];
    for (offset_t k = a.row_ptr[u] + sample_rounds + lane; k < end; k += group)
      link(comp, u, a.col_idx[k]);
  }
}

// The root most of a fixed sample of vertices have (afforest_sample.hpp), read back
// to the host: the tree whose own rows step 3 skips.
vertex_t most_frequent_root(const DeviceArray<vertex_t>& comp, vertex_t n) {
  const std::vector<vertex_t> at = afforest_sample(n);
  const DeviceArray<vertex_t> d_at{std::span<const vertex_t>(at)};
  DeviceArray<vertex_t> d_roots(at.size());
  gather<<<(afforest_sample_size + block_size - 1) / block_size, block_size>>>(
      comp.data(), d_at.data(), d_roots.data(), afforest_sample_size);
  check_launch();
  return most_frequent(d_roots.download());
}

std::vector<vertex_t> weak_components(const Graph& g, double& compute_seconds) {
  const vertex_t n = g.n_vertices();
  const AdjacencyOnDevice on_device(g, false);
  const DeviceCsr<double>& d_a = on_device.csr();
  const CsrView<double> a = d_a.view();
  DeviceArray<vertex_t> comp(static_cast<std::size_t>(n));
  GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());
  const Stopwatch t;
  const unsigned grid = grid_for(n, block_size);
  identity<<<grid, block_size>>>(comp.data(), n);
  check_launch();
  for (int r = 0; r < sample_rounds; ++r) {
    link_sample<<<grid, block_size>>>(a, comp.data(), r);
    compress<<<grid, block_size>>>(comp.data(), n);
    check_launch();
  }
  // A directed graph's rows hold each edge once, at its tail: none may be
  // skipped (cpu/components_weak.cpp says why).
  const vertex_t skip = g.directed() ? -1 : most_frequent_root(comp, n);

  DeviceArray<vertex_t> warp_queue(static_cast<std::size_t>(n)),
      block_queue(static_cast<std::size_t>(n));
  DeviceArray<unsigned long long> queued(2);
  GRAPHRUN_CUDA_CHECK(cudaMemset(queued.data(), 0, 2 * sizeof(unsigned long long)));
  link_short_rows<<<grid, block_size>>>(a, comp.data(), skip, warp_queue.data(), block_queue.data(),
                                        queued.data());
  check_launch();
  const std::vector<unsigned long long> counts = queued.download();
  if (counts[0] > 0) {
    link_rows_cooperatively<<<grid_for(static_cast<long long>(counts[0]) * 32, block_size),
                              block_size>>>(a, comp.data(), warp_queue.data(), counts[0], 32);
    check_launch();
  }
  if (counts[1] > 0) {
    const auto blocks = static_cast<unsigned>(
        std::min<unsigned long long>(counts[1], static_cast<unsigned long long>(grid)));
    link_rows_cooperatively<<<blocks, block_size>>>(a, comp.data(), block_queue.data(), counts[1],
                                                    block_size);
    check_launch();
  }
  compress<<<grid, block_size>>>(comp.data(), n);
  check_launch();
  GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());
  compute_seconds = t.seconds();
  return comp.download();
}

// ---- Strong components ----------------------------------------------------

// A bijection of 32-bit words that scatters neighbouring ids (Wellons's
// lowbias32), so colour order is unrelated to id order and to the graph's
// layout.
__device__ unsigned long long colour_of(vertex_t v) {
  auto x = static_cast<std::uint32_t>(v);
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return static_cast<unsigned long long>(x) + 1;  // 0: assigned
}

struct StrongState {
  CsrView<double> a;
  vertex_t* scc;  // the component's root, -1 while unassigned
  unsigned long long* colour;
  std::uint8_t* has_in;  // trim: an unassigned in-neighbour exists
  int* changed;
};

__global__ void strong_start(StrongState s) {
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < s.a.n_rows;
       v += gridDim.x * blockDim.x) {
    s.scc[v] = -1;
    s.colour[v] = 0;
  }
}

// has_in[w] = 1 for every unassigned w with an unassigned in-neighbour u != w.
__global__ void mark_in_edges(StrongState s) {
  for (vertex_t u = blockIdx.x * blockDim.x + threadIdx.x; u < s.a.n_rows;
       u += gridDim.x * blockDim.x) {
    if (s.scc[u] >= 0) continue;
    for (offset_t k = s.a.row_ptr[u]; k < s.a.row_ptr[u + 1]; ++k) {
      const vertex_t w = s.a.col_idx[k];
      if (w != u && s.scc[w] < 0 && !s.has_in[w]) s.has_in[w] = 1;
    }
  }
}

// Assigns every unassigned vertex without an unassigned in- or
// out-neighbour to a component of its own.
__global__ void trim(StrongState s) {
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < s.a.n_rows;
       v += gridDim.x * blockDim.x) {
    if (s.scc[v] >= 0) continue;
    bool has_out = false;
    for (offset_t k = s.a.row_ptr[v]; k < s.a.row_ptr[v + 1] && !has_out; ++k) {
      const vertex_t w = s.a.col_idx[k];
      has_out = w != v && s.scc[w] < 0;
    }
    if (has_out && s.has_in[v]) continue;
    s.scc[v] = v;
    *s.changed = 1;
  }
}

__global__ void colour_start(StrongState s) {
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < s.a.n_rows;
       v += gridDim.x * blockDim.x)
    s.colour[v] = s.scc[v] < 0 ? colour_of(v) : 0;
}

// Pushes each unassigned vertex's colour to its unassigned out-neighbours
// where it is larger.
__global__ void push_colours(StrongState s) {
  for (vertex_t u = blockIdx.x * blockDim.x + threadIdx.x; u < s.a.n_rows;
       u += gridDim.x * blockDim.x) {
    if (s.scc[u] >= 0) continue;
    const unsigned long long c = s.colour[u];
    for (offset_t k = s.a.row_ptr[u]; k < s.a.row_ptr[u + 1]; ++k) {
      const vertex_t w = s.a.col_idx[k];
      if (s.scc[w] < 0 && s.colour[w] < c && atomicMax(s.colour + w, c) < c) *s.changed = 1;
    }
  }
}

// The roots: unassigned vertices that kept their own colour.
__global__ void assign_roots(StrongState s) {
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < s.a.n_rows;
       v += gridDim.x * blockDim.x)
    if (s.scc[v] < 0 && s.colour[v] == colour_of(v)) s.scc[v] = v;
}

// An unassigned vertex with an out-neighbour of its colour already in a
// component joins that component (the colour's root's).
__global__ void pull_reach(StrongState s) {
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < s.a.n_rows;
       v += gridDim.x * blockDim.x) {
    if (s.scc[v] >= 0) continue;
    const unsigned long long c = s.colour[v];
    for (offset_t k = s.a.row_ptr[v]; k < s.a.row_ptr[v + 1]; ++k) {
      const vertex_t w = s.a.col_idx[k];
      if (s.colour[w] == c && s.scc[w] >= 0) {
        s.scc[v] = s.scc[w];
        *s.changed = 1;
        break;
      }
    }
  }
}

// Ends a round: assigned vertices lose their colour; counts those left.
__global__ void close_round(StrongState s, unsigned long long* left) {
  unsigned long long mine = 0;
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < s.a.n_rows;
       v += gridDim.x * blockDim.x) {
    if (s.scc[v] >= 0)
      s.colour[v] = 0;
    else
      ++mine;
  }
  if (mine) atomicAdd(left, mine);
}

class StrongSweeps {
 public:
  StrongSweeps(const CsrView<double>& a, vertex_t n)
      : n_(n),
        scc_(static_cast<std::size_t>(n)),
        colour_(static_cast<std::size_t>(n)),
        has_in_(static_cast<std::size_t>(n)),
        flags_(2),
        grid_(grid_for(n, block_size)) {
    s_ = {a, scc_.data(), colour_.data(), has_in_.data(), flags_.data()};
    strong_start<<<grid_, block_size>>>(s_);
    check_launch();
  }

  // Runs `sweep` until it changes nothing; returns how many ran.
  template <class Sweep>
  int until_stable(Sweep sweep) {
    int sweeps = 0;
    for (;;) {
      GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(flags_.data(), 0, sizeof(int)));
      sweep();
      check_launch();
      ++sweeps;
      int changed = 0;
      GRAPHRUN_CUDA_CHECK(cudaMemcpy(&changed, flags_.data(), sizeof(int), cudaMemcpyDeviceToHost));
      if (!changed) return sweeps;
    }
  }

  // One round: trim, colour, reach. Returns the vertices left unassigned.
  vertex_t round() {
    until_stable([this] {
      GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(has_in_.data(), 0, static_cast<std::size_t>(n_)));
      mark_in_edges<<<grid_, block_size>>>(s_);
      trim<<<grid_, block_size>>>(s_);
    });
    colour_start<<<grid_, block_size>>>(s_);
    until_stable([this] { push_colours<<<grid_, block_size>>>(s_); });
    assign_roots<<<grid_, block_size>>>(s_);
    until_stable([this] { pull_reach<<<grid_, block_size>>>(s_); });
    DeviceArray<unsigned long long> left(1);
    GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(left.data(), 0, sizeof(unsigned long long)));
    close_round<<<grid_, block_size>>>(s_, left.data());
    check_launch();
    return static_cast<vertex_t>(left.download()[0]);
  }

  // Labels, with every vertex still unassigned its own component.
  std::vector<vertex_t> labels() const {
    std::vector<vertex_t> scc = scc_.download();
    for (vertex_t v = 0; v < n_; ++v)
      if (scc[v] < 0) scc[v] = v;
    return scc;
  }

 private:
  vertex_t n_;
  DeviceArray<vertex_t> scc_;
  DeviceArray<unsigned long long> colour_;
  DeviceArray<std::uint8_t> has_in_;
  DeviceArray<int> flags_;
  unsigned grid_;
  StrongState s_{};
};

}  // namespace

ComponentLabels CudaSteps::components(Context& ctx, const Graph& g,
                                      const ComponentsOptions& options) {
  const Stopwatch t0;
  use_device(ctx, "cc");
  ComponentLabels r;
  if (!(options.strong && g.directed())) {
    r.label = weak_components(g, r.compute_seconds);
    r.smallest = true;  // the forest's roots are the smallest vertices of their trees
    return r;
  }
  const AdjacencyOnDevice on_device(g, false);
  const DeviceCsr<double>& d_a = on_device.csr();
  StrongSweeps sweeps(d_a.view(), g.n_vertices());
  GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());
  const Stopwatch t;
  r.iterations = 0;
  r.one_pass = false;  // on_iteration is called here, after every round
  for (vertex_t left = g.n_vertices(); left > 0;) {
    left = sweeps.round();
    ++r.iterations;
    if (options.on_iteration) {
      IterationInfo info;
      info.iteration = r.iterations;
      info.frontier = left;
      info.elapsed = t0.seconds();
      if (!options.on_iteration(info) && left > 0) {
        r.complete = false;
        break;
      }
    }
  }
  r.compute_seconds = t.seconds();
  r.label = sweeps.labels();
  return r;
}

}  // namespace graphrun::detail
