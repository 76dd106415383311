// The rows of a graph's undirected simple view, walked without building it:
// the neighbours of v are the union of its row in A and in Aᵀ (a directed
// graph; an undirected one stores both already), without v itself. Each row
// is a merge of two sorted rows, so a walk sees the neighbours in ascending
// order, each once. Algorithms defined on the undirected graph (core
// numbers, triangles, Louvain) read it through this or through
// cpu_undirected_view, its CSR.
#pragma once

#include <algorithm>

#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/graph.hpp"

namespace graphrun::detail {

class UndirectedRows {
 public:
  explicit UndirectedRows(const Graph& g)
      : a_(g.adj().view()), both_(g.directed()), at_(both_ ? g.transpose().view() : a_) {}

  vertex_t n() const noexcept { return a_.n_rows; }

  // Calls emit(w, weight) for every neighbour w of v, in ascending order:
  // the weight of v -> w plus, on a directed graph, that of w -> v (1 for
  // an entry of a pattern).
  template <class Emit>
  void walk_weighted(vertex_t v, Emit&& emit) const {
    offset_t i = a_.row_ptr[v];
    const offset_t ie = a_.row_ptr[v + 1];
    if (!both_) {
      for (; i < ie; ++i)
        if (a_.col_idx[i] != v) emit(a_.col_idx[i], a_.value(i));
      return;
    }
    offset_t j = at_.row_ptr[v];
    const offset_t je = at_.row_ptr[v + 1];
    while (i < ie || j < je) {
      vertex_t c;
      double x;
      if (j >= je || (i < ie && a_.col_idx[i] < at_.col_idx[j])) {
        c = a_.col_idx[i], x = a_.value(i), ++i;
      } else if (i >= ie || at_.col_idx[j] < a_.col_idx[i]) {
        c = at_.col_idx[j], x = at_.value(j), ++j;
      } else {
        c = a_.col_idx[i], x = a_.value(i) + at_.value(j), ++i, ++j;
      }
      if (c != v) emit(c, x);
    }
  }

  // Calls emit(w) for every neighbour w of v, in ascending order.
  template <class Emit>
  void walk(vertex_t v, Emit&& emit) const {
    walk_weighted(v, [&emit](vertex_t w, double) { emit(w); });
  }

  // Where v's row starts in a buffer that holds every row at its longest
  // (its row in A, plus its row in Aᵀ on a directed graph): slot(v + 1) -
  // slot(v) bounds v's degree, and slot(n()) is the buffer's size.
  offset_t slot(vertex_t v) const { return a_.row_ptr[v] + (both_ ? at_.row_ptr[v] : offset_t{0}); }

  vertex_t degree(vertex_t v) const {
    if (!both_) {  // the row less its loop, found by a search of the sorted row
      const vertex_t* row = a_.col_idx + a_.row_ptr[v];
      const vertex_t* end = a_.col_idx + a_.row_ptr[v + 1];
      return static_cast<vertex_t>(end - row) - (std::binary_search(row, end, v) ? 1 : 0);
    }
    vertex_t d = 0;
    walk(v, [&d](vertex_t) { ++d; });
    return d;
  }

 private:
  CsrView<double> a_;
  bool both_;
  CsrView<double> at_;
};

}  // namespace graphrun::detail
