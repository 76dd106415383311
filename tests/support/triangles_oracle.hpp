// Triangles by the textbook loop, the oracle of the triangle tests: over the
// undirected simple view (direction, self loops and repeats dropped), every
// u < v < w with all three edges present, found by binary searches in id
// order, none of the kernel's orientation or merging. Test-only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "graphrun/engine/graph.hpp"

namespace graphrun::test {

struct TriangleOracle {
  std::uint64_t total = 0;
  std::vector<std::uint64_t> per_vertex;
  std::vector<vertex_t> degree;
};

inline TriangleOracle reference_triangles(const Graph& g) {
  const vertex_t n = g.n_vertices();
  std::vector<std::vector<vertex_t>> adj(static_cast<std::size_t>(n));
  const auto& a = g.adj();
  for (vertex_t u = 0; u < n; ++u)
    for (vertex_t v : a.row_cols(u))
      if (u != v) adj[u].push_back(v), adj[v].push_back(u);
  for (auto& row : adj) {
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
  }
  TriangleOracle r;
  r.per_vertex.assign(static_cast<std::size_t>(n), 0);
  for (vertex_t u = 0; u < n; ++u) {
    r.degree.push_back(static_cast<vertex_t>(adj[u].size()));
    for (vertex_t v : adj[u]) {
      if (v <= u) continue;
      for (vertex_t w : adj[v])
        if (w > v && std::binary_search(adj[u].begin(), adj[u].end(), w)) {
          ++r.total;
          ++r.per_vertex[u], ++r.per_vertex[v], ++r.per_vertex[w];
        }
    }
  }
  return r;
}

}  // namespace graphrun::test
