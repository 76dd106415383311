// Single-source shortest paths (sssp.hpp). The driver: the checks, the
// bucket width, the backend's search (cpu/sssp*.cpp, cuda/sssp.cu), and the
// summary of the distances.
#include "graphrun/algorithms/sssp.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "backend.hpp"
#include "graphrun/engine/error.hpp"

namespace graphrun {

namespace {

// c · mean weight / mean out-degree, 1 where every weight is 1. The GPU
// takes Davidson et al.'s c = 32 (a bucket then holds about a warp of edges
// per vertex, and each bucket costs it a few round trips to the host); the
// CPU c = 2, since its buckets cost a barrier each and wide ones re-relax
// much (Kronecker scale 18, weights 1..255, 2 threads: delta 2 / 8 / 32 / 91
// took 0.33 / 0.37 / 0.90 / 0.94 s). The mean weight is read from at most
// 65,536 entries spread evenly over the adjacency, so the rule costs
// nothing beside the search.
double automatic_delta(const Context& ctx, const Graph& g) {
  const Csr<double>& a = g.adj();
  if (a.is_pattern() || a.nnz() == 0) return 1.0;
  const offset_t m = a.nnz();
  const offset_t step = std::max<offset_t>(1, m / 65536);
  double sum = 0;
  offset_t count = 0;
  for (offset_t k = 0; k < m; k += step, ++count) sum += std::max(a.values()[k], 0.0);
  const double mean_weight = sum / static_cast<double>(count);
  const double mean_degree = static_cast<double>(m) / static_cast<double>(g.n_vertices());
  const double c = ctx.device() == Device::cuda ? 32.0 : 2.0;
  const double delta = c * mean_weight / std::max(mean_degree, 1.0);
  return delta > 0 && std::isfinite(delta) ? delta : 1.0;
}

[[noreturn]] void refuse_negative(const Graph& g, offset_t k) {
  const Csr<double>& a = g.adj();
  const auto& row_ptr = a.row_ptr();
  const auto u = static_cast<vertex_t>(std::upper_bound(row_ptr.begin(), row_ptr.end(), k) -
                                       row_ptr.begin() - 1);
  char weight[32];
  std::snprintf(weight, sizeof weight, "%g", a.values()[k]);
  throw ArgumentError("sssp: the edge " + g.label(u) + " -> " + g.label(a.col_idx()[k]) +
                      " has weight " + weight + "; shortest paths need weights >= 0");
}

}  // namespace

SsspResult sssp(Context& ctx, const Graph& g, vertex_t source, const SsspOptions& options) {
  const Stopwatch t0;
  if (source < 0 || source >= g.n_vertices())
    throw ArgumentError("sssp: source vertex " + std::to_string(source) + " out of range [0, " +
                        std::to_string(g.n_vertices()) + ")");
  if (!(options.delta >= 0) || !std::isfinite(options.delta))
    throw ArgumentError("sssp: delta must be a finite number >= 0 (0: automatic)");
  SsspResult r;
  if (options.method == SsspMethod::delta_stepping)
    r.delta = options.delta > 0 ? options.delta : automatic_delta(ctx, g);
  const detail::SsspSetup setup{options, r.delta};
  detail::SsspDistances found = detail::backend_for(ctx, "sssp").sssp(ctx, g, source, setup);
  if (found.negative_edge >= 0) refuse_negative(g, found.negative_edge);
  if (found.distance.size() != static_cast<std::size_t>(g.n_vertices()))
    throw Error("sssp: the backend gave " + std::to_string(found.distance.size()) +
                " distances for " + std::to_string(g.n_vertices()) + " vertices");
  r.distance = std::move(found.distance);
  const auto n = static_cast<vertex_t>(r.distance.size());
  const double* d = r.distance.data();
  vertex_t reached = 0;
  double farthest = 0;
#pragma omp parallel for num_threads(ctx.threads()) schedule(static) reduction(+ : reached) \
    reduction(max : farthest)
  for (vertex_t v = 0; v < n; ++v)
    if (std::isfinite(d[v])) {
      ++reached;
      farthest = std::max(farthest, d[v]);
    }
  r.reached = reached;
  r.max_distance = farthest;
  r.iterations = found.iterations;
  r.relaxations = found.relaxations;
  r.complete = found.complete;
  r.compute_seconds = found.compute_seconds;
  r.seconds = t0.seconds();
  return r;
}

}  // namespace graphrun
