// The frontier operator: advance a set of vertices over the rows of a CSR
// adjacency, as Gunrock's advance or GraphBLAS's masked vxm / mxv over a
// boolean semiring. Both backends implement the same two directions:
//
//   push (top-down): for every vertex u of a sparse frontier (a queue) and
//     every out-edge u -> v, apply(u, v); the v for which it returns true
//     make the next frontier, a queue. apply runs concurrently for many
//     edges and must decide with an atomic claim where two edges reach one
//     v (ClaimUnvisited: compare-and-swap on the level).
//   pull (bottom-up): for every vertex v passing filter(v) (the mask), scan
//     its in-edges (the rows of Aᵀ) for the first u with in_frontier(u),
//     stop there, and apply(u, v); the v for which it returns true make the
//     next frontier. Only v's own thread touches v.
//
// and the conversions between the two frontier forms (queue <-> bitmap)
// that a direction-optimizing search needs when it changes direction. Both
// advances also count what the next frontier is (FrontierCounts): its size,
// its out-edges and largest out-degree (Beamer's direction rule runs on
// these), and the edges a pull looked at.
//
// The host versions are graphrun/kernels/cpu/frontier.hpp (OpenMP); the
// device ones graphrun/kernels/cuda/frontier.cuh (the __device__ pieces and
// kernel templates, for .cu files) and graphrun/kernels/cuda/frontier.hpp
// (compiled entry points for ClaimUnvisited). BFS (algorithms/src/bfs.cpp,
// cuda/bfs.cu) is written over them.
//
// apply, filter and in_frontier are functors, GRAPHRUN_HD where both
// backends run them, so that other traversals reuse the operator as it is:
//
//   SSSP (Bellman-Ford / delta-stepping), push over a weighted A: apply
//   relaxes the edge and keeps v when its distance dropped,
//     struct Relax {
//       const double* w; double* dist;   // w: A's values
//       bool operator()(vertex_t u, vertex_t v, offset_t k) const {
//         return atomic_min(&dist[v], dist[u] + w[k]) > dist[u] + w[k];
//       }
//     };
//   (the advance passes the edge's position k where apply takes three
//   arguments), with dist compared through atomicMin on the device.
//
//   Connected components (label propagation / hooking), push or pull:
//   apply hooks the larger label under the smaller and keeps v when its
//   label changed,
//     struct Hook {
//       vertex_t* label;
//       bool operator()(vertex_t u, vertex_t v) const {
//         return atomic_min(&label[v], label[u]) > label[u];
//       }
//     };
//   pulling with filter = "not yet converged" and in_frontier = "label
//   changed in the last round".
#pragma once

#include <cstdint>
#include <type_traits>

#if !defined(__CUDA_ARCH__)
#include <atomic>
#endif

#include "graphrun/engine/host_device.hpp"
#include "graphrun/engine/types.hpp"

namespace graphrun {

// What one advance found, accumulated by the operator (on the device by
// atomics; zero them before a step). 64-bit fields so the device adds them
// with one atomic each.
struct FrontierCounts {
  unsigned long long vertices;    // the next frontier's size
  unsigned long long edges;       // its out-edges
  unsigned long long scanned;     // pull: in-edges of the vertices that passed the filter
                                  // (a push reads the frontier's out-edges, known before)
  unsigned long long max_degree;  // the largest out-degree in the next frontier
  unsigned long long pulled;      // 1 for a pull step; left to the caller
};

GRAPHRUN_HD inline offset_t frontier_row_length(const offset_t* row_ptr, vertex_t v) {
  return row_ptr[v + 1] - row_ptr[v];
}

// Calls apply(u, v) or, where it takes the edge's position too,
// apply(u, v, k).
template <class Apply>
GRAPHRUN_HD inline bool frontier_apply(const Apply& apply, vertex_t u, vertex_t v, offset_t k) {
  if constexpr (std::is_invocable_v<const Apply&, vertex_t, vertex_t, offset_t>)
    return apply(u, v, k);
  else
    return apply(u, v);
}

// The pull's inner loop: finds the first entry u = col_idx[k] of
// col_idx[begin, end) with in_frontier(u), calls found(u, k) on it and
// stops there. Returns whether there was one.
template <class InFrontier, class Found>
GRAPHRUN_HD inline bool first_in_frontier(const vertex_t* col_idx, offset_t begin, offset_t end,
                                          const InFrontier& in_frontier, Found&& found) {
  for (offset_t k = begin; k < end; ++k) {
    const vertex_t u = col_idx[k];
    if (in_frontier(u)) {
      found(u, k);
      return true;
    }
  }
  return false;
}

// Frontier tests and filters over the usual per-vertex state.

// bits[v] != 0: a frontier bitmap (in_frontier), or a visited mask.
struct BitmapSet {
  const std::uint8_t* bits;
  GRAPHRUN_HD bool operator()(vertex_t v) const { return bits[v] != 0; }
};

// bits[v] == 0: the complement of a mask (filter: not yet visited).
struct BitmapClear {
  const std::uint8_t* bits;
  GRAPHRUN_HD bool operator()(vertex_t v) const { return bits[v] == 0; }
};

// Bit v % 64 of words[v / 64] set: a frontier packed a bit per vertex, as
// the CPU's pull keeps it (n / 8 bytes stay in a core's caches where a
// byte per vertex spills: its in-edges' lookups are random).
struct PackedBitsSet {
  const std::uint64_t* words;
  GRAPHRUN_HD bool operator()(vertex_t v) const { return ((words[v >> 6] >> (v & 63)) & 1u) != 0; }
};

// The 64-bit words of a packed bitmap of n bits.
GRAPHRUN_HD inline std::size_t packed_words(vertex_t n) {
  return (static_cast<std::size_t>(n) + 63) / 64;
}

// level[v] == value: unvisited (value -1) as a filter, or the previous
// level as a frontier (no bitmap to build).
struct LevelIs {
  const std::int32_t* level;
  std::int32_t value;
  GRAPHRUN_HD bool operator()(vertex_t v) const { return level[v] == value; }
};

// BFS's apply: claims an unvisited v (level -1) for `depth` from u with a
// compare-and-swap on its level; the winner records u as v's parent (where
// parent is not nullptr) and marks v visited. Safe for push, where many
// edges reach one v at once.
struct ClaimUnvisited {
  std::int32_t* level;
  vertex_t* parent;       // nullptr: no parents
  std::uint8_t* visited;  // nullptr: the caller reads visits off level
  std::int32_t depth;

  GRAPHRUN_HD bool operator()(vertex_t u, vertex_t v) const {
#if defined(__CUDA_ARCH__)
    if (level[v] != -1) return false;  // cheap test before the atomic
    if (atomicCAS(level + v, -1, depth) != -1) return false;
#else
    std::atomic_ref<std::int32_t> lv(level[v]);
    if (lv.load(std::memory_order_relaxed) != -1) return false;
    std::int32_t expected = -1;
    if (!lv.compare_exchange_strong(expected, depth, std::memory_order_relaxed)) return false;
#endif
    if (parent) parent[v] = u;
    if (visited) visited[v] = 1;
    return true;
  }
};

}  // namespace graphrun
