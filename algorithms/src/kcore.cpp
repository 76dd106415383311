// Core numbers (kcore.hpp). The driver: the backend peels
// (cpu/kcore.cpp); here the degeneracy and the top core are counted.
#include "graphrun/algorithms/kcore.hpp"

#include <algorithm>

#include "backend.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/stopwatch.hpp"

namespace graphrun {

KcoreResult core_numbers(Context& ctx, const Graph& g, const KcoreOptions& options) {
  const Stopwatch t0;
  if (g.n_vertices() == 0) return {};
  KcoreResult r = detail::backend_for(ctx, "core_numbers").core_numbers(ctx, g, options);
  if (r.core.size() != static_cast<std::size_t>(g.n_vertices()))
    throw Error("core_numbers: the backend gave " + std::to_string(r.core.size()) +
                " core numbers for " + std::to_string(g.n_vertices()) + " vertices");
  const auto n = static_cast<vertex_t>(r.core.size());
  const vertex_t* core = r.core.data();
  vertex_t top = 0;
#pragma omp parallel for num_threads(ctx.threads()) schedule(static) reduction(max : top)
  for (vertex_t v = 0; v < n; ++v) top = std::max(top, core[v]);
  vertex_t in_top = 0;
#pragma omp parallel for num_threads(ctx.threads()) schedule(static) reduction(+ : in_top)
  for (vertex_t v = 0; v < n; ++v) in_top += core[v] == top ? 1 : 0;
  r.degeneracy = top;
  r.in_top_core = in_top;
  r.seconds = t0.seconds();
  return r;
}

}  // namespace graphrun
