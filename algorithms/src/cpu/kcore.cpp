// Core numbers on the CPU (kcore.hpp): parallel peeling over the undirected
// view of the graph.
//
// The view (undirected_view.cpp): the neighbours of v are the union of its
// row in A and in Aᵀ, without v itself, built once as a pattern CSR so that
// peeling reads one row per vertex.
//
// Peeling (Kabir and Madduri's PKC): level k scans the remaining vertices
// for degree <= k, claims them, and sub-round after sub-round removes
// the claimed vertices: each decrements its remaining neighbours' degrees
// with an atomic fetch_sub, and the one decrement that takes a neighbour
// from k + 1 to k claims it for the next sub-round. A claimed vertex's core
// number is k whatever the order of the decrements. The next level is the
// lowest degree left (the scan's and the decrements' least), so empty
// levels cost nothing.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <vector>

#include "../iteration_report.hpp"
#include "cpu_backend.hpp"
#include "graphrun/engine/stopwatch.hpp"

namespace graphrun::detail {

KcoreResult CpuSteps::core_numbers(Context& ctx, const Graph& g, const KcoreOptions& options) {
  const Stopwatch t0;
  const IterationReport report(options.on_iteration, nullptr, t0);
  const int threads = ctx.threads();
  const Csr<double> u = cpu_undirected_view(g, threads);
  const CsrView<double> s = u.view();
  const vertex_t n = s.n_rows;
  KcoreResult r;
  r.core.assign(static_cast<std::size_t>(n), -1);
  vertex_t* core = r.core.data();
  std::vector<vertex_t> degree(static_cast<std::size_t>(n));
  vertex_t k = std::numeric_limits<vertex_t>::max();  // the first level: the lowest degree
#pragma omp parallel for num_threads(threads) schedule(static) reduction(min : k)
  for (vertex_t v = 0; v < n; ++v) {
    degree[v] = static_cast<vertex_t>(s.row_ptr[v + 1] - s.row_ptr[v]);
    k = std::min(k, degree[v]);
  }

  std::vector<vertex_t> frontier, next;
  frontier.reserve(static_cast<std::size_t>(n));
  vertex_t left = n;
  while (left > 0) {
    // Level k: every remaining vertex of degree <= k, and the lowest degree
    // above k, where the next level starts.
    frontier.clear();
    vertex_t lowest = std::numeric_limits<vertex_t>::max();
#pragma omp parallel num_threads(threads) reduction(min : lowest)
    {
      std::vector<vertex_t> mine;
#pragma omp for schedule(static) nowait
      for (vertex_t v = 0; v < n; ++v) {
        if (core[v] >= 0) continue;
        if (degree[v] <= k) {
          core[v] = k;
          mine.push_back(v);
        } else {
          lowest = std::min(lowest, degree[v]);
        }
      }
#pragma omp critical(graphrun_kcore_frontier)
      frontier.insert(frontier.end(), mine.begin(), mine.end());
    }
    // Sub-rounds: remove the claimed vertices; a neighbour brought down to
    // k is claimed for the next one (and then no longer counts as lowest).
    while (!frontier.empty()) {
      ++r.rounds;
      left -= static_cast<vertex_t>(frontier.size());
      next.clear();
#pragma omp parallel num_threads(threads) reduction(min : lowest)
      {
        std::vector<vertex_t> mine;
#pragma omp for schedule(dynamic, 64) nowait
        for (std::size_t q = 0; q < frontier.size(); ++q) {
          const vertex_t v = frontier[q];
          for (offset_t e = s.row_ptr[v]; e < s.row_ptr[v + 1]; ++e) {
            const vertex_t w = s.col_idx[e];
            if (std::atomic_ref<vertex_t>(core[w]).load(std::memory_order_relaxed) >= 0) continue;
            const vertex_t before =
                std::atomic_ref<vertex_t>(degree[w]).fetch_sub(1, std::memory_order_relaxed);
            if (before == k + 1) {
              std::atomic_ref<vertex_t>(core[w]).store(k, std::memory_order_relaxed);
              mine.push_back(w);
            } else if (before > k + 1) {
              lowest = std::min(lowest, before - 1);  // w stays: its degree is now this
            }
          }
        }
#pragma omp critical(graphrun_kcore_next)
        next.insert(next.end(), mine.begin(), mine.end());
      }
      frontier.swap(next);
    }
    ++r.iterations;
    if (left > 0 && !report.level_done({.iteration = r.iterations, .frontier = left})) {
      r.complete = false;
      break;
    }
    // The next level: the lowest degree left. A vertex's degree is what its
    // last decrement left, or, untouched since the scan, what the scan saw;
    // lowest is the least of both, and every degree left is above k.
    k = lowest == std::numeric_limits<vertex_t>::max() ? k + 1 : lowest;
  }
  return r;
}

}  // namespace graphrun::detail
