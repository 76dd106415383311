// Graph contraction C = S·A·Sᵀ by two SpGEMMs: the "graph contraction"
// application of sparse matrix products (Buluç and Gilbert, "Parallel sparse
// matrix-matrix multiplication and indexing", SIAM J. Sci. Comput. 34(4),
// 2012, which lists it among SpGEMM's uses in graph algorithms).
//
//   S(l, v) = 1 where label(v) = l           n_labels × n, one entry per column
//   B = S · A                                row k: the rows of cluster k's vertices added up
//   C = B · Sᵀ                               row k of B with its columns relabelled and merged
//
// The order is (S·A)·Sᵀ, as in the published application. Every vertex has
// exactly one label, so each row of A meets exactly one row of S: the first
// product makes exactly nnz(A) intermediate products, and since Sᵀ has one
// entry per row the second makes exactly nnz(B) <= nnz(A). The first product
// shrinks the row dimension to n_labels at once, so the second runs over
// n_labels rows only. (For an undirected graph Bᵀ = A·Sᵀ, so S·(A·Sᵀ) would
// make exactly the same products; the order matters only for directed
// graphs, where nnz(S·A) counts (cluster, out-neighbour) pairs and
// nnz(A·Sᵀ) (vertex, neighbour cluster) pairs. With very few clusters the
// rows of B are few and long, which the row-parallel SpGEMM spreads over few
// threads: contraction into a handful of labels is bound by that.)
//
// S is stored with values 1.0 rather than as a pattern because SpGEMM takes
// both operands with one value type; A is read as a pattern (entries 1)
// when the graph is unweighted. Self loops of C (the diagonal) are removed
// afterwards on the host unless options.keep_loops.
//
// This is the driver: S, Sᵀ and the checks here, the two products on the
// backend (cpu/contract_products.cpp, cuda/contract.cu).
#include "graphrun/algorithms/contract.hpp"

#include <string>

#include "backend.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/stopwatch.hpp"

namespace graphrun {

namespace {

// labels.size() == n_vertices, n_labels >= 1, every label in [0, n_labels).
void check_labels(std::span<const vertex_t> labels, vertex_t n_labels, vertex_t n_vertices) {
  if (n_labels < 1)
    throw ArgumentError("contract: n_labels must be >= 1, got " + std::to_string(n_labels));
  if (n_vertices < 0)
    throw ArgumentError("contract: n_vertices must be >= 0, got " + std::to_string(n_vertices));
  if (labels.size() != static_cast<std::size_t>(n_vertices))
    throw ArgumentError(
        "contract: one label per vertex is needed: " + std::to_string(labels.size()) +
        " labels for " + std::to_string(n_vertices) + " vertices");
  for (std::size_t v = 0; v < labels.size(); ++v)
    if (labels[v] < 0 || labels[v] >= n_labels)
      throw ArgumentError("contract: vertex " + std::to_string(v) + " has label " +
                          std::to_string(labels[v]) + ", outside [0, " + std::to_string(n_labels) +
                          ")");
}

// Sᵀ (n × n_labels): row v holds one entry, in column labels[v]. Built
// directly (no transpose of S): row_ptr is 0, 1, ..., n.
Csr<double> assignment_matrix(std::span<const vertex_t> labels, vertex_t n_labels) {
  const auto n = static_cast<vertex_t>(labels.size());
  std::vector<offset_t> row_ptr(static_cast<std::size_t>(n) + 1);
  for (vertex_t v = 0; v <= n; ++v) row_ptr[v] = v;
  return Csr<double>(n, n_labels, std::move(row_ptr),
                     std::vector<vertex_t>(labels.begin(), labels.end()),
                     std::vector<double>(labels.size(), 1.0));
}

// C without its diagonal entries.
Csr<double> drop_loops(const Csr<double>& c) {
  const vertex_t n = c.n_rows();
  std::vector<offset_t> row_ptr(static_cast<std::size_t>(n) + 1, 0);
  std::vector<vertex_t> col_idx;
  std::vector<double> values;
  col_idx.reserve(c.col_idx().size());
  values.reserve(c.values().size());
  for (vertex_t k = 0; k < n; ++k) {
    for (offset_t e = c.row_ptr()[k]; e < c.row_ptr()[k + 1]; ++e) {
      if (c.col_idx()[e] == k) continue;
      col_idx.push_back(c.col_idx()[e]);
      values.push_back(c.values()[e]);
    }
    row_ptr[k + 1] = static_cast<offset_t>(col_idx.size());
  }
  return Csr<double>(n, c.n_cols(), std::move(row_ptr), std::move(col_idx), std::move(values));
}

}  // namespace

Csr<double> label_matrix(std::span<const vertex_t> labels, vertex_t n_labels, vertex_t n_vertices) {
  check_labels(labels, n_labels, n_vertices);
  // Counting sort of the vertices by label: scanning v upwards leaves every
  // row's columns sorted. row_ptr has n_labels + 1 entries (no overflow in
  // size_t for any vertex_t).
  std::vector<offset_t> row_ptr(static_cast<std::size_t>(n_labels) + 1, 0);
  for (const vertex_t l : labels) ++row_ptr[static_cast<std::size_t>(l) + 1];
  for (std::size_t l = 0; l < static_cast<std::size_t>(n_labels); ++l) row_ptr[l + 1] += row_ptr[l];
  std::vector<offset_t> next(row_ptr.begin(), row_ptr.end() - 1);
  std::vector<vertex_t> col_idx(labels.size());
  for (vertex_t v = 0; v < n_vertices; ++v) col_idx[next[labels[v]]++] = v;
  return Csr<double>(n_labels, n_vertices, std::move(row_ptr), std::move(col_idx),
                     std::vector<double>(labels.size(), 1.0));
}

std::vector<vertex_t> consecutive_labels(vertex_t n_vertices, vertex_t group_size) {
  if (n_vertices < 0)
    throw ArgumentError("consecutive_labels: n_vertices must be >= 0, got " +
                        std::to_string(n_vertices));
  if (group_size < 1)
    throw ArgumentError("consecutive_labels: group_size must be >= 1, got " +
                        std::to_string(group_size));
  std::vector<vertex_t> labels(static_cast<std::size_t>(n_vertices));
  for (vertex_t v = 0; v < n_vertices; ++v) labels[v] = v / group_size;
  return labels;
}

ContractResult contract(Context& ctx, const Graph& g, std::span<const vertex_t> labels,
                        vertex_t n_labels, const ContractOptions& options) {
  const Stopwatch t0;
  const vertex_t n = g.n_vertices();
  const Csr<double> s = label_matrix(labels, n_labels, n);  // checks the labels
  const Csr<double> st = assignment_matrix(labels, n_labels);
  detail::ContractProducts p =
      detail::backend_for(ctx, "contract").contract_products(ctx, g, s, st);
  ContractResult result;
  result.products = p.products;
  result.compute_seconds = p.compute_seconds;
  Csr<double>& c = p.quotient;
  result.quotient = options.keep_loops ? std::move(c) : drop_loops(c);
  result.seconds = t0.seconds();
  return result;
}

}  // namespace graphrun
