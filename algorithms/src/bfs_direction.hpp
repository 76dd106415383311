// Beamer's direction rule for BFS (Beamer, Asanović, Patterson, SC'12),
// shared by the CPU (bfs.cpp) and GPU (cuda/bfs.cu) searches so that both
// take the same push and pull steps on the same graph.
//
//   push -> pull when the frontier's out-edges m_f exceed the out-edges of
//                the unvisited vertices m_u divided by alpha;
//   pull -> push when the frontier shrinks and holds fewer than n / beta
//                vertices.
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
