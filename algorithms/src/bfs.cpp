// Direction-optimizing breadth-first search (Beamer, Asanović, Patterson,
// "Direction-Optimizing Breadth-First Search", SC'12), in the linear-algebra
// form of GraphBLAS/LAGraph:
//
//   push (top-down):  each frontier vertex scans its out-edges and claims
//                     unvisited targets (compare-and-swap on level); the
//                     frontier is a vertex list.
//   pull (bottom-up): next = Aᵀ frontier over OrAnd, masked by the
//                     complement of `visited`: one SpMV whose rows stop at
//                     the first in-neighbour in the frontier (is_terminal).
//                     The frontier is a dense byte vector.
//
// Direction rule (gapbs): go pull when the frontier's out-edges m_f exceed
// the out-edges of unvisited vertices m_u divided by alpha; go back to push
// when the frontier shrinks and holds fewer than n / beta vertices.
// alpha = 0 never pulls; alpha = beta = infinity pulls from the first
// non-empty frontier on.
//
// Parents: in pull steps the SpMV runs over AnySecond (x(u) = u+1 for a
// frontier vertex, "any" as add), which yields the in-neighbour that ended
// the row; levels alone use OrAnd on bytes.
#include "graphrun/algorithms/bfs.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "bfs_direction.hpp"
#include "gpu_backend.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/kernels/spmv.hpp"

namespace graphrun {

namespace {

// "Any, second" over vertex ids shifted by one (0 = none): y(i) is x(k) for
// some k with A(i,k) != 0 and x(k) != 0, or 0. Terminal at the first hit,
// so y(i) is the first frontier in-neighbour in column order.
struct AnySecond {
  using value_type = std::int32_t;
  static constexpr value_type zero() { return 0; }
  static constexpr value_type add(value_type a, value_type b) { return a != 0 ? a : b; }
  static constexpr value_type mul(value_type a, value_type b) { return a != 0 ? b : 0; }
  static constexpr bool is_terminal(value_type v) { return v != 0; }
  template <class T>
  static constexpr value_type from_entry(T a) {
    return a != T(0) ? 1 : 0;
  }
};

// What a frontier vertex v looks like in the dense vector of semiring S,
// and the parent a non-zero result names.
template <class S>
typename S::value_type frontier_mark(vertex_t v) {
  if constexpr (std::is_same_v<S, AnySecond>)
    return v + 1;
  else
    return 1;
}

void validate(const Graph& g, vertex_t source, const BfsOptions& o) {
  if (source < 0 || source >= g.n_vertices())
    throw ArgumentError("bfs: source vertex " + std::to_string(source) + " out of range [0, " +
                        std::to_string(g.n_vertices()) + ")");
  if (std::isnan(o.alpha) || o.alpha < 0) throw ArgumentError("bfs: alpha must be >= 0");
  if (std::isnan(o.beta) || o.beta < 0) throw ArgumentError("bfs: beta must be >= 0");
}

template <class S>
class Bfs {
 public:
  using V = typename S::value_type;

  Bfs(Context& ctx, const Graph& g, const BfsOptions& o)
      : ctx_(ctx), g_(g), o_(o), a_(g.adj().view()), n_(g.n_vertices()), threads_(ctx.threads()) {}

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
    offset_t m_f = degree(source);
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
        to_queue();
        dense = false;
      }
      prev_n_f_ = n_f;

      StepCount c = dense ? pull(res, depth) : push(res, depth);
      if (dense)
        ++res.pull_steps;
      else
        ++res.push_steps;
      n_f = c.vertices;
      m_f = c.edges;
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
  struct StepCount {
    offset_t vertices = 0;  // new frontier size
    offset_t edges = 0;     // its out-edges
  };

  offset_t degree(vertex_t v) const { return a_.row_ptr[v + 1] - a_.row_ptr[v]; }

  // Top-down step over queue_: claim unvisited out-neighbours.
  StepCount push(BfsResult& res, std::int32_t depth) {
    const std::size_t nq = queue_.size();
    std::vector<std::vector<vertex_t>> local(threads_);
    offset_t scanned = 0, new_edges = 0;
    std::int32_t* level = res.level.data();
    vertex_t* parent = o_.parents ? res.parent.data() : nullptr;
#pragma omp parallel num_threads(threads_) reduction(+ : scanned, new_edges)
    {
      std::vector<vertex_t>& mine = local[omp_get_thread_num()];
#pragma omp for schedule(dynamic, 64) nowait
      for (std::size_t q = 0; q < nq; ++q) {
        const vertex_t u = queue_[q];
        const offset_t end = a_.row_ptr[u + 1];
        scanned += end - a_.row_ptr[u];
        for (offset_t k = a_.row_ptr[u]; k < end; ++k) {
          const vertex_t v = a_.col_idx[k];
          std::atomic_ref<std::int32_t> lv(level[v]);
          if (lv.load(std::memory_order_relaxed) != -1) continue;
          std::int32_t expected = -1;
          if (lv.compare_exchange_strong(expected, depth, std::memory_order_relaxed)) {
            if (parent) parent[v] = u;
            visited_[v] = 1;
            mine.push_back(v);
            new_edges += degree(v);
          }
        }
      }
    }
    res.edges_examined += scanned;
    queue_.clear();
    for (auto& l : local) queue_.insert(queue_.end(), l.begin(), l.end());
    return {static_cast<offset_t>(queue_.size()), new_edges};
  }

  // Bottom-up step: next = Aᵀ front_ masked by unvisited, then one pass
  // that records the new level and turns next into the new frontier.
  StepCount pull(BfsResult& res, std::int32_t depth) {
    const CsrView<double>& at = transpose();
    spmv<S>(ctx_, at, front_.data(), next_.data(), Mask{visited_.data(), true});
    std::int32_t* level = res.level.data();
    vertex_t* parent = o_.parents ? res.parent.data() : nullptr;
    offset_t count = 0, new_edges = 0, scanned = 0;
#pragma omp parallel for num_threads(threads_) schedule(static) \
    reduction(+ : count, new_edges, scanned)
    for (vertex_t v = 0; v < n_; ++v) {
      if (visited_[v]) {
        next_[v] = 0;  // untouched by the masked SpMV: clear stale values
        continue;
      }
      scanned += at.row_ptr[v + 1] - at.row_ptr[v];
      const V hit = next_[v];
      if (hit == 0) continue;
      visited_[v] = 1;
      level[v] = depth;
      if constexpr (std::is_same_v<S, AnySecond>) {
        if (parent) parent[v] = hit - 1;
      }
      next_[v] = frontier_mark<S>(v);
      ++count;
      new_edges += degree(v);
    }
    // Upper bound: unvisited vertices' in-edges; rows stop at their first hit.
    res.edges_examined += scanned;
    front_.swap(next_);
    return {count, new_edges};
  }

  const CsrView<double>& transpose() {
    // BFS follows structure: a pattern view, so a stored zero weight still
    // counts as an edge (as in push steps) and no values are streamed.
    if (at_.row_ptr == nullptr) {
      at_ = g_.transpose().view();
      at_.values = nullptr;
    }
    return at_;
  }

  void to_dense() {
    if (front_.size() != static_cast<std::size_t>(n_)) {
      front_.assign(n_, 0);
      next_.assign(n_, 0);
    } else {
      std::fill(front_.begin(), front_.end(), V(0));
    }
    for (vertex_t v : queue_) front_[v] = frontier_mark<S>(v);
    queue_.clear();
  }

  void to_queue() {
    queue_.clear();
    std::vector<std::vector<vertex_t>> local(threads_);
#pragma omp parallel num_threads(threads_)
    {
      std::vector<vertex_t>& mine = local[omp_get_thread_num()];
#pragma omp for schedule(static)
      for (vertex_t v = 0; v < n_; ++v)
        if (front_[v] != 0) mine.push_back(v);
    }
    for (auto& l : local) queue_.insert(queue_.end(), l.begin(), l.end());
  }

  Context& ctx_;
  const Graph& g_;
  const BfsOptions& o_;
  CsrView<double> a_;
  CsrView<double> at_{};
  vertex_t n_;
  int threads_;
  offset_t prev_n_f_ = 0;
  std::vector<std::uint8_t> visited_;
  std::vector<vertex_t> queue_;
  std::vector<V> front_, next_;
};

}  // namespace

BfsResult bfs(Context& ctx, const Graph& g, vertex_t source, const BfsOptions& options) {
  validate(g, source, options);
  if (ctx.device() == Device::cuda) {
    return detail::bfs_cuda(ctx, g, source, options);
  }
  if (options.parents) return Bfs<AnySecond>(ctx, g, options).run(source);
  return Bfs<OrAnd>(ctx, g, options).run(source);
}

}  // namespace graphrun
