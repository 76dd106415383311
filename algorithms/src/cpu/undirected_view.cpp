// The undirected simple graph of a graph on the CPU, for the algorithms
// defined on it (core numbers, triangles): the neighbours of v are the union
// of its row in A and in Aᵀ (a directed graph; an undirected one stores both
// already), without v itself. Each row is a merge of two sorted rows, so the
// view's rows are sorted too.
#include <utility>
#include <vector>

#include "cpu_backend.hpp"

namespace graphrun::detail {

// The undirected simple graph of g: rows sorted, no loops, no repeats.
Csr<double> cpu_undirected_view(const Graph& g, int threads) {
  const vertex_t n = g.n_vertices();
  const CsrView<double> a = g.adj().view();
  const bool both = g.directed();
  const CsrView<double> at = both ? g.transpose().view() : a;
  // The row of v: A's row merged with Aᵀ's, each entry once, v left out;
  // `emit` sees the columns in order.
  auto merge = [&](vertex_t v, auto&& emit) {
    offset_t i = a.row_ptr[v], j = both ? at.row_ptr[v] : at.row_ptr[v + 1];
    const offset_t ie = a.row_ptr[v + 1], je = at.row_ptr[v + 1];
    while (i < ie || j < je) {
      vertex_t c;
      if (j >= je || (i < ie && a.col_idx[i] < at.col_idx[j]))
        c = a.col_idx[i++];
      else if (i >= ie || at.col_idx[j] < a.col_idx[i])
        c = at.col_idx[j++];
      else
        c = a.col_idx[i++], ++j;
      if (c != v) emit(c);
    }
  };
  std::vector<offset_t> row_ptr(static_cast<std::size_t>(n) + 1, 0);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
  for (vertex_t v = 0; v < n; ++v) {
    offset_t len = 0;
    merge(v, [&len](vertex_t) { ++len; });
    row_ptr[static_cast<std::size_t>(v) + 1] = len;
  }
  for (vertex_t v = 0; v < n; ++v) row_ptr[v + 1] += row_ptr[v];
  std::vector<vertex_t> col_idx(static_cast<std::size_t>(row_ptr[n]));
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
  for (vertex_t v = 0; v < n; ++v) {
    offset_t at_k = row_ptr[v];
    merge(v, [&](vertex_t c) { col_idx[at_k++] = c; });
  }
  return Csr<double>(n, n, std::move(row_ptr), std::move(col_idx), {});
}

}  // namespace graphrun::detail
