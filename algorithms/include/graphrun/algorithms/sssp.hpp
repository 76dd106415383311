// Single-source shortest paths on non-negative edge weights (hop counts on
// an unweighted graph: every edge weighs 1).
//
// Delta-stepping (Meyer and Sanders, J. Algorithms 2003), the default: the
// tentative distances are kept in buckets of width delta; the vertices of
// the lowest non-empty bucket relax their out-edges in parallel (push over
// the frontier operator: an edge u -> v lowers dist[v] to dist[u] + w by an
// atomic minimum), and a vertex whose distance dropped joins the bucket of
// its new distance, until the bucket stays empty; then the next one. delta
// trades the work of re-relaxing (a wide bucket: Bellman-Ford) against the
// number of rounds (a narrow one: Dijkstra). The CPU runs the GAP
// reference's form (thread-local bins, a small bin finished by its thread
// alone); the GPU the near-far form (Davidson, Baxter, Garland, Owens,
// IPDPS 2014): a near queue below the current threshold, a far pile above.
//
// Bellman-Ford as a min-plus SpMV (`method = bellman_ford`), beside it for
// comparison and as the linear-algebra form: d <- min(d, Aᵀ ⊗ d) over the
// (min, +) semiring, one SpMV per sweep, until no distance changes (at
// most n - 1 sweeps). Every vertex is read every sweep, so it does O(n·m)
// work on a long path where delta-stepping does O(m); on low-diameter
// graphs it is a few sweeps of the fastest kernel there is.
//
// Both give the same distances, bit for bit, on every device and thread
// count: each is the fixed point dist[v] = min over in-edges u -> v of
// dist[u] + w in double precision, which with weights >= 0 is unique (it is
// what Dijkstra's algorithm computes).
#pragma once

#include <vector>

#include "graphrun/algorithms/iteration.hpp"
#include "graphrun/engine/context.hpp"
#include "graphrun/engine/graph.hpp"

namespace graphrun {

enum class SsspMethod {
  delta_stepping,  // buckets of width delta (default)
  bellman_ford,    // min-plus SpMV sweeps until nothing changes
};

struct SsspOptions {
  SsspMethod method = SsspMethod::delta_stepping;
  // Bucket width, > 0, or 0 for automatic: c · mean weight / mean
  // out-degree, c = 2 on the CPU (a bucket costs a barrier; wide ones
  // re-relax much) and 32 on the GPU (Davidson et al.'s rule: a bucket costs
  // host round trips); 1 on an unweighted graph (a bucket per BFS level).
  // Ignored by bellman_ford.
  double delta = 0;
  // Called after every round of delta-stepping (a bucket, or on the CPU a
  // part of one that came back large), or every sweep of bellman_ford, with
  // IterationInfo.frontier the vertices the round relaxed first (CPU), the
  // far pile left (GPU), or the distances the sweep lowered. false stops the
  // run: the distances are then upper bounds, and `complete` is false.
  IterationCallback on_iteration;
};

struct SsspResult {
  // distance[v] from the source along out-edges; +infinity where v is not
  // reachable.
  std::vector<double> distance;
  vertex_t reached = 0;      // vertices with a finite distance (the source included)
  double max_distance = 0;   // the largest finite distance (the source's eccentricity)
  double delta = 0;          // the bucket width used (0 for bellman_ford)
  int iterations = 0;        // buckets processed, or sweeps
  offset_t relaxations = 0;  // edges relaxed (delta-stepping counts re-relaxations)
  bool complete = true;      // false when on_iteration stopped the run
  double seconds = 0;        // the whole call
  // Device::cuda: the seconds of the computation alone (without the upload
  // of the graph and the download of the distances); 0 on the CPU.
  double compute_seconds = 0;
};

// Throws ArgumentError for a source outside [0, n), a delta that is
// negative or not finite, or a negative weight on an edge the search
// reaches (naming the edge by its input ids; bellman_ford checks every
// edge first).
SsspResult sssp(Context& ctx, const Graph& g, vertex_t source, const SsspOptions& options = {});

}  // namespace graphrun
