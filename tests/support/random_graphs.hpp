// Random sparse matrices and graphs of the shapes that break kernels:
// empty matrices, empty rows, one row holding most entries, power-law rows,
// bands, and graph shapes for traversals (chains, stars, components).
// Header-only; deterministic for a given seed (own generator, no
// std::*_distribution, whose output differs between standard libraries).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "graphrun/engine/coo.hpp"
#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/graph.hpp"

namespace graphrun::test {

// splitmix64: small, fast, identical everywhere.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n), n > 0.
  std::int64_t below(std::int64_t n) {
    return static_cast<std::int64_t>(next() % std::uint64_t(n));
  }
  // Uniform in [0, 1).
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * unit(); }
  bool coin(double p) { return unit() < p; }

 private:
  std::uint64_t s_;
};

enum class MatrixShape {
  uniform,     // each row ~ `per_row` random columns
  empty_rows,  // like uniform, but about 60% of rows are empty
  heavy_row,   // one row holds most entries, the rest are short
  power_law,   // row lengths follow a Zipf-like law (a few long rows)
  banded       // entries within `per_row` / 2 of the diagonal
};

inline std::string to_string(MatrixShape s) {
  switch (s) {
    case MatrixShape::uniform:
      return "uniform";
    case MatrixShape::empty_rows:
      return "empty_rows";
    case MatrixShape::heavy_row:
      return "heavy_row";
    case MatrixShape::power_law:
      return "power_law";
    case MatrixShape::banded:
      return "banded";
  }
  return "?";
}

// Entry values: a mix of signs and magnitudes, some explicit zeros (a
// stored zero must still behave as stored, and OrAnd must read it as false).
inline double random_value(Rng& rng) {
  const auto k = rng.below(10);
  if (k == 0) return 0.0;
  if (k == 1) return 1.0;
  return rng.uniform(-2.0, 3.0);
}

// COO with duplicates possible (from_coo sums them). `pattern`: no values.
inline Coo<double> random_coo(vertex_t rows, vertex_t cols, MatrixShape shape, double per_row,
                              bool pattern, std::uint64_t seed) {
  Rng rng(seed);
  Coo<double> coo;
  coo.n_rows = rows;
  coo.n_cols = cols;
  if (rows == 0 || cols == 0) return coo;
  auto add = [&](vertex_t i, vertex_t j) {
    coo.row.push_back(i);
    coo.col.push_back(j);
    if (!pattern) coo.val.push_back(random_value(rng));
  };
  auto row_of_length = [&](vertex_t i, std::int64_t len) {
    for (std::int64_t t = 0; t < len; ++t) add(i, static_cast<vertex_t>(rng.below(cols)));
  };
  const auto mean_len = [&] { return rng.below(static_cast<std::int64_t>(2 * per_row) + 1); };
  switch (shape) {
    case MatrixShape::uniform:
      for (vertex_t i = 0; i < rows; ++i) row_of_length(i, mean_len());
      break;
    case MatrixShape::empty_rows:
      for (vertex_t i = 0; i < rows; ++i)
        if (rng.coin(0.4)) row_of_length(i, mean_len() * 2);
      break;
    case MatrixShape::heavy_row: {
      const auto heavy = static_cast<vertex_t>(rng.below(rows));
      row_of_length(heavy, static_cast<std::int64_t>(per_row * rows * 0.8) + 1);
      for (vertex_t i = 0; i < rows; ++i)
        if (i != heavy) row_of_length(i, rng.below(3));
      break;
    }
    case MatrixShape::power_law: {
      // Zipf(0.9) lengths over a random permutation of the rows.
      std::vector<vertex_t> perm(rows);
      std::iota(perm.begin(), perm.end(), 0);
      for (vertex_t i = rows - 1; i > 0; --i) std::swap(perm[i], perm[rng.below(i + 1)]);
      double h = 0;
      for (vertex_t r = 1; r <= rows; ++r) h += std::pow(r, -0.9);
      const double c = per_row * rows / h;
      for (vertex_t r = 0; r < rows; ++r)
        row_of_length(perm[r], static_cast<std::int64_t>(c * std::pow(r + 1, -0.9)));
      break;
    }
    case MatrixShape::banded: {
      const auto half = static_cast<std::int64_t>(per_row / 2);
      for (vertex_t i = 0; i < rows; ++i) {
        const std::int64_t lo = std::max<std::int64_t>(0, std::int64_t(i) - half);
        const std::int64_t hi = std::min<std::int64_t>(cols - 1, std::int64_t(i) + half);
        for (std::int64_t j = lo; j <= hi; ++j)
          if (rng.coin(0.9)) add(i, static_cast<vertex_t>(j));
      }
      break;
    }
  }
  return coo;
}

template <class T>
Csr<T> random_csr(vertex_t rows, vertex_t cols, MatrixShape shape, double per_row, bool pattern,
                  std::uint64_t seed) {
  const Coo<double> c = random_coo(rows, cols, shape, per_row, pattern, seed);
  if constexpr (std::is_same_v<T, double>) {
    return Csr<double>::from_coo(c);
  } else {
    Coo<T> t;
    t.n_rows = c.n_rows;
    t.n_cols = c.n_cols;
    t.row = c.row;
    t.col = c.col;
    t.val.assign(c.val.begin(), c.val.end());
    return Csr<T>::from_coo(t);
  }
}

enum class GraphShape {
  erdos_renyi,   // ~ avg_degree random out-edges per vertex
  power_law,     // Chung-Lu: endpoints drawn with weight ∝ (rank+1)^-0.8
  chain,         // 0 -> 1 -> ... -> n-1
  star,          // 0 -> every other vertex (and back when undirected)
  disconnected,  // four random components of different sizes, plus isolated vertices
  no_sinks       // erdos_renyi plus an edge i -> i+1 (mod n): every vertex has an out-edge
};

inline std::string to_string(GraphShape s) {
  switch (s) {
    case GraphShape::erdos_renyi:
      return "erdos_renyi";
    case GraphShape::power_law:
      return "power_law";
    case GraphShape::chain:
      return "chain";
    case GraphShape::star:
      return "star";
    case GraphShape::disconnected:
      return "disconnected";
    case GraphShape::no_sinks:
      return "no_sinks";
  }
  return "?";
}

// Edge list of a graph shape, each edge once, before symmetrization.
inline Coo<double> random_edges(GraphShape shape, vertex_t n, double avg_degree, bool weighted,
                                std::uint64_t seed) {
  Rng rng(seed);
  Coo<double> coo;
  coo.n_rows = coo.n_cols = n;
  auto add = [&](vertex_t u, vertex_t v) {
    coo.row.push_back(u);
    coo.col.push_back(v);
    if (weighted) coo.val.push_back(rng.uniform(0.25, 4.0));
  };
  if (n == 0) return coo;
  const auto m = static_cast<std::int64_t>(avg_degree * n);
  switch (shape) {
    case GraphShape::erdos_renyi:
    case GraphShape::no_sinks:
      for (std::int64_t e = 0; e < m; ++e)
        add(static_cast<vertex_t>(rng.below(n)), static_cast<vertex_t>(rng.below(n)));
      if (shape == GraphShape::no_sinks)
        for (vertex_t i = 0; i < n; ++i) add(i, (i + 1) % n);
      break;
    case GraphShape::power_law: {
      std::vector<double> cum(n);
      double s = 0;
      for (vertex_t i = 0; i < n; ++i) cum[i] = (s += std::pow(i + 1, -0.8));
      auto draw = [&] {
        const double t = rng.unit() * s;
        return static_cast<vertex_t>(std::upper_bound(cum.begin(), cum.end(), t) - cum.begin());
      };
      for (std::int64_t e = 0; e < m; ++e) add(std::min(draw(), n - 1), std::min(draw(), n - 1));
      break;
    }
    case GraphShape::chain:
      for (vertex_t i = 0; i + 1 < n; ++i) add(i, i + 1);
      break;
    case GraphShape::star:
      for (vertex_t i = 1; i < n; ++i) add(0, i);
      break;
    case GraphShape::disconnected: {
      // Components [b_k, b_{k+1}) with random edges inside; the last tenth isolated.
      const vertex_t active = n - n / 10;
      const vertex_t bounds[5] = {0, active / 10, active / 4, active / 2, active};
      for (int k = 0; k < 4; ++k) {
        const vertex_t lo = bounds[k], size = bounds[k + 1] - bounds[k];
        if (size == 0) continue;
        for (std::int64_t e = 0; e < static_cast<std::int64_t>(avg_degree * size); ++e)
          add(lo + static_cast<vertex_t>(rng.below(size)),
              lo + static_cast<vertex_t>(rng.below(size)));
      }
      break;
    }
  }
  return coo;
}

// A Graph as the loader would build it: duplicates summed (weighted) or
// collapsed (pattern), undirected graphs stored in both directions.
// A directed weighted graph on 0..n-1 with the edges row[k] -> col[k] of
// weight val[k]: hand-made cases (a negative weight, a denormal one).
inline Graph weighted_graph(vertex_t n, std::vector<vertex_t> row, std::vector<vertex_t> col,
                            std::vector<double> val) {
  Coo<double> coo;
  coo.n_rows = coo.n_cols = n;
  coo.row = std::move(row);
  coo.col = std::move(col);
  coo.val = std::move(val);
  return Graph(Csr<double>::from_coo(coo), {}, true, true);
}

// The rows x cols 5-point grid, undirected, unweighted: vertex r * cols + c.
// From a corner it has C(r + c, r) shortest paths to (r, c), past a
// double's range on a 600 x 600 grid.
inline Graph grid_graph(vertex_t rows, vertex_t cols) {
  Coo<double> coo;
  coo.n_rows = coo.n_cols = rows * cols;
  auto add = [&](vertex_t u, vertex_t v) {
    coo.row.insert(coo.row.end(), {u, v});
    coo.col.insert(coo.col.end(), {v, u});
  };
  for (vertex_t r = 0; r < rows; ++r)
    for (vertex_t c = 0; c < cols; ++c) {
      if (c + 1 < cols) add(r * cols + c, r * cols + c + 1);
      if (r + 1 < rows) add(r * cols + c, (r + 1) * cols + c);
    }
  return Graph(Csr<double>::from_coo(coo), {}, false, false);
}

// An undirected one is A + Aᵀ off the diagonal of the directed graph A
// (repeated edges summed first), as the loader makes it: each weight is then
// a sum of the same two terms both ways, so the stored matrix is exactly
// symmetric (summing three or more copies of an edge in two orders could
// differ in the last bit, and algorithms read Aᵀ of an undirected graph as A).
inline Graph random_graph(GraphShape shape, vertex_t n, double avg_degree, bool directed,
                          bool weighted, std::uint64_t seed) {
  Coo<double> coo = random_edges(shape, n, avg_degree, weighted, seed);
  if (!directed) {
    const Csr<double> a = Csr<double>::from_coo(coo);
    coo.row.clear();
    coo.col.clear();
    coo.val.clear();
    for (int mirror = 0; mirror < 2; ++mirror)
      for (vertex_t u = 0; u < n; ++u)
        for (offset_t k = a.row_ptr()[u]; k < a.row_ptr()[u + 1]; ++k) {
          const vertex_t v = a.col_idx()[k];
          if (mirror && u == v) continue;  // a self loop stays one entry
          coo.row.push_back(mirror ? v : u);
          coo.col.push_back(mirror ? u : v);
          if (weighted) coo.val.push_back(a.values()[k]);
        }
  }
  return Graph(Csr<double>::from_coo(coo), {}, directed, weighted);
}

// A random weighted graph with the weights made non-negative: the input that
// flow-based clustering (MCL) needs.
inline Graph flow_graph(GraphShape shape, vertex_t n, double avg_degree, bool directed,
                        std::uint64_t seed) {
  const Graph g = random_graph(shape, n, avg_degree, directed, true, seed);
  std::vector<double> w = g.adj().values();
  for (double& x : w) x = std::abs(x);
  Csr<double> a(g.n_vertices(), g.n_vertices(), g.adj().row_ptr(), g.adj().col_idx(), w);
  return Graph(std::move(a), {}, directed, true);
}

}  // namespace graphrun::test
