// Beamer's direction rule for BFS (Beamer, Asanović, Patterson, SC'12),
// shared by the CPU (bfs.cpp) and GPU (cuda/bfs.cu) searches so that both
// take the same push and pull steps on the same graph.
//
//   push -> pull when the frontier's out-edges m_f exceed the unexplored
//                edges m_u divided by alpha;
//   pull -> push when the frontier shrinks and holds fewer than n / beta
//                vertices.
//
// m_u is kept as the GAP reference keeps it (its edges_to_check): all
// stored entries at the start, less the out-edges of each frontier pushed
// after a push step. Edges a pull step reads, and the first push after a
// pull, leave it as it is. Taking every frontier's edges off instead (the
// exact count of unexplored edges) shrinks m_u so fast at the end of a
// long-tailed search that the rule swings between pull and push on every
// level of the tail: web-NotreDame's last 18 levels each paid a pull over
// all 325,729 vertices for a frontier of 50 to 180 of them (2.2 ms of a
// 5 ms search on 2 threads, where the GAP reference pushes them all).
#pragma once

#include "graphrun/engine/host_device.hpp"
#include "graphrun/engine/types.hpp"

// The GPU search evaluates the rule inside its device-side level loop too.
namespace graphrun::detail {

struct BfsDirection {
  double alpha;
  double beta;
  offset_t n;  // vertices

  // Whether the step with this frontier (n_f vertices, m_f out-edges; m_u
  // unexplored edges; prev_n_f the previous frontier's size) pulls, given
  // whether the previous step pulled.
  GRAPHRUN_HD bool pull(bool pulled, offset_t n_f, offset_t m_f, offset_t m_u,
                        offset_t prev_n_f) const {
    if (!pulled) return m_f > 0 && static_cast<double>(m_f) > static_cast<double>(m_u) / alpha;
    return !(n_f < prev_n_f && static_cast<double>(n_f) < static_cast<double>(n) / beta);
  }
};

}  // namespace graphrun::detail
