// Boost.Graph's core_numbers over a graph's undirected simple view (edge
// direction, self loops and repeats dropped): the oracle of the k-core
// tests. Test-only.
#pragma once

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/core_numbers.hpp>
#include <boost/property_map/property_map.hpp>
#include <set>
#include <utility>
#include <vector>

#include "graphrun/engine/graph.hpp"

namespace graphrun::test {

inline std::vector<vertex_t> boost_core_numbers(const Graph& g) {
  using BG = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
  const vertex_t n = g.n_vertices();
  std::set<std::pair<vertex_t, vertex_t>> edges;
  const auto& a = g.adj();
  for (vertex_t u = 0; u < n; ++u)
    for (vertex_t v : a.row_cols(u))
      if (u != v) edges.emplace(std::min(u, v), std::max(u, v));
  BG bg(static_cast<std::size_t>(n));
  for (const auto& [u, v] : edges) boost::add_edge(u, v, bg);
  std::vector<int> core(static_cast<std::size_t>(n));
  boost::core_numbers(
      bg, boost::make_iterator_property_map(core.begin(), boost::get(boost::vertex_index, bg)));
  return {core.begin(), core.end()};
}

}  // namespace graphrun::test
