// Boost.Graph's dijkstra_shortest_paths over a graph's out-edges, weights
// from adj() (1 where it is a pattern), +infinity where unreachable: the
// oracle of the shortest-path tests. Test-only.
#pragma once

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <boost/property_map/property_map.hpp>
#include <limits>
#include <vector>

#include "graphrun/engine/graph.hpp"

namespace graphrun::test {

inline std::vector<double> boost_dijkstra(const Graph& g, vertex_t source) {
  using BG = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                                   boost::property<boost::edge_weight_t, double>>;
  const vertex_t n = g.n_vertices();
  BG bg(static_cast<std::size_t>(n));
  const auto& a = g.adj();
  for (vertex_t u = 0; u < n; ++u)
    for (offset_t k = a.row_ptr()[u]; k < a.row_ptr()[u + 1]; ++k)
      boost::add_edge(u, a.col_idx()[k], a.is_pattern() ? 1.0 : a.values()[k], bg);
  std::vector<double> d(static_cast<std::size_t>(n));
  boost::dijkstra_shortest_paths(
      bg, static_cast<std::size_t>(source),
      boost::distance_map(
          boost::make_iterator_property_map(d.begin(), boost::get(boost::vertex_index, bg)))
          .distance_inf(std::numeric_limits<double>::infinity()));
  return d;
}

}  // namespace graphrun::test
