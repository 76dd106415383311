// The CPU backend's shortest paths: delta-stepping (sssp_delta_stepping.cpp)
// or Bellman-Ford as min-plus SpMV sweeps (below).
#include <algorithm>
#include <limits>
#include <vector>

#include "../iteration_report.hpp"
#include "cpu_backend.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/kernels/spmv.hpp"

namespace graphrun::detail {

namespace {

// The smallest position of a negative weight in a (-1: none).
offset_t first_negative(const CsrView<double>& a, int threads) {
  offset_t first = std::numeric_limits<offset_t>::max();
  if (a.values) {
#pragma omp parallel for num_threads(threads) schedule(static) reduction(min : first)
    for (offset_t k = 0; k < a.nnz; ++k)
      if (!(a.values[k] >= 0)) first = std::min(first, k);
  }
  return first == std::numeric_limits<offset_t>::max() ? -1 : first;
}

// d <- min(d, Aᵀ ⊗ d) over (min, +) until no distance changes: the OpenMP
// CSR SpMV over the transpose's rows (each vertex's in-edges), then an
// elementwise minimum that counts the changes.
SsspDistances bellman_ford(Context& ctx, const Graph& g, vertex_t source,
                           const SsspOptions& options) {
  const Stopwatch t0;
  const IterationReport report(options.on_iteration, nullptr, t0);
  const auto n = static_cast<std::size_t>(g.n_vertices());
  const int threads = ctx.threads();
  SsspDistances r;
  r.negative_edge = first_negative(g.adj().view(), threads);
  if (r.negative_edge >= 0) return r;
  const CsrView<double> at = g.transpose().view();
  r.distance.assign(n, std::numeric_limits<double>::infinity());
  r.distance[source] = 0;
  std::vector<double> relaxed(n);
  for (;;) {
    spmv<MinPlus<double>>(ctx, at, r.distance.data(), relaxed.data());
    r.relaxations += at.nnz;
    ++r.iterations;
    offset_t changed = 0;
    double* d = r.distance.data();
    const double* y = relaxed.data();
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : changed)
    for (std::size_t v = 0; v < n; ++v)
      if (y[v] < d[v]) {
        d[v] = y[v];
        ++changed;
      }
    if (!report.level_done({.iteration = r.iterations, .frontier = changed}) && changed > 0) {
      r.complete = false;
      break;
    }
    if (changed == 0) break;
  }
  return r;
}

}  // namespace

SsspDistances CpuSteps::sssp(Context& ctx, const Graph& g, vertex_t source,
                             const SsspSetup& setup) {
  if (setup.options.method == SsspMethod::bellman_ford)
    return bellman_ford(ctx, g, source, setup.options);
  return cpu_delta_stepping(ctx, g, source, setup);
}

}  // namespace graphrun::detail
