// Clusters from the MCL limit matrix, as mcl reads them (src/mcl/interpret.c
// mclDag and mclInterpret, then clmEnstrict with overlap "cut" and the
// "revsize" order). See mcl_parts.hpp for the outline.
#include <algorithm>
#include <numeric>

#include "mcl_parts.hpp"

namespace graphrun::detail::mcl {

namespace {

// mclDag's weights: an entry stays when it is at least
// 0.999·loop + 0.001·max of its column (or loop/1.01 where the loop is the
// column's largest entry).
constexpr double dag_self_weight = 0.999;
constexpr double dag_max_weight = 0.001;
constexpr double dag_delta = 0.01;

// The DAG of the limit matrix as adjacency lists: dag row j lists the
// vertices column j of the limit flows to.
Csr<float> limit_dag(const Csr<float>& l) {
  const vertex_t n = l.n_rows();
  std::vector<offset_t> row_ptr(static_cast<std::size_t>(n) + 1, 0);
  std::vector<vertex_t> cols;
  std::vector<float> kept;
  std::vector<vertex_t> cand;
  std::vector<float> cand_v;
  for (vertex_t j = 0; j < n; ++j) {
    const offset_t b = l.row_ptr()[j], e = l.row_ptr()[j + 1];
    float selfval = 0, maxval = 0;
    for (offset_t k = b; k < e; ++k) {
      const float v = l.values()[k];
      if (l.col_idx()[k] == j) selfval = v;
      maxval = k == b ? v : std::max(maxval, v);
    }
    const double bar = selfval < maxval ? dag_self_weight * selfval + dag_max_weight * maxval
                                        : selfval / (1.0 + dag_delta);
    cand.clear();
    cand_v.clear();
    double sum = 0;
    for (offset_t k = b; k < e; ++k)
      if (static_cast<double>(l.values()[k]) >= bar) {
        cand.push_back(l.col_idx()[k]);
        cand_v.push_back(l.values()[k]);
        sum += l.values()[k];
      }
    // Renormalized, then only entries of at least 1/(n+1) of the mass.
    const double floor = 1.0 / static_cast<double>(cand.size() + 1);
    for (std::size_t k = 0; k < cand.size(); ++k) {
      const double v = sum != 0 ? static_cast<float>(cand_v[k] / sum) : cand_v[k];
      if (v >= floor) cols.push_back(cand[k]);
    }
    row_ptr[static_cast<std::size_t>(j) + 1] = static_cast<offset_t>(cols.size());
  }
  kept.assign(cols.size(), 1.0f);
  return Csr<float>(n, n, std::move(row_ptr), std::move(cols), std::move(kept));
}

bool has(const Csr<float>& m, vertex_t row, vertex_t col) {
  const auto r = m.row_cols(row);
  return std::binary_search(r.begin(), r.end(), col);
}

// Sorts clusters (sorted member lists) largest first, ties by their member
// lists compared lexicographically (mclvSizeRevCmp).
void revsize_order(std::vector<std::vector<vertex_t>>& clusters) {
  std::sort(clusters.begin(), clusters.end(), [](const auto& x, const auto& y) {
    if (x.size() != y.size()) return x.size() > y.size();
    return x < y;
  });
}

}  // namespace

std::vector<vertex_t> interpret(const Csr<float>& limit, vertex_t* n_clusters) {
  const vertex_t n = limit.n_rows();
  const Csr<float> dag = limit_dag(limit);

  std::vector<char> attractor(static_cast<std::size_t>(n), 0);
  for (vertex_t j = 0; j < n; ++j) attractor[j] = has(dag, j, j);

  // Attractor systems: connected components of the attractors under the
  // DAG's edges between them, taken as undirected.
  std::vector<std::vector<vertex_t>> undirected(static_cast<std::size_t>(n));
  for (vertex_t a = 0; a < n; ++a) {
    if (!attractor[a]) continue;
    for (vertex_t b : dag.row_cols(a))
      if (b != a && attractor[b]) {
        undirected[a].push_back(b);
        undirected[b].push_back(a);
      }
  }
  std::vector<std::vector<vertex_t>> systems;
  std::vector<vertex_t> system_of(static_cast<std::size_t>(n), -1);
  std::vector<vertex_t> stack;
  for (vertex_t a = 0; a < n; ++a) {
    if (!attractor[a] || system_of[a] >= 0) continue;
    std::vector<vertex_t> members{a};
    system_of[a] = 0;
    stack.assign(1, a);
    while (!stack.empty()) {
      const vertex_t x = stack.back();
      stack.pop_back();
      for (vertex_t y : undirected[x])
        if (system_of[y] < 0) {
          system_of[y] = 0;
          members.push_back(y);
          stack.push_back(y);
        }
    }
    std::sort(members.begin(), members.end());
    systems.push_back(std::move(members));
  }
  undirected = {};
  revsize_order(systems);
  for (std::size_t s = 0; s < systems.size(); ++s)
    for (vertex_t a : systems[s]) system_of[a] = static_cast<vertex_t>(s);

  // Every other vertex joins the systems of the attractors it reaches in
  // the DAG; overlap is cut in favour of the lowest system number.
  std::vector<vertex_t> owner(static_cast<std::size_t>(n), -1);
  std::vector<vertex_t> seen(static_cast<std::size_t>(n), -1);  // stamp: the walk's start
  for (vertex_t d = 0; d < n; ++d) {
    if (attractor[d]) {
      owner[d] = system_of[d];
      continue;
    }
    vertex_t best = -1;
    stack.assign(dag.row_cols(d).begin(), dag.row_cols(d).end());
    for (vertex_t x : stack) seen[x] = d;
    while (!stack.empty()) {
      const vertex_t x = stack.back();
      stack.pop_back();
      if (attractor[x] && (best < 0 || system_of[x] < best)) best = system_of[x];
      for (vertex_t y : dag.row_cols(x))
        if (seen[y] != d) {
          seen[y] = d;
          stack.push_back(y);
        }
    }
    owner[d] = best;
  }

  std::vector<std::vector<vertex_t>> clusters(systems.size());
  std::vector<vertex_t> missing;
  for (vertex_t v = 0; v < n; ++v) {
    if (owner[v] >= 0)
      clusters[owner[v]].push_back(v);
    else
      missing.push_back(v);
  }
  if (!missing.empty()) clusters.push_back(std::move(missing));
  std::erase_if(clusters, [](const auto& c) { return c.empty(); });
  revsize_order(clusters);

  std::vector<vertex_t> cluster(static_cast<std::size_t>(n), -1);
  for (std::size_t c = 0; c < clusters.size(); ++c)
    for (vertex_t v : clusters[c]) cluster[v] = static_cast<vertex_t>(c);
  if (n_clusters) *n_clusters = static_cast<vertex_t>(clusters.size());
  return cluster;
}

}  // namespace graphrun::detail::mcl
