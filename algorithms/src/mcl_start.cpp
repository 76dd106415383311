// The start matrix of Markov clustering, as mcl builds it from a graph
// (mclAlgorithmStreamIn and mclAlgorithmTransform): symmetric with the
// larger weight of a pair, loops discarded and replaced by the column's
// largest weight, columns normalized. See mcl_parts.hpp.
#include <omp.h>

#include <cmath>
#include <string>

#include "graphrun/engine/error.hpp"
#include "mcl_parts.hpp"

namespace graphrun::detail::mcl {

namespace {

// Weight of a stored entry as mcl holds it: a float, 1 for a pattern.
float weight(const Csr<double>& a, offset_t e) {
  return a.is_pattern() ? 1.0f : static_cast<float>(a.values()[static_cast<std::size_t>(e)]);
}

// Before the parallel passes, and thrown outside any OpenMP region: the
// first bad entry is found by a reduction.
void check_weights(const Graph& g) {
  const Csr<double>& a = g.adj();
  if (a.is_pattern()) return;
  if (const auto e = find_first_value(a, [](double w) { return w < 0 || std::isnan(w); }))
    throw ArgumentError("mcl: the edge " + g.label(row_of_entry(a, *e)) + " -> " +
                        g.label(a.col_idx()[*e]) + " has weight " +
                        std::to_string(a.values()[static_cast<std::size_t>(*e)]) +
                        "; Markov clustering needs non-negative weights (flow)");
}

}  // namespace

Csr<float> start_matrix(const Graph& g, int threads) {
  check_weights(g);
  const Csr<double>& a = g.adj();
  const vertex_t n = a.n_rows();
  // A directed graph is merged with its transpose; an undirected one is
  // already symmetric.
  const Csr<double>* at = g.directed() ? &g.transpose() : nullptr;

  // Row j of the result is mcl's column j: the merged neighbours of j
  // without j, plus the loop at j. Two passes: count, then fill.
  std::vector<offset_t> row_ptr(static_cast<std::size_t>(n) + 1, 0);
  auto for_each_neighbour = [&](vertex_t j, auto&& fn) {
    // Merge of the sorted rows j of A and of Aᵀ, max of the weights where
    // both have the column; zero weights and the diagonal skipped.
    const offset_t ab = a.row_ptr()[j], ae = a.row_ptr()[j + 1];
    offset_t p = ab, q = 0, qe = 0;
    if (at) q = at->row_ptr()[j], qe = at->row_ptr()[j + 1];
    while (p < ae || q < qe) {
      vertex_t col;
      float w;
      if (q >= qe || (p < ae && a.col_idx()[p] < at->col_idx()[q])) {
        col = a.col_idx()[p];
        w = weight(a, p++);
      } else if (p >= ae || at->col_idx()[q] < a.col_idx()[p]) {
        col = at->col_idx()[q];
        w = weight(*at, q++);
      } else {
        col = a.col_idx()[p];
        w = std::max(weight(a, p++), weight(*at, q++));
      }
      if (col != j && w != 0.0f) fn(col, w);
    }
  };

  const int nt = std::max(1, threads);
  // One thread for small graphs (see cpu_min_parallel_work).
  const bool parallel = a.nnz() + n >= cpu_min_parallel_work;
#pragma omp parallel for schedule(dynamic, 1024) num_threads(nt) if (parallel)
  for (vertex_t j = 0; j < n; ++j) {
    offset_t count = 1;  // the loop
    for_each_neighbour(j, [&](vertex_t, float) { ++count; });
    row_ptr[static_cast<std::size_t>(j) + 1] = count;
  }
  for (vertex_t j = 0; j < n; ++j) row_ptr[j + 1] += row_ptr[j];

  std::vector<vertex_t> col_idx(static_cast<std::size_t>(row_ptr[n]));
  std::vector<float> values(col_idx.size());
#pragma omp parallel for schedule(dynamic, 1024) num_threads(nt) if (parallel)
  for (vertex_t j = 0; j < n; ++j) {
    offset_t e = row_ptr[j];
    float maxval = 0;
    bool any = false, placed = false;
    offset_t loop_at = -1;
    for_each_neighbour(j, [&](vertex_t u, float w) {
      if (!placed && u > j) {
        loop_at = e++;
        placed = true;
      }
      col_idx[e] = u;
      values[e++] = w;
      maxval = any ? std::max(maxval, w) : w;
      any = true;
    });
    if (!placed) loop_at = e++;
    col_idx[loop_at] = j;
    // mclxLoopCBmax: the largest weight of the column, 1 when it has none.
    values[loop_at] = (any && maxval != 0.0f) ? maxval : 1.0f;
    // mclvNormalize: double sum in index order, one rounding per entry.
    double sum = 0;
    for (offset_t k = row_ptr[j]; k < row_ptr[j + 1]; ++k) sum += values[k];
    for (offset_t k = row_ptr[j]; k < row_ptr[j + 1]; ++k)
      values[k] = static_cast<float>(static_cast<double>(values[k]) / sum);
  }
  return Csr<float>(n, n, std::move(row_ptr), std::move(col_idx), std::move(values));
}

}  // namespace graphrun::detail::mcl
