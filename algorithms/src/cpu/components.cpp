// The CPU backend's components: weak by Afforest (components_weak.cpp),
// strong by Tarjan (components_strong.cpp).
#include "cpu_backend.hpp"
#include "graphrun/engine/stopwatch.hpp"

namespace graphrun::detail {

ComponentLabels CpuSteps::components(Context& ctx, const Graph& g,
                                     const ComponentsOptions& options) {
  const Stopwatch t0;
  ComponentLabels r;
  // A directed graph's strong components; an undirected graph's are its
  // weak ones, which Afforest finds in parallel.
  r.label = options.strong && g.directed() ? cpu_strong_components(g) : cpu_weak_components(ctx, g);
  if (options.on_iteration) {
    IterationInfo info;
    info.iteration = 1;
    info.elapsed = t0.seconds();
    options.on_iteration(info);  // after the one pass: nothing is left to stop
  }
  return r;
}

}  // namespace graphrun::detail
