// The undirected simple graph of a graph on the CPU as a pattern CSR
// (undirected_rows.hpp walks its rows), for the algorithms that read each
// row many times (core numbers).
#include <utility>
#include <vector>

#include "../undirected_rows.hpp"
#include "cpu_backend.hpp"

namespace graphrun::detail {

Csr<double> cpu_undirected_view(const Graph& g, int threads) {
  const UndirectedRows rows(g);
  const vertex_t n = rows.n();
  std::vector<offset_t> row_ptr(static_cast<std::size_t>(n) + 1, 0);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
  for (vertex_t v = 0; v < n; ++v) row_ptr[static_cast<std::size_t>(v) + 1] = rows.degree(v);
  for (vertex_t v = 0; v < n; ++v) row_ptr[v + 1] += row_ptr[v];
  std::vector<vertex_t> col_idx(static_cast<std::size_t>(row_ptr[n]));
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
  for (vertex_t v = 0; v < n; ++v) {
    offset_t at = row_ptr[v];
    rows.walk(v, [&](vertex_t c) { col_idx[at++] = c; });
  }
  return Csr<double>(n, n, std::move(row_ptr), std::move(col_idx), {});
}

}  // namespace graphrun::detail
