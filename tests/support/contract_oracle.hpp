// Oracle for graph contraction: the quotient graph built with Boost.Graph,
// edge by edge, with no matrix algebra (test-only).
//
// The graph's stored entries become a boost::adjacency_list with an edge
// weight property; each edge (u, v, w) then adds w to the edge
// (label(u), label(v)) of a second adjacency_list (found with boost::edge,
// created with boost::add_edge), which is C = S·A·Sᵀ by definition.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/graph.hpp"

namespace graphrun::test {

// One row of the quotient: (column, weight, Σ|w|) sorted by column. The sum
// of magnitudes scales the tolerance where weights of mixed signs cancel.
struct QuotientEntry {
  vertex_t col;
  double weight;
  double magnitude;
};
using QuotientRows = std::vector<std::vector<QuotientEntry>>;

inline QuotientRows boost_quotient(const Graph& g, std::span<const vertex_t> labels,
                                   vertex_t n_labels, bool keep_loops) {
  using WeightProperty = boost::property<boost::edge_weight_t, double>;
  using BG = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                                   WeightProperty>;
  struct Accumulated {
    double weight = 0;
    double magnitude = 0;
  };
  // setS: at most one quotient edge per (k, l), found by boost::edge in log time.
  using QG = boost::adjacency_list<boost::setS, boost::vecS, boost::directedS, boost::no_property,
                                   Accumulated>;

  const vertex_t n = g.n_vertices();
  const Csr<double>& a = g.adj();
  const bool weighted = g.weighted() && !a.is_pattern();
  BG bg(static_cast<std::size_t>(n));
  for (vertex_t u = 0; u < n; ++u)
    for (offset_t e = a.row_ptr()[u]; e < a.row_ptr()[u + 1]; ++e)
      boost::add_edge(u, a.col_idx()[e], WeightProperty(weighted ? a.values()[e] : 1.0), bg);

  QG q(static_cast<std::size_t>(n_labels));
  const auto weight = boost::get(boost::edge_weight, bg);
  const auto q_weight = boost::get(&Accumulated::weight, q);
  const auto q_magnitude = boost::get(&Accumulated::magnitude, q);
  for (const auto e : boost::make_iterator_range(boost::edges(bg))) {
    const vertex_t k = labels[boost::source(e, bg)];
    const vertex_t l = labels[boost::target(e, bg)];
    if (k == l && !keep_loops) continue;
    auto [qe, found] = boost::edge(k, l, q);
    if (!found) qe = boost::add_edge(k, l, q).first;
    q_weight[qe] += weight[e];
    q_magnitude[qe] += std::abs(weight[e]);
  }

  QuotientRows rows(static_cast<std::size_t>(n_labels));
  for (const auto qe : boost::make_iterator_range(boost::edges(q)))
    rows[boost::source(qe, q)].push_back(
        {static_cast<vertex_t>(boost::target(qe, q)), q_weight[qe], q_magnitude[qe]});
  for (auto& row : rows)
    std::sort(row.begin(), row.end(),
              [](const QuotientEntry& x, const QuotientEntry& y) { return x.col < y.col; });
  return rows;
}

// C against the oracle: the same entries in every row (exactly), values to
// `rel` of the magnitude of what was summed.
inline void expect_quotient(const Csr<double>& c, const QuotientRows& want,
                            const std::string& where, double rel = 1e-12) {
  ASSERT_EQ(c.n_rows(), static_cast<vertex_t>(want.size())) << where;
  ASSERT_EQ(c.n_cols(), static_cast<vertex_t>(want.size())) << where;
  ASSERT_FALSE(c.is_pattern() && c.nnz() > 0) << where;
  for (vertex_t k = 0; k < c.n_rows(); ++k) {
    const auto cols = c.row_cols(k);
    std::vector<vertex_t> want_cols;
    for (const QuotientEntry& q : want[k]) want_cols.push_back(q.col);
    ASSERT_EQ(std::vector<vertex_t>(cols.begin(), cols.end()), want_cols) << where << " row " << k;
    for (std::size_t t = 0; t < cols.size(); ++t) {
      const double got = c.values()[c.row_ptr()[k] + static_cast<offset_t>(t)];
      EXPECT_NEAR(got, want[k][t].weight, rel * std::max(1.0, want[k][t].magnitude))
          << where << " C(" << k << "," << want[k][t].col << ")";
    }
  }
}

}  // namespace graphrun::test
