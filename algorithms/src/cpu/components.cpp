// The CPU backend's components: weak by Afforest (components_weak.cpp),
// strong by Tarjan (components_strong.cpp).
#include "cpu_backend.hpp"

namespace graphrun::detail {

ComponentLabels CpuSteps::components(Context& ctx, const Graph& g,
                                     const ComponentsOptions& options) {
  ComponentLabels r;
  // A directed graph's strong components; an undirected graph's are its
  // weak ones, which Afforest finds in parallel.
  const bool strong = options.strong && g.directed();
  r.label = strong ? cpu_strong_components(g) : cpu_weak_components(ctx, g);
  r.smallest = !strong;  // the forest's roots are the smallest vertices of their trees
  return r;
}

}  // namespace graphrun::detail
