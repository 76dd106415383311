// Oracles of the betweenness tests: Boost.Graph's
// brandes_betweenness_centrality over every stored arc (sums over ordered
// pairs), and the textbook Brandes, serial, from a given list of sources
// (for the samples Boost cannot take). Test-only.
#pragma once

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/betweenness_centrality.hpp>
#include <boost/property_map/property_map.hpp>
#include <queue>
#include <vector>

#include "graphrun/engine/graph.hpp"

namespace graphrun::test {

// Σ over ordered pairs (s, t) of σ_st(v) / σ_st, paths along stored arcs.
inline std::vector<double> boost_betweenness(const Graph& g) {
  using BG = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
  const vertex_t n = g.n_vertices();
  BG bg(static_cast<std::size_t>(n));
  const auto& a = g.adj();
  for (vertex_t u = 0; u < n; ++u)
    for (vertex_t v : a.row_cols(u)) boost::add_edge(u, v, bg);
  std::vector<double> score(static_cast<std::size_t>(n), 0.0);
  boost::brandes_betweenness_centrality(bg,
                                        boost::centrality_map(boost::make_iterator_property_map(
                                            score.begin(), boost::get(boost::vertex_index, bg))));
  return score;
}

// The same sums, from `sources` only.
inline std::vector<double> brandes_from(const Graph& g, const std::vector<vertex_t>& sources) {
  const vertex_t n = g.n_vertices();
  const auto& a = g.adj();
  std::vector<double> score(static_cast<std::size_t>(n), 0.0);
  for (vertex_t s : sources) {
    std::vector<int> dist(static_cast<std::size_t>(n), -1);
    std::vector<double> sigma(static_cast<std::size_t>(n), 0.0), delta(sigma);
    std::vector<std::vector<vertex_t>> pred(static_cast<std::size_t>(n));
    std::vector<vertex_t> stack;
    std::queue<vertex_t> q;
    dist[s] = 0;
    sigma[s] = 1;
    q.push(s);
    while (!q.empty()) {
      const vertex_t v = q.front();
      q.pop();
      stack.push_back(v);
      for (vertex_t w : a.row_cols(v)) {
        if (dist[w] < 0) dist[w] = dist[v] + 1, q.push(w);
        if (dist[w] == dist[v] + 1) sigma[w] += sigma[v], pred[w].push_back(v);
      }
    }
    for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
      const vertex_t w = *it;
      for (vertex_t v : pred[w]) delta[v] += sigma[v] / sigma[w] * (1 + delta[w]);
      if (w != s) score[w] += delta[w];
    }
  }
  return score;
}

}  // namespace graphrun::test
