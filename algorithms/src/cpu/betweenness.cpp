// Betweenness on the CPU (betweenness.hpp): Brandes from one source at a
// time, each level of the search and of the sweep back in parallel (the GAP
// reference's form).
//
// The vertices reached are kept in `order`, level after level: level d is
// order[level[d] .. level[d + 1]).
//   forward:  each vertex u of level d pushes along its out-edges: a
//             compare-and-swap on depth claims the unseen, and every edge
//             to level d + 1 adds σ(u) to its head's σ (an atomic add) and
//             is marked in a bit per edge as a successor edge;
//   backward: from the deepest level up, each v pulls
//             δ(v) = σ(v) Σ (1 + δ(w)) / σ(w) over its marked edges, in
//             storage order, and adds it to its sum.
// σ counts paths: integers, which a double adds exactly in any order up to
// 2^53, so the atomic adds give the same σ on every run and thread count
// (beyond 2^53 paths, the last bits may differ); δ is a pull in a fixed
// order. Levels of at most `parallel_level` vertices and `parallel_edges`
// edges run on the calling thread: most of a search's levels are small, and
// an OpenMP region costs microseconds. Both bounds: on an R-MAT graph a
// level of a few hundred vertices near the source can hold a large share of
// all the edges (its hubs), and on one thread it is a serial part that the
// other threads wait out.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "../iteration_report.hpp"
#include "cpu_backend.hpp"
#include "graphrun/engine/csr_assembly.hpp"
#include "graphrun/engine/host_trace.hpp"
#include "graphrun/engine/per_thread.hpp"

namespace graphrun::detail {

namespace {

constexpr vertex_t parallel_level = 2048;
constexpr offset_t parallel_edges = offset_t{1} << 15;

class Brandes {
 public:
  // The arrays are filled by all threads, so that their pages are first
  // touched in parallel (a serial fill of tens of megabytes would be a
  // large part of one search on a big graph).
  Brandes(const Graph& g, int threads)
      : a_(g.adj().view()),
        threads_(threads),
        depth_(detail::scratch<vertex_t>(static_cast<std::size_t>(a_.n_rows))),
        sigma_(detail::scratch<double>(static_cast<std::size_t>(a_.n_rows))),
        delta_(detail::scratch<double>(static_cast<std::size_t>(a_.n_rows))),
        order_(detail::scratch<vertex_t>(static_cast<std::size_t>(a_.n_rows))),
        words_((a_.nnz + 63) / 64),
        successor_(detail::scratch<std::uint64_t>(static_cast<std::size_t>(words_))),
        found_(threads) {
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (vertex_t v = 0; v < a_.n_rows; ++v) {
      depth_[v] = -1;
      sigma_[v] = 0;
      delta_[v] = 0;
    }
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (offset_t w = 0; w < words_; ++w) successor_[w] = 0;
    trace_.step("set up");
  }

  // Adds source s's dependencies to sum; returns the levels the search had.
  // The state is cleared for the next source unless `last` says there is
  // none (one source of web-NotreDame, 2 threads: the clearing was 18% of
  // the call).
  int add(vertex_t s, double* sum, bool last) {
    order_[0] = s;
    depth_[s] = 0;
    sigma_[s] = 1;
    level_.assign({0, 1});
    for (vertex_t d = 0;; ++d) {
      const vertex_t end = advance(d);
      if (end == level_.back()) break;
      level_.push_back(end);
    }
    const auto levels = static_cast<int>(level_.size()) - 1;
    trace_.step("forward");
    for (int d = levels - 2; d >= 0; --d) accumulate(d, s, sum);
    trace_.step("back");
    if (!last) reset();
    trace_.step("reset");
    return levels;
  }

 private:
  template <class T>
  static std::atomic_ref<T> atomic(T& x) {
    return std::atomic_ref<T>(x);
  }

  // Level d + 1 from level d: discovers its vertices, adds the paths to
  // them, and marks the edges that lead to them (the successor edges);
  // returns where the level ends in order_.
  vertex_t advance(vertex_t d) {
    const vertex_t begin = level_[d], end = level_[d + 1];
    if (threads_ == 1 || small(d)) return advance_alone(d);
    std::atomic<vertex_t> tail{end};
    // The arrays' addresses in locals: every atomic operation is a barrier
    // to the compiler, after which members read through `this` are loaded
    // again, the row pointers and columns at every edge.
    const offset_t* const row_ptr = a_.row_ptr;
    const vertex_t* const col_idx = a_.col_idx;
    const vertex_t* const order = order_.get();
    vertex_t* const depth = depth_.get();
    double* const sigma = sigma_.get();
    std::uint64_t* const successor = successor_.get();
#pragma omp parallel num_threads(threads_)
    {
      std::vector<vertex_t>& found = found_[omp_get_thread_num()];
      found.clear();
#pragma omp for schedule(dynamic, chunk(end - begin)) nowait
      for (vertex_t i = begin; i < end; ++i) {
        const vertex_t u = order[i];
        const double paths = sigma[u];
        const offset_t row_end = row_ptr[u + 1];
        for (offset_t k = row_ptr[u]; k < row_end; ++k) {
          const vertex_t v = col_idx[k];
          vertex_t seen = atomic(depth[v]).load(std::memory_order_relaxed);
          if (seen == -1 &&
              atomic(depth[v]).compare_exchange_strong(seen, d + 1, std::memory_order_relaxed)) {
            found.push_back(v);
            seen = d + 1;
          }
          if (seen == d + 1) {
            atomic(sigma[v]).fetch_add(paths, std::memory_order_relaxed);
            atomic(successor[static_cast<std::size_t>(k / 64)])
                .fetch_or(std::uint64_t{1} << (k % 64), std::memory_order_relaxed);
          }
        }
      }
      const vertex_t at = tail.fetch_add(static_cast<vertex_t>(found.size()));
      std::copy(found.begin(), found.end(), order_.get() + at);
    }
    return tail.load();
  }

  // advance() on the calling thread: no atomics.
  vertex_t advance_alone(vertex_t d) {
    const vertex_t begin = level_[d], end = level_[d + 1];
    vertex_t tail = end;
    for (vertex_t i = begin; i < end; ++i) {
      const vertex_t u = order_[i];
      const double paths = sigma_[u];
      for (offset_t k = a_.row_ptr[u]; k < a_.row_ptr[u + 1]; ++k) {
        const vertex_t v = a_.col_idx[k];
        if (depth_[v] == -1) {
          depth_[v] = d + 1;
          order_[tail++] = v;
        }
        if (depth_[v] == d + 1) {
          sigma_[v] += paths;
          successor_[static_cast<std::size_t>(k / 64)] |= std::uint64_t{1} << (k % 64);
        }
      }
    }
    return tail;
  }

  // Whether level d is one for the calling thread alone: few vertices and
  // few edges out of them. (With one thread every level is advanced
  // without atomics: web-NotreDame, 64 sources, the compare-and-swaps and
  // the double's atomic adds of the parallel path were most of a search.)
  bool small(vertex_t d) const {
    const vertex_t begin = level_[d], end = level_[d + 1];
    if (end - begin > parallel_level) return false;
    offset_t edges = 0;
    for (vertex_t i = begin; i < end; ++i) {
      const vertex_t v = order_[i];
      edges += a_.row_ptr[v + 1] - a_.row_ptr[v];
    }
    return edges <= parallel_edges;
  }

  // Vertices per chunk of a parallel level: 64, fewer where the level has
  // only a few thousand vertices, where a chunk of 64 of R-MAT's hubs would
  // hold a large part of the level's edges and leave the other threads idle.
  int chunk(vertex_t vertices) const {
    return static_cast<int>(std::clamp<vertex_t>(vertices / (16 * threads_), 1, 64));
  }

  // δ of level d over its successor edges, added to sum (the source's own
  // is not a dependency).
  void accumulate(vertex_t d, vertex_t s, double* sum) {
    const vertex_t begin = level_[d], end = level_[d + 1];
    // (The arrays' addresses in locals, as in advance: the stores to delta
    // and sum, doubles like the sums' other operands, had every member
    // loaded again.)
    const offset_t* const row_ptr = a_.row_ptr;
    const vertex_t* const col_idx = a_.col_idx;
    const std::uint64_t* const successor = successor_.get();
    const double* const sigma = sigma_.get();
    double* const delta = delta_.get();
    auto pull = [=](vertex_t v) {
      double share = 0;
      const offset_t row_end = row_ptr[v + 1];
      for (offset_t k = row_ptr[v]; k < row_end; ++k)
        if ((successor[static_cast<std::size_t>(k / 64)] >> (k % 64)) & 1) {  // a successor edge
          const vertex_t w = col_idx[k];
          share += (1 + delta[w]) / sigma[w];
        }
      delta[v] = sigma[v] * share;
      if (v != s) sum[v] += delta[v];
    };
    if (small(d)) {
      for (vertex_t i = begin; i < end; ++i) pull(order_[i]);
      return;
    }
#pragma omp parallel for num_threads(threads_) schedule(dynamic, chunk(end - begin))
    for (vertex_t i = begin; i < end; ++i) pull(order_[i]);
  }

  // Only what the search touched: the reached vertices, and the words of
  // successor bits over their rows (bits are set only in the rows of
  // reached vertices, so clearing a whole word shared with another row
  // loses nothing).
  void reset() {
    const vertex_t end = level_.back();
    auto clear = [this](vertex_t v) {
      depth_[v] = -1;
      sigma_[v] = 0;
      delta_[v] = 0;
      const offset_t first = a_.row_ptr[v], last = a_.row_ptr[v + 1];
      if (first == last) return;
      for (offset_t w = first / 64; w <= (last - 1) / 64; ++w)
        atomic(successor_[static_cast<std::size_t>(w)]).store(0, std::memory_order_relaxed);
    };
    if (end <= 4 * parallel_level) {
      for (vertex_t i = 0; i < end; ++i) clear(order_[i]);
      return;
    }
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 256)
    for (vertex_t i = 0; i < end; ++i) clear(order_[i]);
  }

  // GRAPHRUN_TRACE: the set-up, then each search's steps. First, so that
  // its clock starts before the arrays are made.
  HostTrace trace_{"betweenness"};
  CsrView<double> a_;
  int threads_;
  std::unique_ptr<vertex_t[]> depth_;
  std::unique_ptr<double[]> sigma_, delta_;
  std::unique_ptr<vertex_t[]> order_;
  offset_t words_;
  std::unique_ptr<std::uint64_t[]> successor_;  // a bit per edge of A: it leads one level down
  PerThread<std::vector<vertex_t>> found_;      // each thread's part of the next level
  std::vector<vertex_t> level_;
};

}  // namespace

BetweennessSums CpuSteps::betweenness(Context& ctx, const Graph& g,
                                      std::span<const vertex_t> sources,
                                      const BetweennessOptions& options) {
  const Stopwatch t0;
  const IterationReport report(options.on_iteration, nullptr, t0);
  BetweennessSums r;
  r.sum.assign(static_cast<std::size_t>(g.n_vertices()), 0.0);
  Brandes brandes(g, ctx.threads());
  for (vertex_t s : sources) {
    const int levels =
        brandes.add(s, r.sum.data(), r.sources_done + 1 == static_cast<int>(sources.size()));
    ++r.sources_done;
    if (!report.level_done({.iteration = r.sources_done, .frontier = levels}) &&
        r.sources_done < static_cast<int>(sources.size())) {
      r.complete = false;
      break;
    }
  }
  return r;
}

}  // namespace graphrun::detail
