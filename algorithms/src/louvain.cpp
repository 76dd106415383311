// Louvain communities (louvain.hpp). The driver: the level-0 graph, the
// level loop with its aggregation by contraction (contract.hpp), the
// numbering and the modularity; the backend moves the vertices of a level
// (cpu/louvain.cpp, cuda/louvain.cu).
#include "graphrun/algorithms/louvain.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "backend.hpp"
#include "graphrun/algorithms/contract.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "iteration_report.hpp"
#include "undirected_rows.hpp"

namespace graphrun {

namespace {

// W: g undirected and weighted, loops left out (undirected_rows.hpp: a
// directed graph's u -> v and v -> u summed). Negative weights are refused.
Csr<double> weighted_undirected(const Graph& g) {
  const CsrView<double> a = g.adj().view();
  for (offset_t k = 0; a.values && k < a.nnz; ++k)
    if (!(a.values[k] >= 0))
      throw ArgumentError("louvain: modularity needs weights >= 0; an edge has weight " +
                          std::to_string(a.values[k]));
  const detail::UndirectedRows rows(g);
  const vertex_t n = rows.n();
  std::vector<offset_t> row_ptr(static_cast<std::size_t>(n) + 1, 0);
  std::vector<vertex_t> col_idx;
  std::vector<double> values;
  for (vertex_t v = 0; v < n; ++v) {
    rows.walk_weighted(v, [&](vertex_t c, double x) {
      col_idx.push_back(c);
      values.push_back(x);
    });
    row_ptr[static_cast<std::size_t>(v) + 1] = static_cast<offset_t>(col_idx.size());
  }
  return Csr<double>(n, n, std::move(row_ptr), std::move(col_idx), std::move(values));
}

std::vector<double> row_sums(const Csr<double>& w) {
  const CsrView<double> v = w.view();
  std::vector<double> k(static_cast<std::size_t>(v.n_rows), 0.0);
  for (vertex_t r = 0; r < v.n_rows; ++r)
    for (offset_t e = v.row_ptr[r]; e < v.row_ptr[r + 1]; ++e) k[r] += v.values[e];
  return k;
}

// Q of labels in 0..n-1 on W (row sums k, total two_m), summed in vertex
// order.
double modularity_of(const Csr<double>& w, const std::vector<double>& k, double two_m,
                     std::span<const vertex_t> label, double gamma) {
  if (two_m == 0) return 0;
  const CsrView<double> m = w.view();
  std::vector<double> tot(static_cast<std::size_t>(m.n_rows), 0.0);
  double inner = 0;
  for (vertex_t v = 0; v < m.n_rows; ++v) {
    tot[label[v]] += k[v];
    for (offset_t e = m.row_ptr[v]; e < m.row_ptr[v + 1]; ++e)
      if (label[m.col_idx[e]] == label[v]) inner += m.values[e];
  }
  double q = inner / two_m;
  for (double t : tot) q -= gamma * (t / two_m) * (t / two_m);
  return q;
}

void check_options(const LouvainOptions& o) {
  if (!(o.resolution > 0) || !std::isfinite(o.resolution))
    throw ArgumentError("louvain: the resolution must be a number > 0, not " +
                        std::to_string(o.resolution));
  if (!(o.tolerance >= 0) || !std::isfinite(o.tolerance))
    throw ArgumentError("louvain: the tolerance must be a number >= 0");
  if (o.max_levels < 1) throw ArgumentError("louvain: max_levels must be >= 1");
}

}  // namespace

LouvainResult louvain(Context& ctx, const Graph& g, const LouvainOptions& options) {
  const Stopwatch t0;
  check_options(options);
  const vertex_t n = g.n_vertices();
  LouvainResult r;
  if (n == 0) return r;
  const detail::Backend& backend = detail::backend_for(ctx, "louvain");
  const detail::IterationReport report(options.on_iteration, nullptr, t0);
  const Csr<double> w0 = weighted_undirected(g);
  const std::vector<double> k0 = row_sums(w0);
  const double two_m = std::accumulate(k0.begin(), k0.end(), 0.0);

  // of[v]: the vertex of the current level that input vertex v is in.
  std::vector<vertex_t> of(static_cast<std::size_t>(n));
  std::iota(of.begin(), of.end(), 0);
  if (two_m > 0) {
    Csr<double> w = w0;
    std::vector<double> k = k0;
    for (int level = 1; level <= options.max_levels; ++level) {
      const detail::LouvainMoves moves = backend.louvain_moves(ctx, {w, k, two_m}, options);
      r.sweeps += moves.sweeps;
      if (moves.moves == 0) break;
      // The communities numbered by first appearance in vertex order.
      const vertex_t level_n = w.n_rows();
      std::vector<vertex_t> label(static_cast<std::size_t>(level_n), -1);
      vertex_t count = 0;
      for (vertex_t v = 0; v < level_n; ++v) {
        vertex_t& l = label[moves.community[v]];
        if (l < 0) l = count++;
      }
      std::vector<vertex_t> next(static_cast<std::size_t>(level_n));
      for (vertex_t v = 0; v < level_n; ++v) next[v] = label[moves.community[v]];
      for (vertex_t& x : of) x = next[x];
      ++r.levels;
      r.level_modularity.push_back(moves.modularity);
      if (!report.done({.iteration = r.levels, .residual = moves.modularity, .frontier = count})) {
        r.complete = false;
        break;
      }
      const Graph lg(std::move(w), {}, false, true);
      // The GPU's SpGEMM sums in a fixed order when asked: the same levels
      // run to run (the CPU's do on a given thread count anyway).
      Context aggregate = ctx;
      aggregate.set_deterministic(true);
      ContractResult c = contract(aggregate, lg, next, count, {.keep_loops = true});
      w = std::move(c.quotient);
      k = row_sums(w);
    }
  }

  // Refinement: the input vertices moved once more between the communities
  // found, from that partition (a vertex placed well at a coarse level may
  // sit better next door); it can only raise Q.
  if (two_m > 0 && r.levels > 0 && r.complete) {
    const detail::LouvainMoves moves = backend.louvain_moves(ctx, {w0, k0, two_m, of}, options);
    r.sweeps += moves.sweeps;
    of = moves.community;
  }

  // Largest first; ties by the smallest input vertex (the first seen).
  std::vector<vertex_t> size(static_cast<std::size_t>(n), 0), first(static_cast<std::size_t>(n), n);
  for (vertex_t v = 0; v < n; ++v) {
    ++size[of[v]];
    first[of[v]] = std::min(first[of[v]], v);
  }
  std::vector<vertex_t> used;
  for (vertex_t c = 0; c < n; ++c)
    if (size[c] > 0) used.push_back(c);
  std::sort(used.begin(), used.end(), [&](vertex_t x, vertex_t y) {
    return size[x] != size[y] ? size[x] > size[y] : first[x] < first[y];
  });
  std::vector<vertex_t> rank(static_cast<std::size_t>(n), -1);
  for (std::size_t i = 0; i < used.size(); ++i) rank[used[i]] = static_cast<vertex_t>(i);
  r.community.resize(static_cast<std::size_t>(n));
  for (vertex_t v = 0; v < n; ++v) r.community[v] = rank[of[v]];
  r.n_communities = static_cast<vertex_t>(used.size());
  r.modularity = modularity_of(w0, k0, two_m, r.community, options.resolution);
  r.seconds = t0.seconds();
  return r;
}

double modularity(Context&, const Graph& g, std::span<const vertex_t> community,
                  double resolution) {
  const vertex_t n = g.n_vertices();
  if (community.size() != static_cast<std::size_t>(n))
    throw ArgumentError("modularity: " + std::to_string(community.size()) + " labels for " +
                        std::to_string(n) + " vertices");
  for (vertex_t c : community)
    if (c < 0 || c >= n)
      throw ArgumentError("modularity: community " + std::to_string(c) + " is outside 0.." +
                          std::to_string(n - 1));
  if (!(resolution > 0)) throw ArgumentError("modularity: the resolution must be > 0");
  const Csr<double> w = weighted_undirected(g);
  const std::vector<double> k = row_sums(w);
  const double two_m = std::accumulate(k.begin(), k.end(), 0.0);
  return modularity_of(w, k, two_m, community, resolution);
}

}  // namespace graphrun
