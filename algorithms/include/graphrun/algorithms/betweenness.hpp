// Betweenness centrality: for every vertex v, the share of shortest paths
// between other vertices that pass through v, summed over all pairs (s, t):
//     bc(v) = Σ_{s ≠ v ≠ t} σ_st(v) / σ_st
// with σ_st the number of shortest s-t paths and σ_st(v) those through v.
// Paths follow edge direction on a directed graph; lengths are hop counts
// (weights are ignored, as NetworkX's betweenness_centrality without
// `weight`).
//
// Brandes' algorithm (J. Math. Sociology, 2001), one source at a time: a
// breadth-first search from s counts the shortest paths to every vertex
// level by level, σ(w) = Σ σ(v) over the predecessors v of w on the level
// before, then a sweep back from the deepest level accumulates the
// dependencies δ(v) = Σ σ(v)/σ(w) (1 + δ(w)) over the successors w, and
// bc(v) += δ(v). Each level runs in parallel. σ counts paths in a double:
// integers, added exactly in any order up to 2^53; δ is pulled (each vertex
// sums over its own edges in storage order), so the scores are the same on
// every run and thread count. Past 1.8e308 paths (from a corner of a 600 x
// 600 grid) σ overflows: betweenness then throws SizeError rather than
// return scores that are not finite.
// Exact over all n sources by default (O(n·m)); `sources` K draws K sources
// at random (from `seed`), Brandes and Pich's estimate (2007), scaled by
// n / K as NetworkX does.
#pragma once

#include <cstdint>
#include <vector>

#include "graphrun/algorithms/iteration.hpp"
#include "graphrun/engine/context.hpp"
#include "graphrun/engine/graph.hpp"

namespace graphrun {

struct BetweennessOptions {
  // 0: every vertex is a source (exact). K in 1..n: K distinct sources drawn
  // uniformly from `seed` (the estimate); K = n is the exact score again.
  vertex_t sources = 0;
  std::uint64_t seed = 1;
  // Explicit sources (dense ids, each once) instead of the two above; the
  // scores are scaled as a sample of that many.
  std::vector<vertex_t> from;
  // NetworkX's normalized=True: scores divided by (n - 1)(n - 2), the
  // number of ordered pairs of other vertices. false: NetworkX's raw sums
  // (halved on an undirected graph, where every path is found from both
  // ends).
  bool normalized = true;
  // Called after every source, with IterationInfo.iteration the sources done
  // and .frontier the levels the last search had; false stops the run
  // (`complete` false, the scores those sources give, scaled as a sample of
  // that many).
  IterationCallback on_iteration;
};

struct BetweennessResult {
  std::vector<double> score;     // every vertex's betweenness
  std::vector<vertex_t> source;  // the sources searched, in order
  int iterations = 0;            // sources done
  bool complete = true;          // false when on_iteration stopped the run
  double seconds = 0;
  double compute_seconds = 0;  // on the GPU, the device's part alone; 0 on the CPU
};

BetweennessResult betweenness(Context& ctx, const Graph& g, const BetweennessOptions& options = {});

}  // namespace graphrun
