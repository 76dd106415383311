// CSR (compressed sparse row), the format every kernel starts from.
//
//   row_ptr[0 .. n_rows]        offsets; row i is [row_ptr[i], row_ptr[i+1])
//   col_idx[row_ptr[i] ..]      column ids of row i, sorted ascending, unique
//   values [row_ptr[i] ..]      the entries; EMPTY for a pattern matrix
//
// A pattern matrix (values empty) stands for all-ones entries: an unweighted
// graph costs 4 bytes per edge instead of 12, which is what an SpMV streams.
// Kernels read entries through CsrView::value(k).
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "graphrun/engine/array_bytes.hpp"
#include "graphrun/engine/coo.hpp"
#include "graphrun/engine/host_device.hpp"
#include "graphrun/engine/types.hpp"

namespace graphrun {

// Non-owning view: pointers and sizes, the same layout on host and device.
template <class T>
struct CsrView {
  vertex_t n_rows = 0;
  vertex_t n_cols = 0;
  offset_t nnz = 0;
  const offset_t* row_ptr = nullptr;
  const vertex_t* col_idx = nullptr;
  const T* values = nullptr;  // nullptr for a pattern matrix

  GRAPHRUN_HD T value(offset_t k) const { return values ? values[k] : T(1); }
};

// What to do with repeated (row, col) entries when assembling CSR.
enum class Duplicates {
  sum,  // add their values (a pattern stays a pattern: one entry)
  max,  // keep the largest value
  min,  // keep the smallest value (shortest paths: the shortest of parallel edges)
  last  // keep the value of the last occurrence in input order
};

template <class T>
class Csr {
 public:
  Csr() : row_ptr_(1, 0) {}
  // Takes ownership of already-valid arrays; validates shape, bounds and
  // per-row sorted/unique columns (ArgumentError otherwise).
  Csr(vertex_t n_rows, vertex_t n_cols, std::vector<offset_t> row_ptr,
      std::vector<vertex_t> col_idx, std::vector<T> values);

  // Assembles CSR from COO in O(nnz) plus per-row sorting, in parallel.
  // Entries must lie inside the shape (ArgumentError otherwise).
  static Csr from_coo(const Coo<T>& coo, Duplicates dup = Duplicates::sum);

  vertex_t n_rows() const noexcept { return n_rows_; }
  vertex_t n_cols() const noexcept { return n_cols_; }
  offset_t nnz() const noexcept { return static_cast<offset_t>(col_idx_.size()); }
  bool is_pattern() const noexcept { return values_.empty(); }

  const std::vector<offset_t>& row_ptr() const noexcept { return row_ptr_; }
  const std::vector<vertex_t>& col_idx() const noexcept { return col_idx_; }
  const std::vector<T>& values() const noexcept { return values_; }

  offset_t row_length(vertex_t i) const { return row_ptr_[i + 1] - row_ptr_[i]; }
  std::span<const vertex_t> row_cols(vertex_t i) const {
    return {col_idx_.data() + row_ptr_[i], static_cast<std::size_t>(row_length(i))};
  }

  CsrView<T> view() const noexcept {
    return {n_rows_, n_cols_, nnz(), row_ptr_.data(), col_idx_.data(), data_or_null(values_)};
  }

  // Aᵀ as CSR (columns of the result stay sorted), in parallel.
  Csr transpose() const;

  // Bytes held by the arrays (for summaries and memory estimates).
  std::size_t bytes() const noexcept { return bytes_of(row_ptr_, col_idx_, values_); }

 private:
  vertex_t n_rows_ = 0;
  vertex_t n_cols_ = 0;
  std::vector<offset_t> row_ptr_;
  std::vector<vertex_t> col_idx_;
  std::vector<T> values_;
};

extern template class Csr<float>;
extern template class Csr<double>;

// The row that holds stored entry e (0 <= e < nnz): the last row i with
// row_ptr[i] <= e, so empty rows before it are passed over.
template <class T>
vertex_t row_of_entry(const Csr<T>& a, offset_t e) {
  const auto& p = a.row_ptr();
  return static_cast<vertex_t>(std::upper_bound(p.begin(), p.end(), e) - p.begin() - 1);
}

// The first stored entry, in storage order (row by row), whose value
// satisfies pred; none for a pattern matrix. For checks that name the first
// offending entry: a min-reduction over all threads, so the answer does not
// depend on their number.
template <class T, class Pred>
std::optional<offset_t> find_first_value(const Csr<T>& a, Pred pred) {
  const std::vector<T>& v = a.values();
  const auto n = static_cast<offset_t>(v.size());
  offset_t first = n;
  // (Guarded: CUDA sources include this header without OpenMP.)
#if defined(_OPENMP)
#pragma omp parallel for reduction(min : first) schedule(static)
#endif
  for (offset_t e = 0; e < n; ++e)
    if (pred(v[static_cast<std::size_t>(e)])) first = std::min(first, e);
  if (first == n) return std::nullopt;
  return first;
}

}  // namespace graphrun
