// Triangles on the GPU (triangles.hpp): the degree-oriented graph L built
// on the device, then the masked dot-product SpGEMM C<L> = L ·(+,pair) Lᵀ
// with a thread per entry of L.
//
// L from the adjacency, by radix sorts of 64-bit edge keys (hi: tail, lo:
// head), no host round trip of the entries:
//   1. the undirected edges once each, as (min, max) keys (edge_keys.cuh);
//   2. degrees: every key adds one to both its ends; the vertices sorted by
//      (degree, id) give each its rank;
//   3. each key renumbered by rank, pointed up and sorted again: the keys
//      are then L's entries in row order, rows sorted.
// The count: thread e takes L's entry (v, w) and merges L(v,:) with L(w,:).
// Orienting by degree keeps both rows under sqrt(2m), so no thread is left
// with a hub's row. The per-thread counts are summed by block, then by one
// 64-bit atomic per block; the triangles through each vertex, when asked,
// by 64-bit atomics at the three corners (as cpu/triangles.cpp).
//
// Without the renumbering, where it buys nothing: an undirected graph whose
// degrees are not skewed (the GAP reference's test: 10 or more edges per
// vertex and a sample's mean degree over 1.3 times its median; meshes, roads and
// uniform random graphs fail it) keeps its ids, and L is A's rows filtered
// to the neighbours above the vertex in (degree, id) order: one pass to
// count, a scan, one pass to copy, no sort (A's rows are sorted, so L's
// are). The merge then reads both rows whole, since ids no longer follow
// the orientation. On a 2000 × 2000 grid the renumbering's two radix sorts
// were most of the time of a count that finds nothing.
//
// Sparse and flat (fewer than 10 edges per vertex as well: roads, meshes,
// the grid), not even L is built: a thread per vertex counts on A's own
// rows, oriented by id (count_by_id, as the CPU does there), so the count
// is one launch that reads A once and the row of each neighbour below.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <vector>

#include "../triangles_orientation.hpp"
#include "cuda_backend.hpp"
#include "device_util.cuh"
#include "edge_keys.cuh"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/first_at_least.hpp"
#include "graphrun/engine/stopwatch.hpp"

namespace graphrun::detail {

namespace {

constexpr int block_size = 256;

using Key = EdgeKey;

__global__ void count_degrees(const Key* edges, offset_t m, vertex_t* degree) {
  for (offset_t e = blockIdx.x * static_cast<offset_t>(blockDim.x) + threadIdx.x; e < m;
       e += static_cast<offset_t>(gridDim.x) * blockDim.x) {
    atomicAdd(degree + key_tail(edges[e]), 1);
    atomicAdd(degree + key_head(edges[e]), 1);
  }
}

// (degree, id) keys of the vertices, whose sorted order gives the ranks.
__global__ void degree_keys(const vertex_t* degree, vertex_t n, Key* keys) {
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x)
    keys[v] = edge_key(degree[v], v);
}

__global__ void ranks_of(const Key* sorted, vertex_t n, vertex_t* rank) {
  for (vertex_t r = blockIdx.x * blockDim.x + threadIdx.x; r < n; r += gridDim.x * blockDim.x)
    rank[key_head(sorted[r])] = r;
}

// Renumbers each edge by rank, points it up, and counts the rows of L.
__global__ void orient(Key* edges, offset_t m, const vertex_t* rank, offset_t* row_length) {
  for (offset_t e = blockIdx.x * static_cast<offset_t>(blockDim.x) + threadIdx.x; e < m;
       e += static_cast<offset_t>(gridDim.x) * blockDim.x) {
    const vertex_t a = rank[key_tail(edges[e])], b = rank[key_head(edges[e])];
    const vertex_t tail = a < b ? a : b;
    edges[e] = a < b ? edge_key(a, b) : edge_key(b, a);
    atomicAdd(reinterpret_cast<unsigned long long*>(row_length + tail), 1ULL);
  }
}

// The counts by rank back in vertex order.
__global__ void by_vertex(const unsigned long long* by_rank, const vertex_t* rank, vertex_t n,
                          unsigned long long* out) {
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x)
    out[v] = by_rank[rank[v]];
}

// Thread e: |L(v,:) ∩ L(w,:)| for L's entry e = (v, w), as the CPU merges
// it. Renumbered: the entries are the sorted keys `edges` (tail, head by
// rank); otherwise L's entry e is (row[e], col_idx[e]) on the graph's ids.
template <bool PerVertex, bool Renumbered>
__global__ void count_triangles(const Key* edges, const vertex_t* row, offset_t m,
                                const offset_t* row_ptr, const vertex_t* col_idx,
                                unsigned long long* total, unsigned long long* through) {
  using Reduce = cub::BlockReduce<unsigned long long, block_size>;
  __shared__ typename Reduce::TempStorage scratch;
  unsigned long long found = 0;
  for (offset_t e = blockIdx.x * static_cast<offset_t>(blockDim.x) + threadIdx.x; e < m;
       e += static_cast<offset_t>(gridDim.x) * blockDim.x) {
    const vertex_t v = Renumbered ? key_tail(edges[e]) : row[e];
    const vertex_t w = Renumbered ? key_head(edges[e]) : col_idx[e];
    // Renumbered, L's rows are sorted by rank and edges[e] is L's entry e,
    // so v's row past w starts at e + 1: what comes before it is <= w, and
    // w's row is all > w. On the graph's ids the orientation is not the
    // ids' order: both rows are read whole.
    const vertex_t* a = col_idx + (Renumbered ? e + 1 : row_ptr[v]);
    const vertex_t* a_end = col_idx + row_ptr[v + 1];
    const vertex_t* b = col_idx + row_ptr[w];
    const vertex_t* b_end = col_idx + row_ptr[w + 1];
    unsigned long long common = 0;
    while (a < a_end && b < b_end) {
      const vertex_t x = *a, y = *b;
      if (x == y) {
        ++common;
        if constexpr (PerVertex) atomicAdd(through + x, 1ULL);
      }
      a += x <= y;
      b += y <= x;
    }
    if constexpr (PerVertex)
      if (common > 0) {
        atomicAdd(through + v, common);
        atomicAdd(through + w, common);
      }
    found += common;
  }
  const unsigned long long block_total = Reduce(scratch).Sum(found);
  if (threadIdx.x == 0 && block_total > 0) atomicAdd(total, block_total);
}

// The count over L's m entries; the triangles through each vertex too
// where `through` is not nullptr.
template <bool Renumbered>
void count(const Key* edges, const vertex_t* row, offset_t m, const offset_t* row_ptr,
           const vertex_t* col_idx, unsigned long long* total, unsigned long long* through) {
  const unsigned grid = grid_for(m, block_size);
  if (through)
    count_triangles<true, Renumbered>
        <<<grid, block_size>>>(edges, row, m, row_ptr, col_idx, total, through);
  else
    count_triangles<false, Renumbered>
        <<<grid, block_size>>>(edges, row, m, row_ptr, col_idx, total, nullptr);
  check_launch();
}

// ---- Without renumbering --------------------------------------------------

// The degree of v in the simple graph: its row's length less the loop, if
// any (rows sorted: a binary search for v).
__device__ inline vertex_t degree_without_loop(const offset_t* row_ptr, const vertex_t* col_idx,
                                               vertex_t v) {
  const offset_t length = row_ptr[v + 1] - row_ptr[v];
  const offset_t lo = first_at_least(col_idx, row_ptr[v], row_ptr[v + 1], v);
  const bool loop = lo < row_ptr[v + 1] && col_idx[lo] == v;
  return static_cast<vertex_t>(length - (loop ? 1 : 0));
}

__global__ void degrees_without_loops(const offset_t* row_ptr, const vertex_t* col_idx, vertex_t n,
                                      vertex_t* degree) {
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x)
    degree[v] = degree_without_loop(row_ptr, col_idx, v);
}

// The sampled vertices' degrees, read from their rows: the shape test needs
// no pass over every vertex.
__global__ void gather_samples(const offset_t* row_ptr, const vertex_t* col_idx, vertex_t n,
                               int samples, vertex_t* out) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < samples; i += gridDim.x * blockDim.x)
    out[i] = degree_without_loop(row_ptr, col_idx, renumbering_sample(n, samples, i));
}

// w is above v in the orientation: (degree, id) larger.
__device__ inline bool above(const vertex_t* degree, vertex_t v, vertex_t w) {
  return degree[w] > degree[v] || (degree[w] == degree[v] && w > v);
}

// L's row lengths: the neighbours above each vertex.
__global__ void oriented_lengths(const offset_t* row_ptr, const vertex_t* col_idx,
                                 const vertex_t* degree, vertex_t n, offset_t* length) {
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
    offset_t count = 0;
    for (offset_t k = row_ptr[v]; k < row_ptr[v + 1]; ++k) count += above(degree, v, col_idx[k]);
    length[v] = count;
  }
}

// L's rows (in A's order: sorted) and each entry's row.
__global__ void oriented_rows(const offset_t* row_ptr, const vertex_t* col_idx,
                              const vertex_t* degree, vertex_t n, const offset_t* l_row_ptr,
                              vertex_t* l_col_idx, vertex_t* l_row) {
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
    offset_t out = l_row_ptr[v];
    for (offset_t k = row_ptr[v]; k < row_ptr[v + 1]; ++k) {
      const vertex_t w = col_idx[k];
      if (above(degree, v, w)) {
        l_col_idx[out] = w;
        l_row[out] = v;
        ++out;
      }
    }
  }
}

// The degrees' shape that picks the count (triangles_orientation.hpp): 10
// or more edges per vertex, and skewed degrees, sampled on the device.
struct DegreeShape {
  bool dense = false;
  bool skewed = false;
};
DegreeShape degree_shape(const DeviceCsr<double>& a) {
  const vertex_t n = a.n_rows();
  DegreeShape shape;
  shape.dense = ten_edges_per_vertex(n, a.nnz());
  if (n == 0) return shape;
  const int samples = renumbering_samples(n);
  DeviceArray<vertex_t> picked(static_cast<std::size_t>(samples));
  gather_samples<<<grid_for(samples, block_size), block_size>>>(
      a.row_ptr().data(), a.col_idx().data(), n, samples, picked.data());
  check_launch();
  shape.skewed = degrees_skewed(picked.download());
  return shape;
}

// ---- Sparse and flat: on the graph's own rows, nothing built -------------

// Thread v: the triangles x < w < v, found once each from v's row, as x in
// both v's and w's rows below w (cpu/triangles.cpp's count_by_id). v's
// entries before w are all below w, and w's row is merged only up to w.
// Rows are short on the graphs that take this path (fewer than 10 edges
// per vertex, degrees not skewed), so a thread per row is balanced; it
// also writes v's degree (its row less the loop, which sits at `below`)
// and counts the edges below v, each undirected edge once.
template <bool PerVertex>
__global__ void count_by_id(const offset_t* __restrict__ row_ptr,
                            const vertex_t* __restrict__ col_idx, vertex_t n, vertex_t* degree,
                            unsigned long long* total, unsigned long long* edges,
                            unsigned long long* through) {
  using Reduce = cub::BlockReduce<unsigned long long, block_size>;
  __shared__ typename Reduce::TempStorage scratch;
  unsigned long long found = 0, below_v = 0;
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
    const vertex_t* const row = col_idx + row_ptr[v];
    const vertex_t* const end = col_idx + row_ptr[v + 1];
    const vertex_t* below = row;
    while (below < end && *below < v) ++below;
    degree[v] = static_cast<vertex_t>((end - row) - (below < end && *below == v ? 1 : 0));
    below_v += static_cast<unsigned long long>(below - row);
    unsigned long long at_v = 0;
    for (const vertex_t* w = row; w < below; ++w) {
      const vertex_t bound = *w;
      const vertex_t* a = row;
      const vertex_t* b = col_idx + row_ptr[bound];
      const vertex_t* const b_end = col_idx + row_ptr[bound + 1];
      unsigned long long common = 0;
      while (a < w && b < b_end && *b < bound) {
        const vertex_t x = *a, y = *b;
        if (x == y) {
          ++common;
          if constexpr (PerVertex) atomicAdd(through + x, 1ULL);
        }
        a += x <= y;
        b += y <= x;
      }
      if constexpr (PerVertex)
        if (common > 0) atomicAdd(through + bound, common);
      at_v += common;
    }
    if constexpr (PerVertex)
      if (at_v > 0) atomicAdd(through + v, at_v);
    found += at_v;
  }
  const unsigned long long block_found = Reduce(scratch).Sum(found);
  __syncthreads();  // the scratch is reused
  const unsigned long long block_edges = Reduce(scratch).Sum(below_v);
  if (threadIdx.x == 0) {
    if (block_found > 0) atomicAdd(total, block_found);
    if (block_edges > 0) atomicAdd(edges, block_edges);
  }
}

void count_sparse_flat(const DeviceCsr<double>& a, const TriangleOptions& options,
                       const Stopwatch& t, TriangleCounts& r) {
  const vertex_t n = a.n_rows();
  const auto size = static_cast<std::size_t>(n);
  DeviceArray<vertex_t> degree(size);
  DeviceArray<unsigned long long> sums(2);  // total, edges
  GRAPHRUN_CUDA_CHECK(cudaMemset(sums.data(), 0, 2 * sizeof(unsigned long long)));
  DeviceArray<unsigned long long> through(options.per_vertex ? size : 0);
  if (options.per_vertex)
    GRAPHRUN_CUDA_CHECK(cudaMemset(through.data(), 0, size * sizeof(unsigned long long)));
  const unsigned grid = grid_for(n, block_size);
  if (options.per_vertex)
    count_by_id<true><<<grid, block_size>>>(a.row_ptr().data(), a.col_idx().data(), n,
                                            degree.data(), sums.data(), sums.data() + 1,
                                            through.data());
  else
    count_by_id<false><<<grid, block_size>>>(a.row_ptr().data(), a.col_idx().data(), n,
                                             degree.data(), sums.data(), sums.data() + 1, nullptr);
  check_launch();
  const std::vector<unsigned long long> both = sums.download();
  r.total = both[0];
  r.compute_seconds = t.seconds();
  r.edges = both[1];
  r.degree = degree.download();
  if (options.per_vertex) {
    const std::vector<unsigned long long> counts = through.download();
    r.per_vertex.assign(counts.begin(), counts.end());
  }
}

// The count on the graph's own ids, L built (see the top of the file).
void count_without_renumbering(const DeviceCsr<double>& a, const DeviceArray<vertex_t>& degree,
                               const TriangleOptions& options, const Stopwatch& t,
                               TriangleCounts& r) {
  const vertex_t n = a.n_rows();
  const auto size = static_cast<std::size_t>(n);
  const unsigned vertex_grid = grid_for(n, block_size);
  DeviceArray<offset_t> row_ptr(size + 1);
  GRAPHRUN_CUDA_CHECK(cudaMemset(row_ptr.data() + n, 0, sizeof(offset_t)));
  oriented_lengths<<<vertex_grid, block_size>>>(a.row_ptr().data(), a.col_idx().data(),
                                                degree.data(), n, row_ptr.data());
  check_launch();
  with_scratch([&](void* p, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(p, bytes, row_ptr.data(), row_ptr.data(), n + 1);
  });
  offset_t m = 0;
  GRAPHRUN_CUDA_CHECK(cudaMemcpy(&m, row_ptr.data() + n, sizeof(offset_t), cudaMemcpyDeviceToHost));
  DeviceArray<vertex_t> col_idx(static_cast<std::size_t>(m)), row(static_cast<std::size_t>(m));
  DeviceArray<unsigned long long> total(1);
  GRAPHRUN_CUDA_CHECK(cudaMemset(total.data(), 0, sizeof(unsigned long long)));
  DeviceArray<unsigned long long> through(options.per_vertex ? size : 0);
  if (options.per_vertex)
    GRAPHRUN_CUDA_CHECK(cudaMemset(through.data(), 0, size * sizeof(unsigned long long)));
  if (m > 0) {
    oriented_rows<<<vertex_grid, block_size>>>(a.row_ptr().data(), a.col_idx().data(),
                                               degree.data(), n, row_ptr.data(), col_idx.data(),
                                               row.data());
    check_launch();
    count<false>(nullptr, row.data(), m, row_ptr.data(), col_idx.data(), total.data(),
                 options.per_vertex ? through.data() : nullptr);
  }
  GRAPHRUN_CUDA_CHECK(cudaMemcpy(&r.total, total.data(), sizeof r.total, cudaMemcpyDeviceToHost));
  r.compute_seconds = t.seconds();
  r.edges = static_cast<std::uint64_t>(m);
  r.degree = degree.download();
  if (options.per_vertex) {
    const std::vector<unsigned long long> counts = through.download();
    r.per_vertex.assign(counts.begin(), counts.end());
  }
}

}  // namespace

TriangleCounts CudaSteps::triangles(Context& ctx, const Graph& g, const TriangleOptions& options) {
  use_device(ctx, "triangles");
  const vertex_t n = g.n_vertices();
  const auto size = static_cast<std::size_t>(n);
  TriangleCounts r;
  const AdjacencyOnDevice on_device(g, false);
  const DeviceCsr<double>& d_a = on_device.csr();
  GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());
  const Stopwatch t;
  if (!g.directed()) {
    // An undirected graph's rows are its neighbours both ways: its degrees
    // are the row lengths less the loops.
    const DegreeShape shape = degree_shape(d_a);
    if (!shape.dense && !shape.skewed) {
      count_sparse_flat(d_a, options, t, r);
      return r;
    }
    DeviceArray<vertex_t> degree(size);
    if (n > 0) {
      degrees_without_loops<<<grid_for(n, block_size), block_size>>>(
          d_a.row_ptr().data(), d_a.col_idx().data(), n, degree.data());
      check_launch();
    }
    if (!shape.dense || !shape.skewed) {
      count_without_renumbering(d_a, degree, options, t, r);
      return r;
    }
  }
  UndirectedEdges undirected = undirected_edges(d_a, g.directed());
  DeviceArray<Key> edges = std::move(undirected.keys);
  const offset_t m = undirected.m;
  DeviceArray<vertex_t> degree(size);
  DeviceArray<offset_t> row_ptr(size + 1);
  GRAPHRUN_CUDA_CHECK(cudaMemset(degree.data(), 0, size * sizeof(vertex_t)));
  GRAPHRUN_CUDA_CHECK(cudaMemset(row_ptr.data(), 0, (size + 1) * sizeof(offset_t)));
  DeviceArray<vertex_t> col_idx(static_cast<std::size_t>(m));
  DeviceArray<unsigned long long> total(1);
  GRAPHRUN_CUDA_CHECK(cudaMemset(total.data(), 0, sizeof(unsigned long long)));
  DeviceArray<unsigned long long> through(options.per_vertex ? size : 0);  // by rank
  DeviceArray<vertex_t> rank;
  if (options.per_vertex)
    GRAPHRUN_CUDA_CHECK(cudaMemset(through.data(), 0, size * sizeof(unsigned long long)));
  if (m > 0) {
    const unsigned grid = grid_for(m, block_size);
    const int bits = edge_key_bits(n);
    count_degrees<<<grid, block_size>>>(edges.data(), m, degree.data());
    check_launch();
    // The ranks: the vertices sorted by (degree, id). Renumbering by rank
    // puts the rows of the high-degree vertices, which most merges read,
    // side by side (as the CPU, and the GAP reference's relabelling).
    rank = DeviceArray<vertex_t>(size);
    {
      DeviceArray<Key> keys(size), sorted(size);
      const unsigned vertex_grid = grid_for(n, block_size);
      degree_keys<<<vertex_grid, block_size>>>(degree.data(), n, keys.data());
      check_launch();
      with_scratch([&](void* p, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortKeys(p, bytes, keys.data(), sorted.data(), n, 0, bits);
      });
      ranks_of<<<vertex_grid, block_size>>>(sorted.data(), n, rank.data());
      check_launch();
    }
    orient<<<grid, block_size>>>(edges.data(), m, rank.data(), row_ptr.data());
    check_launch();
    {
      DeviceArray<Key> sorted(static_cast<std::size_t>(m));
      with_scratch([&](void* p, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortKeys(p, bytes, edges.data(), sorted.data(), m, 0, bits);
      });
      edges = std::move(sorted);
    }
    with_scratch([&](void* p, std::size_t& bytes) {
      return cub::DeviceScan::ExclusiveSum(p, bytes, row_ptr.data(), row_ptr.data(), n + 1);
    });
    key_heads(edges.data(), m, col_idx.data());
    count<true>(edges.data(), nullptr, m, row_ptr.data(), col_idx.data(), total.data(),
                options.per_vertex ? through.data() : nullptr);
  }
  GRAPHRUN_CUDA_CHECK(cudaMemcpy(&r.total, total.data(), sizeof r.total, cudaMemcpyDeviceToHost));
  r.compute_seconds = t.seconds();
  r.edges = static_cast<std::uint64_t>(m);
  r.degree = degree.download();
  if (options.per_vertex) {
    std::vector<unsigned long long> counts(size, 0);
    if (m > 0) {
      DeviceArray<unsigned long long> ordered(size);
      by_vertex<<<grid_for(n, block_size), block_size>>>(through.data(), rank.data(), n,
                                                         ordered.data());
      check_launch();
      counts = ordered.download();
    }
    r.per_vertex.assign(counts.begin(), counts.end());
  }
  return r;
}

}  // namespace graphrun::detail
