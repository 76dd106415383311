// Boost.Graph's connected components as graphrun names them: each vertex
// labelled with the smallest vertex of its component, so a result compares
// with == . Test-only.
#pragma once

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/connected_components.hpp>
#include <boost/graph/strong_components.hpp>
#include <vector>

#include "graphrun/engine/graph.hpp"

namespace graphrun::test {

// Renames Boost's component numbers after each component's smallest vertex.
inline std::vector<vertex_t> by_smallest_vertex(const std::vector<int>& number) {
  std::vector<vertex_t> first(number.size(), -1), label(number.size());
  for (std::size_t v = 0; v < number.size(); ++v) {
    vertex_t& f = first[static_cast<std::size_t>(number[v])];
    if (f < 0) f = static_cast<vertex_t>(v);
    label[v] = f;
  }
  return label;
}

// Weak components: boost::connected_components over the edges with
// direction dropped.
inline std::vector<vertex_t> boost_weak_components(const Graph& g) {
  using BG = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
  const vertex_t n = g.n_vertices();
  BG bg(static_cast<std::size_t>(n));
  const auto& a = g.adj();
  for (vertex_t u = 0; u < n; ++u)
    for (vertex_t v : a.row_cols(u))
      if (g.directed() || u <= v) boost::add_edge(u, v, bg);
  std::vector<int> number(static_cast<std::size_t>(n));
  boost::connected_components(bg, number.data());
  return by_smallest_vertex(number);
}

// Strong components: boost::strong_components (Tarjan) over the out-edges.
inline std::vector<vertex_t> boost_strong_components(const Graph& g) {
  using BG = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
  const vertex_t n = g.n_vertices();
  BG bg(static_cast<std::size_t>(n));
  const auto& a = g.adj();
  for (vertex_t u = 0; u < n; ++u)
    for (vertex_t v : a.row_cols(u)) boost::add_edge(u, v, bg);
  std::vector<int> number(static_cast<std::size_t>(n));
  boost::strong_components(
      bg, boost::make_iterator_property_map(number.begin(), boost::get(boost::vertex_index, bg)));
  return by_smallest_vertex(number);
}

}  // namespace graphrun::test
