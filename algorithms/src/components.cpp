// Connected components (components.hpp). The driver: the backend finds the
// components (cpu/components_weak.cpp and components_strong.cpp,
// cuda/components.cu) with whatever vertex it likes as each one's label;
// here every component is renamed after its smallest vertex and counted,
// so the result is the same whichever backend and schedule made it.
#include "graphrun/algorithms/components.hpp"

#include <algorithm>
#include <cstdint>

#include "backend.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/stopwatch.hpp"

namespace graphrun {

namespace {

// Renames each component after its smallest vertex and fills the counts.
// Two passes over the vertices, serial: O(n) with no random access beyond
// one array of n, a few milliseconds per million vertices.
void name_by_smallest(std::vector<vertex_t>& label, ComponentsResult& r) {
  const auto n = static_cast<vertex_t>(label.size());
  std::vector<vertex_t> smallest(label.size(), -1);
  std::vector<vertex_t> size(label.size(), 0);
  for (vertex_t v = 0; v < n; ++v) {
    const vertex_t l = label[v];
    if (l < 0 || l >= n)
      throw Error("connected_components: the backend gave vertex " + std::to_string(v) +
                  " the label " + std::to_string(l) + ", outside [0, " + std::to_string(n) + ")");
    if (smallest[l] < 0) smallest[l] = v;  // v ascends: the first seen is the smallest
  }
  for (vertex_t v = 0; v < n; ++v) {
    const vertex_t c = smallest[label[v]];
    label[v] = c;
    if (size[c]++ == 0) ++r.count;
    if (size[c] > r.largest || (size[c] == r.largest && c < r.largest_component)) {
      r.largest = size[c];
      r.largest_component = c;
    }
  }
}

}  // namespace

ComponentsResult connected_components(Context& ctx, const Graph& g,
                                      const ComponentsOptions& options) {
  const Stopwatch t0;
  ComponentsResult r;
  if (g.n_vertices() == 0) {
    r.iterations = 0;
    return r;
  }
  detail::ComponentLabels found =
      detail::backend_for(ctx, "connected_components").components(ctx, g, options);
  if (found.label.size() != static_cast<std::size_t>(g.n_vertices()))
    throw Error("connected_components: the backend labelled " + std::to_string(found.label.size()) +
                " of " + std::to_string(g.n_vertices()) + " vertices");
  name_by_smallest(found.label, r);
  r.component = std::move(found.label);
  r.iterations = found.iterations;
  r.complete = found.complete;
  r.compute_seconds = found.compute_seconds;
  r.seconds = t0.seconds();
  return r;
}

}  // namespace graphrun
