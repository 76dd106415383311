// Triangles on the CPU (triangles.hpp): the masked dot-product SpGEMM
// C<L> = L ·(+,pair) Lᵀ over the degree-oriented graph L.
//
// L keeps the entry v -> w of the undirected view when (deg w, w) >
// (deg v, v); its rows stay sorted by id, so C(v, w) is a merge of two
// sorted rows. A thread takes a row v of L (dynamic schedule: rows differ in
// length and so do their neighbours'), merges it with the row of each w in
// it, and sums. Where the triangles through every vertex are asked, each
// triangle v < w < x found adds one to each of its three corners: v's count
// once per row, w's once per merge, x's once per match, by relaxed atomic
// adds (the counts are integers: the order of the adds cannot change them).
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "cpu_backend.hpp"

namespace graphrun::detail {

namespace {

// The rows of the undirected view `u` that point up the (degree, id) order.
Csr<double> orient_by_degree(const CsrView<double>& u, const std::vector<vertex_t>& degree,
                             int threads) {
  const vertex_t n = u.n_rows;
  auto above = [&degree](vertex_t v, vertex_t w) {
    return degree[w] > degree[v] || (degree[w] == degree[v] && w > v);
  };
  std::vector<offset_t> row_ptr(static_cast<std::size_t>(n) + 1, 0);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
  for (vertex_t v = 0; v < n; ++v) {
    offset_t len = 0;
    for (offset_t k = u.row_ptr[v]; k < u.row_ptr[v + 1]; ++k) len += above(v, u.col_idx[k]);
    row_ptr[static_cast<std::size_t>(v) + 1] = len;
  }
  for (vertex_t v = 0; v < n; ++v) row_ptr[v + 1] += row_ptr[v];
  std::vector<vertex_t> col_idx(static_cast<std::size_t>(row_ptr[n]));
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
  for (vertex_t v = 0; v < n; ++v) {
    offset_t at = row_ptr[v];
    for (offset_t k = u.row_ptr[v]; k < u.row_ptr[v + 1]; ++k)
      if (above(v, u.col_idx[k])) col_idx[at++] = u.col_idx[k];
  }
  return Csr<double>(n, n, std::move(row_ptr), std::move(col_idx), {});
}

// |a ∩ b| of two sorted rows; `match` sees each common entry. Branch-free
// steps: the merge's comparisons are data-dependent coin flips.
template <class Match>
std::uint64_t intersect(const vertex_t* a, const vertex_t* a_end, const vertex_t* b,
                        const vertex_t* b_end, Match&& match) {
  std::uint64_t common = 0;
  while (a < a_end && b < b_end) {
    const vertex_t x = *a, y = *b;
    if (x == y) {
      ++common;
      match(x);
    }
    a += x <= y;
    b += y <= x;
  }
  return common;
}

void add(std::uint64_t* count, vertex_t v, std::uint64_t k) {
  std::atomic_ref<std::uint64_t>(count[v]).fetch_add(k, std::memory_order_relaxed);
}

// The sum of C<L> = L · Lᵀ; with per_vertex, each triangle's three corners
// counted in `through`.
template <bool PerVertex>
std::uint64_t count(const CsrView<double>& l, std::uint64_t* through, int threads) {
  std::uint64_t total = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 64) reduction(+ : total)
  for (vertex_t v = 0; v < l.n_rows; ++v) {
    const vertex_t* row = l.col_idx + l.row_ptr[v];
    const vertex_t* row_end = l.col_idx + l.row_ptr[v + 1];
    std::uint64_t found = 0;
    for (const vertex_t* w = row; w < row_end; ++w) {
      const vertex_t* other = l.col_idx + l.row_ptr[*w];
      const vertex_t* other_end = l.col_idx + l.row_ptr[*w + 1];
      if constexpr (PerVertex) {
        const std::uint64_t c = intersect(row, row_end, other, other_end,
                                          [through](vertex_t x) { add(through, x, 1); });
        if (c > 0) add(through, *w, c);
        found += c;
      } else {
        found += intersect(row, row_end, other, other_end, [](vertex_t) {});
      }
    }
    if constexpr (PerVertex)
      if (found > 0) add(through, v, found);
    total += found;
  }
  return total;
}

}  // namespace

TriangleCounts CpuSteps::triangles(Context& ctx, const Graph& g, const TriangleOptions& options) {
  const int threads = ctx.threads();
  const Csr<double> u = cpu_undirected_view(g, threads);
  const CsrView<double> s = u.view();
  const vertex_t n = s.n_rows;
  TriangleCounts r;
  r.degree.resize(static_cast<std::size_t>(n));
#pragma omp parallel for num_threads(threads) schedule(static)
  for (vertex_t v = 0; v < n; ++v)
    r.degree[v] = static_cast<vertex_t>(s.row_ptr[v + 1] - s.row_ptr[v]);
  const Csr<double> l = orient_by_degree(s, r.degree, threads);
  r.edges = static_cast<std::uint64_t>(l.nnz());
  if (options.per_vertex) {
    r.per_vertex.assign(static_cast<std::size_t>(n), 0);
    r.total = count<true>(l.view(), r.per_vertex.data(), threads);
  } else {
    r.total = count<false>(l.view(), nullptr, threads);
  }
  return r;
}

}  // namespace graphrun::detail
