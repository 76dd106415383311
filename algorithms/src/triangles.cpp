// Triangles (triangles.hpp). The driver: the backend counts
// (cpu/triangles.cpp, cuda/triangles.cu); here the coefficients are derived
// from the counts and the degrees.
#include "graphrun/algorithms/triangles.hpp"

#include <string>

#include "backend.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/stopwatch.hpp"

namespace graphrun {

TriangleResult triangles(Context& ctx, const Graph& g, const TriangleOptions& options) {
  const Stopwatch t0;
  if (g.n_vertices() == 0) return {};
  detail::TriangleCounts c = detail::backend_for(ctx, "triangles").triangles(ctx, g, options);
  const auto n = static_cast<std::size_t>(g.n_vertices());
  if (c.degree.size() != n || (options.per_vertex && c.per_vertex.size() != n))
    throw Error("triangles: the backend gave counts for " + std::to_string(c.degree.size()) +
                " vertices of " + std::to_string(n));
  TriangleResult r;
  r.total = c.total;
  r.edges = c.edges;
  r.compute_seconds = c.compute_seconds;
  const vertex_t* degree = c.degree.data();
  const auto vertices = static_cast<vertex_t>(n);
  std::uint64_t wedges = 0;
#pragma omp parallel for num_threads(ctx.threads()) schedule(static) reduction(+ : wedges)
  for (vertex_t v = 0; v < vertices; ++v) {
    const auto d = static_cast<std::uint64_t>(degree[v]);
    wedges += d * (d > 0 ? d - 1 : 0) / 2;
  }
  r.wedges = wedges;
  r.transitivity =
      wedges > 0 ? 3.0 * static_cast<double>(r.total) / static_cast<double>(wedges) : 0;
  if (options.per_vertex) {
    r.clustering.resize(n);
    double* clustering = r.clustering.data();
    const std::uint64_t* through = c.per_vertex.data();
    double sum = 0;
#pragma omp parallel for num_threads(ctx.threads()) schedule(static) reduction(+ : sum)
    for (vertex_t v = 0; v < vertices; ++v) {
      const double d = degree[v];
      clustering[v] = d < 2 ? 0.0 : 2.0 * static_cast<double>(through[v]) / (d * (d - 1));
      sum += clustering[v];
    }
    r.average_clustering = sum / static_cast<double>(n);
    r.per_vertex = std::move(c.per_vertex);
  }
  r.degree = std::move(c.degree);
  r.seconds = t0.seconds();
  return r;
}

}  // namespace graphrun
