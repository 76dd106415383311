// Direction-optimizing breadth-first search (Beamer, Asanović, Patterson,
// "Direction-Optimizing Breadth-First Search", SC'12), over the frontier
// operator of the kernels (graphrun/kernels/frontier.hpp):
//
//   push (top-down):  advance_push of a vertex queue: each frontier vertex
//                     scans its out-edges and claims unvisited targets
//                     (ClaimUnvisited: compare-and-swap on level).
//   pull (bottom-up): advance_pull masked by the complement of `visited`:
//                     every unvisited vertex scans its in-edges (Aᵀ) and
//                     stops at the first one in the frontier bitmap, which
//                     is then its parent. In linear-algebra terms, next =
//                     Aᵀ frontier over OrAnd with that mask, the row ending
//                     at its first hit.
//
// Direction rule (gapbs): go pull when the frontier's out-edges m_f exceed
// the unexplored edges m_u (counted as gapbs counts them: bfs_direction.hpp)
// divided by alpha; go back to push when the frontier shrinks and holds
// fewer than n / beta vertices.
// alpha = 0 never pulls; alpha = beta = infinity pulls from the first
// non-empty frontier on.
//
// This is the driver: the checks, then the backend's level loop
// (cpu/bfs_search.cpp, cuda/bfs.cu), both keeping their books with
// bfs_levels.hpp.
#include "graphrun/algorithms/bfs.hpp"

#include <cmath>
#include <string>

#include "backend.hpp"
#include "graphrun/engine/error.hpp"

namespace graphrun {

namespace {

void validate(const Graph& g, vertex_t source, const BfsOptions& o) {
  if (source < 0 || source >= g.n_vertices())
    throw ArgumentError("bfs: source vertex " + std::to_string(source) + " out of range [0, " +
                        std::to_string(g.n_vertices()) + ")");
  if (std::isnan(o.alpha) || o.alpha < 0) throw ArgumentError("bfs: alpha must be >= 0");
  if (std::isnan(o.beta) || o.beta < 0) throw ArgumentError("bfs: beta must be >= 0");
}

}  // namespace

BfsResult bfs(Context& ctx, const Graph& g, vertex_t source, const BfsOptions& options) {
  validate(g, source, options);
  return detail::backend_for(ctx, "bfs").bfs(ctx, g, source, options);
}

}  // namespace graphrun
