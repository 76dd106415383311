// BFS's bottom-up step on the GPU for graphs with hubs (Beamer, Asanović,
// Patterson, SC'12): every unvisited vertex v looks through its in-edges
// (a row of Aᵀ) for the first one from the frontier and stops there.
//
// The masked OrAnd SpMV that did this step before read every entry of every
// unvisited row (its formats balance rows by entries, and a segmented
// reduction cannot stop a row early): on a Kronecker graph of 2^24
// vertices a pull step read all 0.5·10⁹ entries, where most unvisited
// vertices find a frontier in-neighbour among their first few. Here a row
// stops at its first hit, and its walk is balanced in two tiers, so that
// neither a hub nor a run of long rows holds the step up:
//
//   1. a thread per vertex (pull_rows) looks at its row's first kLaneEdges
//      in-edges; a row with more and no hit among them goes to a list;
//   2. the listed rows' remaining in-edges are cut into chunks of
//      kChunkEdges (list_chunks) and walked by a warp each over the whole
//      grid (long_chunks: a hub's row is spread over every SM, a run of
//      long rows over many warps); the first hit of a row is the least
//      position any of its chunks found (atomicMin), and a chunk past a hit
//      already found is skipped. A last pass (long_claims) settles the rows
//      the chunks found a hit in.
//
// The three kernels of the second tier read the list's length on the
// device, so a step never waits for the host between them (they return at
// once where the list is empty); the step's counters are read back once,
// after all of them, with the direction rule's. The parent is the first
// frontier in-neighbour in Aᵀ's order in both tiers, as on the CPU.
//
// Measured on the H200 (2026-12-03, docs/performance.md): a first version
// had a warp-wide tier between these two (each warp walking its rows' next
// 32-256 in-edges one row after another) and read the list's length back
// before the second tier. On web-NotreDame both cost: the warp tier 0.27 ms
// of 1.43 (a warp whose 32 consecutive vertices all have long rows walks
// them in turn while the GPU waits), the extra wait per step 0.26 ms of
// 1.16; neither gained anything on R-MAT or uniform graphs.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

#include "device_util.cuh"
#include "graphrun/kernels/cuda/frontier.cuh"

namespace graphrun::detail::bfs_pull {

using cuda::frontier::add_block;
using cuda::frontier::kBlock;
using cuda::frontier::max_block;

constexpr int kWarp = 32;
constexpr offset_t kLaneEdges = 16;                               // tier 1: a thread's own
constexpr offset_t kChunkEdges = 256;                             // tier 2: a warp's chunk
constexpr offset_t kNone = std::numeric_limits<offset_t>::max();  // no hit yet
constexpr unsigned kFull = 0xffffffffu;

// The step's device state. front: the frontier, a byte per vertex; next:
// the vertices the step reaches (every byte of it written).
struct Step {
  vertex_t n;
  std::int32_t depth;
  const std::uint8_t* front;
  std::uint8_t* next;
  std::uint8_t* visited;
  std::int32_t* level;
  vertex_t* parent;            // nullptr: no parents
  const offset_t* a_row_ptr;   // A: out-degrees of the vertices reached
  const offset_t* at_row_ptr;  // Aᵀ: in-edges
  const vertex_t* at_col_idx;
  FrontierCounts* counts;
  // The rows listed for tier 2: the vertex (its first kLaneEdges in-edges
  // looked at), its first chunk in the chunk list, its first hit (kNone:
  // none yet); the list's length; the chunk list (the row of each chunk)
  // and its length.
  vertex_t* long_vertex;
  offset_t* long_chunk0;
  offset_t* long_hit;
  unsigned long long* long_count;
  std::uint32_t* chunk_row;
  unsigned long long* chunk_count;
};

// v reached at s.depth from in-neighbour u: its books and counts.
__device__ inline void settle(const Step& s, vertex_t v, vertex_t u, unsigned long long& count,
                              unsigned long long& edges, unsigned long long& max_degree) {
  s.visited[v] = 1;
  s.level[v] = s.depth;
  if (s.parent) s.parent[v] = u;
  const auto degree = static_cast<unsigned long long>(frontier_row_length(s.a_row_ptr, v));
  ++count;
  edges += degree;
  max_degree = max(max_degree, degree);
}

// Tier 1: a thread per vertex over the grid.
__global__ void __launch_bounds__(kBlock) pull_rows(Step s) {
  unsigned long long count = 0, edges = 0, scanned = 0, max_degree = 0;
  for (offset_t i = offset_t{blockIdx.x} * kBlock + threadIdx.x; i < s.n;
       i += offset_t{gridDim.x} * kBlock) {
    const auto v = static_cast<vertex_t>(i);
    if (s.visited[v]) {
      s.next[v] = 0;
      continue;
    }
    const offset_t begin = s.at_row_ptr[v], end = s.at_row_ptr[v + 1];
    scanned += static_cast<unsigned long long>(end - begin);
    const offset_t stop = min(end, begin + kLaneEdges);
    vertex_t from = -1;
    for (offset_t k = begin; k < stop; ++k) {
      const vertex_t u = s.at_col_idx[k];
      if (s.front[u]) {
        from = u;
        break;
      }
    }
    s.next[v] = from >= 0 ? 1 : 0;
    if (from >= 0) {
      settle(s, v, from, count, edges, max_degree);
    } else if (stop < end) {
      s.long_vertex[atomicAdd(s.long_count, 1ULL)] = v;
    }
  }
  add_block(count, &s.counts->vertices);
  add_block(edges, &s.counts->edges);
  add_block(scanned, &s.counts->scanned);
  max_block(max_degree, &s.counts->max_degree);
}

// Tier 2, first: each listed row's chunks, appended to the chunk list (in
// no particular order: a row's first hit is a minimum over its chunks).
__global__ void list_chunks(Step s) {
  const auto rows = static_cast<offset_t>(*s.long_count);
  for (offset_t r = offset_t{blockIdx.x} * kBlock + threadIdx.x; r < rows;
       r += offset_t{gridDim.x} * kBlock) {
    const vertex_t v = s.long_vertex[r];
    const offset_t rest = s.at_row_ptr[v + 1] - s.at_row_ptr[v] - kLaneEdges;
    const offset_t chunks = (rest + kChunkEdges - 1) / kChunkEdges;
    const auto first =
        static_cast<offset_t>(atomicAdd(s.chunk_count, static_cast<unsigned long long>(chunks)));
    s.long_chunk0[r] = first;
    s.long_hit[r] = kNone;
    for (offset_t j = 0; j < chunks; ++j) s.chunk_row[first + j] = static_cast<std::uint32_t>(r);
  }
}

// Tier 2: a warp per chunk over the grid. A chunk past its row's hit (with
// parents: past the least one so far; without: any) is skipped.
__global__ void __launch_bounds__(kBlock) long_chunks(Step s) {
  const int lane = static_cast<int>(threadIdx.x) % kWarp;
  const offset_t warps = offset_t{gridDim.x} * (kBlock / kWarp);
  const auto chunks = static_cast<offset_t>(*s.chunk_count);
  for (offset_t c = (offset_t{blockIdx.x} * kBlock + threadIdx.x) / kWarp; c < chunks; c += warps) {
    const offset_t r = s.chunk_row[c];
    const vertex_t v = s.long_vertex[r];
    const offset_t first = s.at_row_ptr[v] + kLaneEdges + (c - s.long_chunk0[r]) * kChunkEdges;
    const offset_t stop = min(s.at_row_ptr[v + 1], first + kChunkEdges);
    // One lane reads the row's hit so far, so that the warp decides as one.
    offset_t hit = 0;
    if (lane == 0) hit = *static_cast<volatile offset_t*>(&s.long_hit[r]);
    hit = __shfl_sync(kFull, hit, 0);
    if (s.parent ? hit < first : hit != kNone) continue;
    for (offset_t k = first; k < stop; k += kWarp) {
      bool in = false;
      if (k + lane < stop) in = s.front[s.at_col_idx[k + lane]] != 0;
      const unsigned found = __ballot_sync(kFull, in);
      if (found != 0) {
        if (lane == __ffs(static_cast<int>(found)) - 1)
          atomicMin(reinterpret_cast<unsigned long long*>(&s.long_hit[r]),
                    static_cast<unsigned long long>(k + lane));
        break;
      }
    }
  }
}

// Tier 2, last: the listed rows a chunk found a hit in.
__global__ void __launch_bounds__(kBlock) long_claims(Step s) {
  const auto rows = static_cast<offset_t>(*s.long_count);
  unsigned long long count = 0, edges = 0, max_degree = 0;
  for (offset_t r = offset_t{blockIdx.x} * kBlock + threadIdx.x; r < rows;
       r += offset_t{gridDim.x} * kBlock) {
    const offset_t hit = s.long_hit[r];
    if (hit == kNone) continue;
    const vertex_t v = s.long_vertex[r];
    s.next[v] = 1;
    settle(s, v, s.at_col_idx[hit], count, edges, max_degree);
  }
  add_block(count, &s.counts->vertices);
  add_block(edges, &s.counts->edges);
  max_block(max_degree, &s.counts->max_degree);
}

// The step's host side: the row and chunk lists, sized for the most there
// can be (a listed row has over kLaneEdges in-edges, and its chunks cover
// the rest of it).
class TieredPull {
 public:
  TieredPull(vertex_t n, offset_t nnz)
      : rows_(std::max<offset_t>(1, std::min<offset_t>(n, nnz / (kLaneEdges + 1) + 1))),
        vertex_(rows_),
        chunk0_(rows_),
        hit_(rows_),
        chunk_row_(nnz / kChunkEdges + rows_),
        counts_(2) {}  // a chunk's row fits 32 bits: rows_ <= n < 2^31

  // Launches the step; its counters accumulate into s.counts (zeroed by the
  // caller), which the caller reads back.
  void run(Step s) {
    s.long_vertex = vertex_.data();
    s.long_chunk0 = chunk0_.data();
    s.long_hit = hit_.data();
    s.long_count = counts_.data();
    s.chunk_row = chunk_row_.data();
    s.chunk_count = counts_.data() + 1;
    GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(counts_.data(), 0, 2 * sizeof(unsigned long long)));
    pull_rows<<<grid_for(s.n, kBlock), kBlock>>>(s);
    check_launch();
    // The list's length is on the device: grids for the most it can be.
    const unsigned rows_grid = grid_for(rows_, kBlock);
    list_chunks<<<rows_grid, kBlock>>>(s);
    check_launch();
    long_chunks<<<static_cast<unsigned>(multiprocessors()) * 8, kBlock>>>(s);
    check_launch();
    long_claims<<<rows_grid, kBlock>>>(s);
    check_launch();
  }

 private:
  offset_t rows_;
  DeviceArray<vertex_t> vertex_;
  DeviceArray<offset_t> chunk0_, hit_;
  DeviceArray<std::uint32_t> chunk_row_;
  DeviceArray<unsigned long long> counts_;  // rows listed, chunks listed
};

}  // namespace graphrun::detail::bfs_pull
