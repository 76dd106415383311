// Oracles for algorithm tests: Boost.Graph's BFS and PageRank, a dense
// serial PageRank, and a BFS result validator. Test-only (uses GoogleTest).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/page_rank.hpp>
#include <boost/graph/visitors.hpp>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "graphrun/algorithms/bfs.hpp"
#include "graphrun/engine/graph.hpp"

namespace graphrun::test {

// Hop distances from `source` by boost::breadth_first_search over the
// adjacency (out-edges); -1 where unreachable.
inline std::vector<std::int32_t> boost_bfs_levels(const Graph& g, vertex_t source) {
  using BG = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
  const vertex_t n = g.n_vertices();
  BG bg(static_cast<std::size_t>(n));
  const auto& a = g.adj();
  for (vertex_t u = 0; u < n; ++u)
    for (vertex_t v : a.row_cols(u)) boost::add_edge(u, v, bg);
  std::vector<std::int32_t> dist(n, -1);
  dist[source] = 0;
  boost::breadth_first_search(
      bg, boost::vertex(source, bg),
      boost::visitor(boost::make_bfs_visitor(boost::record_distances(
          boost::make_iterator_property_map(dist.begin(), boost::get(boost::vertex_index, bg)),
          boost::on_tree_edge()))));
  return dist;
}

inline bool has_edge(const Graph& g, vertex_t u, vertex_t v) {
  const auto cols = g.adj().row_cols(u);
  return std::binary_search(cols.begin(), cols.end(), v);
}

// Parents (when present) name an in-neighbour one level up; counters agree
// with the levels.
inline void expect_valid_bfs(const Graph& g, vertex_t source, const BfsResult& r,
                             const std::string& where) {
  const vertex_t n = g.n_vertices();
  ASSERT_EQ(r.level.size(), static_cast<std::size_t>(n)) << where;
  vertex_t reached = 0;
  std::int32_t max_level = -1;
  for (vertex_t v = 0; v < n; ++v) {
    if (r.level[v] >= 0) ++reached;
    max_level = std::max(max_level, r.level[v]);
  }
  EXPECT_EQ(r.reached, reached) << where;
  EXPECT_EQ(r.depth, max_level + 1) << where;
  if (r.parent.empty()) return;
  ASSERT_EQ(r.parent.size(), static_cast<std::size_t>(n)) << where;
  for (vertex_t v = 0; v < n; ++v) {
    const vertex_t p = r.parent[v];
    if (r.level[v] < 0) {
      ASSERT_EQ(p, -1) << where << " vertex " << v;
    } else if (v == source) {
      ASSERT_EQ(p, source) << where;
    } else {
      ASSERT_TRUE(p >= 0 && p < n) << where << " vertex " << v;
      ASSERT_EQ(r.level[p], r.level[v] - 1) << where << " vertex " << v << " parent " << p;
      ASSERT_TRUE(has_edge(g, p, v)) << where << " vertex " << v << " parent " << p;
    }
  }
}

// boost::graph::page_rank on the unweighted graph, `iterations` steps,
// normalized to sum 1. Boost's step is r'(v) = (1-d) + d Σ_{u->v} r(u)/outdeg(u):
// teleport (1-d) instead of (1-d)/n, no dangling redistribution, so it is
// our PageRank (scaled by n) only on graphs where every vertex has an out-edge.
inline std::vector<double> boost_pagerank(const Graph& g, double damping, std::size_t iterations) {
  using BG = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
  const vertex_t n = g.n_vertices();
  BG bg(static_cast<std::size_t>(n));
  for (vertex_t u = 0; u < n; ++u)
    for (vertex_t v : g.adj().row_cols(u)) boost::add_edge(u, v, bg);
  std::vector<double> rank(n);
  boost::graph::page_rank(
      bg, boost::make_iterator_property_map(rank.begin(), boost::get(boost::vertex_index, bg)),
      boost::graph::n_iterations(iterations), damping);
  double s = 0;
  for (double x : rank) s += x;
  for (double& x : rank) x /= s;
  return rank;
}

// Dense, serial PageRank with dangling vertices, straight from the formula:
//   P(i,j) = w_ij / outw_i;  r'(j) = d Σ_i r(i) P(i,j) + d Σ_{dangling} r(i)/n + (1-d)/n
// iterated until the L1 change is below 1e-15 (or 10000 iterations).
inline std::vector<double> dense_pagerank(const Graph& g, double damping, bool use_weights) {
  const vertex_t n = g.n_vertices();
  const auto& a = g.adj();
  const bool weighted = use_weights && g.weighted() && !a.is_pattern();
  std::vector<double> w(std::size_t(n) * n, 0.0), outw(n, 0.0);
  for (vertex_t i = 0; i < n; ++i)
    for (offset_t k = a.row_ptr()[i]; k < a.row_ptr()[i + 1]; ++k) {
      const double x = weighted ? a.values()[k] : 1.0;
      w[std::size_t(i) * n + a.col_idx()[k]] = x;
      outw[i] += x;
    }
  std::vector<double> r(n, 1.0 / n), next(n);
  for (int it = 0; it < 10000; ++it) {
    double dangling = 0;
    for (vertex_t i = 0; i < n; ++i)
      if (outw[i] == 0) dangling += r[i];
    for (vertex_t j = 0; j < n; ++j) next[j] = (damping * dangling + 1 - damping) / n;
    for (vertex_t i = 0; i < n; ++i)
      if (outw[i] != 0)
        for (vertex_t j = 0; j < n; ++j)
          next[j] += damping * r[i] * w[std::size_t(i) * n + j] / outw[i];
    double err = 0;
    for (vertex_t j = 0; j < n; ++j) err += std::abs(next[j] - r[j]);
    r.swap(next);
    if (err < 1e-15) break;
  }
  return r;
}

// Sparse serial PageRank, push-style over the adjacency (not the transpose
// the library pulls over), same formula as dense_pagerank; stops when the L1
// change is below `tol`. For graphs too large for the dense reference.
// `start`, where given, is where the iteration starts, scaled to sum 1.
inline std::vector<double> sparse_pagerank(const Graph& g, double damping, bool use_weights,
                                           double tol = 1e-14, int max_iter = 10000,
                                           const std::vector<double>& start = {}) {
  const vertex_t n = g.n_vertices();
  const auto& a = g.adj();
  const bool weighted = use_weights && g.weighted() && !a.is_pattern();
  auto weight = [&](offset_t k) { return weighted ? a.values()[k] : 1.0; };
  std::vector<double> outw(n, 0.0);
  for (vertex_t i = 0; i < n; ++i)
    for (offset_t k = a.row_ptr()[i]; k < a.row_ptr()[i + 1]; ++k) outw[i] += weight(k);
  std::vector<double> r(n, 1.0 / n), next(n);
  if (!start.empty()) {
    double total = 0;
    for (double x : start) total += x;
    for (vertex_t i = 0; i < n; ++i) r[i] = start[i] / total;
  }
  for (int it = 0; it < max_iter; ++it) {
    double dangling = 0;
    for (vertex_t i = 0; i < n; ++i)
      if (outw[i] == 0) dangling += r[i];
    std::fill(next.begin(), next.end(), (damping * dangling + 1 - damping) / n);
    for (vertex_t i = 0; i < n; ++i) {
      if (outw[i] == 0) continue;
      for (offset_t k = a.row_ptr()[i]; k < a.row_ptr()[i + 1]; ++k)
        next[a.col_idx()[k]] += damping * r[i] * weight(k) / outw[i];
    }
    double err = 0;
    for (vertex_t j = 0; j < n; ++j) err += std::abs(next[j] - r[j]);
    r.swap(next);
    if (err < tol) break;
  }
  return r;
}

inline double l1_distance(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += std::abs(a[i] - b[i]);
  return s;
}

}  // namespace graphrun::test
