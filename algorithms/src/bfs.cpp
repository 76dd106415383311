// Direction-optimizing breadth-first search (Beamer, Asanović, Patterson,
// "Direction-Optimizing Breadth-First Search", SC'12), over the frontier
// operator of the kernels (graphrun/kernels/cpu/frontier.hpp):
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
// the out-edges of unvisited vertices m_u divided by alpha; go back to push
// when the frontier shrinks and holds fewer than n / beta vertices.
// alpha = 0 never pulls; alpha = beta = infinity pulls from the first
// non-empty frontier on.
#include "graphrun/algorithms/bfs.hpp"

#include <atomic>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "bfs_direction.hpp"
#include "gpu_backend.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/kernels/cpu/frontier.hpp"
#include "graphrun/kernels/frontier.hpp"

namespace graphrun {

namespace {

void validate(const Graph& g, vertex_t source, const BfsOptions& o) {
  if (source < 0 || source >= g.n_vertices())
    throw ArgumentError("bfs: source vertex " + std::to_string(source) + " out of range [0, " +
                        std::to_string(g.n_vertices()) + ")");
  if (std::isnan(o.alpha) || o.alpha < 0) throw ArgumentError("bfs: alpha must be >= 0");
  if (std::isnan(o.beta) || o.beta < 0) throw ArgumentError("bfs: beta must be >= 0");
}

class Bfs {
 public:
  Bfs(const Context& ctx, const Graph& g, const BfsOptions& o)
      : g_(g), o_(o), a_(g.adj().view()), n_(g.n_vertices()), threads_(ctx.threads()) {}

  BfsResult run(vertex_t source) {
    const Stopwatch t0;
    BfsResult res;
    res.level.assign(n_, -1);
    if (o_.parents) res.parent.assign(n_, -1);
    visited_.assign(n_, 0);

    res.level[source] = 0;
    visited_[source] = 1;
    if (o_.parents) res.parent[source] = source;
    queue_.assign(1, source);
    bool dense = false;  // frontier representation: queue_ (push) or front_ (pull)
    const detail::BfsDirection direction{o_.alpha, o_.beta, offset_t{n_}};
    offset_t n_f = 1;
    offset_t m_f = frontier_row_length(a_.row_ptr, source);
    offset_t m_u = a_.nnz - m_f;
    res.reached = 1;
    res.depth = 1;

    // A frontier without out-edges reaches nothing more: stop there.
    for (std::int32_t depth = 1; n_f > 0 && m_f > 0; ++depth) {
      // Choose the direction of this step.
      const bool pull_step = direction.pull(dense, n_f, m_f, m_u, prev_n_f_);
      if (pull_step && !dense) {
        to_dense();
        dense = true;
      } else if (!pull_step && dense) {
        cpu::bitmap_to_queue(front_.data(), n_, queue_, threads_);
        dense = false;
      }
      prev_n_f_ = n_f;

      const FrontierCounts c = dense ? pull(res, depth) : push(res, depth);
      if (dense)
        ++res.pull_steps;
      else
        ++res.push_steps;
      // Push steps count the frontier's out-edges; pull steps an upper
      // bound, the in-edges of the unvisited vertices (rows stop at their
      // first hit).
      res.edges_examined += dense ? static_cast<offset_t>(c.scanned) : m_f;
      n_f = static_cast<offset_t>(c.vertices);
      m_f = static_cast<offset_t>(c.edges);
      m_u -= m_f;
      res.reached += static_cast<vertex_t>(n_f);
      if (n_f > 0) res.depth = depth + 1;

      if (o_.progress) {
        o_.progress->start(res.push_steps + res.pull_steps);
        o_.progress->frontier.store(n_f, std::memory_order_relaxed);
      }
      if (o_.on_iteration) {
        IterationInfo info;
        info.iteration = res.push_steps + res.pull_steps;
        info.frontier = n_f;
        info.elapsed = t0.seconds();
        if (!o_.on_iteration(info)) break;
      }
    }
    res.seconds = t0.seconds();
    return res;
  }

 private:
  // Top-down step over queue_: claim unvisited out-neighbours.
  FrontierCounts push(BfsResult& res, std::int32_t depth) {
    const ClaimUnvisited claim{res.level.data(), o_.parents ? res.parent.data() : nullptr,
                               visited_.data(), depth};
    const FrontierCounts c = cpu::advance_push(a_, queue_, next_queue_, claim, threads_);
    queue_.swap(next_queue_);
    return c;
  }

  // Bottom-up step: every unvisited vertex looks for an in-neighbour in
  // front_; next_ becomes the new frontier. Only v's thread writes v's
  // state: no atomics.
  FrontierCounts pull(BfsResult& res, std::int32_t depth) {
    std::int32_t* level = res.level.data();
    vertex_t* parent = o_.parents ? res.parent.data() : nullptr;
    std::uint8_t* visited = visited_.data();
    const auto reach = [level, parent, visited, depth](vertex_t u, vertex_t v) {
      visited[v] = 1;
      level[v] = depth;
      if (parent) parent[v] = u;
      return true;
    };
    const FrontierCounts c =
        cpu::advance_pull(transpose(), a_.row_ptr, BitmapClear{visited}, BitmapSet{front_.data()},
                          reach, next_.data(), threads_);
    front_.swap(next_);
    return c;
  }

  const CsrView<double>& transpose() {
    // BFS follows structure: a pattern view, so a stored zero weight still
    // counts as an edge (as in push steps) and no values are read.
    if (at_.row_ptr == nullptr) {
      at_ = g_.transpose().view();
      at_.values = nullptr;
    }
    return at_;
  }

  void to_dense() {
    if (front_.size() != static_cast<std::size_t>(n_)) {
      front_.resize(n_);
      next_.resize(n_);
    }
    cpu::queue_to_bitmap(queue_, front_.data(), n_);
    queue_.clear();
  }

  const Graph& g_;
  const BfsOptions& o_;
  CsrView<double> a_;
  CsrView<double> at_{};
  vertex_t n_;
  int threads_;
  offset_t prev_n_f_ = 0;
  std::vector<std::uint8_t> visited_;
  std::vector<vertex_t> queue_, next_queue_;
  std::vector<std::uint8_t> front_, next_;
};

}  // namespace

BfsResult bfs(Context& ctx, const Graph& g, vertex_t source, const BfsOptions& options) {
  validate(g, source, options);
  if (ctx.device() == Device::cuda) {
    return detail::bfs_cuda(ctx, g, source, options);
  }
  return Bfs(ctx, g, options).run(source);
}

}  // namespace graphrun
