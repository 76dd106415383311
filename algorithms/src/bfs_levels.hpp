// The books of a direction-optimizing BFS, kept the same way by every
// backend's level loop (cpu/bfs_search.cpp, cuda/bfs.cu): the state of
// Beamer's direction rule (bfs_direction.hpp), the counts of the result,
// and each level reported through the callback contract (iteration.hpp).
// The GPU runs levels back to back on the device and replays their counts
// here afterwards, so its result and its direction choices are the CPU's.
#pragma once

#include <cstdint>

#include "bfs_direction.hpp"
#include "graphrun/algorithms/bfs.hpp"
#include "graphrun/engine/csr.hpp"
#include "graphrun/kernels/frontier.hpp"
#include "iteration_report.hpp"

namespace graphrun::detail {

class BfsLevels {
 public:
  // A search from `source` over `a`; res.reached and res.depth start at 1.
  BfsLevels(const BfsOptions& o, const CsrView<double>& a, vertex_t source, BfsResult& res)
      : direction_{o.alpha, o.beta, offset_t{a.n_rows}} {
    n_f = 1;
    m_f = a.row_ptr[source + 1] - a.row_ptr[source];
    m_u = a.nnz;
    max_degree = m_f;  // of the frontier: the source alone
    res.reached = 1;
    res.depth = 1;
  }

  // A frontier without vertices or out-edges reaches nothing more.
  bool more() const noexcept { return n_f > 0 && m_f > 0; }

  // Whether the next step pulls.
  bool pull_next() const noexcept { return direction_.pull(pulled, n_f, m_f, m_u, prev_n_f); }

  const BfsDirection& direction() const noexcept { return direction_; }

  // After the step at `depth` that found c (c.pulled says how).
  void step(const FrontierCounts& c, std::int32_t depth, BfsResult& res) {
    // Push steps count the frontier's out-edges; pull steps an upper
    // bound, the in-edges of the unvisited vertices (rows stop at their
    // first hit).
    res.edges_examined += c.pulled ? static_cast<offset_t>(c.scanned) : m_f;
    ++(c.pulled ? res.pull_steps : res.push_steps);
    if (!c.pulled && !pulled) m_u -= m_f;  // bfs_direction.hpp: the GAP reference's m_u
    pulled = c.pulled != 0;
    prev_n_f = n_f;
    n_f = static_cast<offset_t>(c.vertices);
    m_f = static_cast<offset_t>(c.edges);
    max_degree = static_cast<offset_t>(c.max_degree);
    res.reached += static_cast<vertex_t>(n_f);
    if (n_f > 0) res.depth = depth + 1;
  }

  // Tells the progress display and the callback about the steps so far;
  // false when the callback asks to stop.
  bool report(const IterationReport& r, const BfsResult& res) const {
    return r.level_done({.iteration = res.push_steps + res.pull_steps, .frontier = n_f});
  }

  // The rule's state: the frontier's size and out-edges, the unexplored
  // edges, the previous frontier's size, whether the last step pulled; and
  // the frontier's largest out-degree (the GPU's device-side loop takes
  // push levels only below a bound on it).
  offset_t n_f = 0, m_f = 0, m_u = 0, prev_n_f = 0, max_degree = 0;
  bool pulled = false;

 private:
  BfsDirection direction_;
};

}  // namespace graphrun::detail
