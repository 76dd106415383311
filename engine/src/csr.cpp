#include "graphrun/engine/csr.hpp"

#include <omp.h>

#include <algorithm>
#include <numeric>
#include <string>

#include "graphrun/engine/error.hpp"
#include "graphrun/engine/prefault.hpp"

namespace graphrun {

template <class T>
Csr<T>::Csr(vertex_t n_rows, vertex_t n_cols, std::vector<offset_t> row_ptr,
            std::vector<vertex_t> col_idx, std::vector<T> values)
    : n_rows_(n_rows),
      n_cols_(n_cols),
      row_ptr_(std::move(row_ptr)),
      col_idx_(std::move(col_idx)),
      values_(std::move(values)) {
  if (n_rows < 0 || n_cols < 0) throw ArgumentError("Csr: negative shape");
  if (row_ptr_.size() != static_cast<std::size_t>(n_rows) + 1)
    throw ArgumentError("Csr: row_ptr must have n_rows + 1 entries");
  if (row_ptr_.front() != 0 || row_ptr_.back() != static_cast<offset_t>(col_idx_.size()))
    throw ArgumentError("Csr: row_ptr must start at 0 and end at nnz");
  if (!values_.empty() && values_.size() != col_idx_.size())
    throw ArgumentError("Csr: values must be empty (pattern) or hold nnz entries");
  bool ok = true;
  const auto nnz = static_cast<offset_t>(col_idx_.size());
  // One thread below ~10^6 entries: waking the others can cost more than the check.
  const bool parallel = col_idx_.size() + row_ptr_.size() >= (std::size_t{1} << 20);
#pragma omp parallel for schedule(dynamic, 1024) reduction(&& : ok) if (parallel)
  for (vertex_t i = 0; i < n_rows; ++i) {
    const offset_t b = row_ptr_[i], e = row_ptr_[i + 1];
    // Each row checked on its own (rows run in parallel): a pointer past nnz
    // in the middle of row_ptr (a damaged file) must not be followed.
    if (e < b || b < 0 || e > nnz) {
      ok = false;
      continue;
    }
    for (offset_t k = b; k < e; ++k) {
      const vertex_t c = col_idx_[k];
      if (c < 0 || c >= n_cols || (k > b && col_idx_[k - 1] >= c)) ok = false;
    }
  }
  if (!ok)
    throw ArgumentError(
        "Csr: row_ptr not non-decreasing within [0, nnz], or columns out of range, or not sorted "
        "and unique within a row");
}

template <class T>
Csr<T> Csr<T>::transpose() const {
  const offset_t nz = nnz();
  const bool pattern = is_pattern();
  const std::size_t nc = static_cast<std::size_t>(n_cols_);
  // Each thread takes a contiguous block of rows (equal nonzeros) and counts
  // its entries per column; the scatter then places thread t's entries of
  // column c after those of threads < t. Rows are visited in order within a
  // block and blocks are ordered, so each transposed row comes out sorted —
  // the same result as the serial scan, at any thread count. The per-thread
  // counts cost threads x n_cols offsets: as many threads as keep them
  // within the size of col_idx itself (at least one). Falling straight back
  // to one thread made a wide matrix with billions of entries (2^27 columns,
  // 2.3e9 entries: 16 threads would want 16 GiB of counts) a serial pass of
  // tens of seconds, where 8 threads fit the budget.
  int nt = omp_get_max_threads();
  if (nt > 1 && static_cast<double>(nt) * static_cast<double>(nc) * sizeof(offset_t) >
                    static_cast<double>(nz) * sizeof(vertex_t)) {
    const double fit = static_cast<double>(nz) * sizeof(vertex_t) /
                       (static_cast<double>(nc) * sizeof(offset_t));  // nc > 0 here
    nt = std::max(1, static_cast<int>(fit));
  }
  std::vector<vertex_t> first_row(static_cast<std::size_t>(nt) + 1);
  for (int t = 0; t <= nt; ++t) {
    const offset_t target = split_point(nz, nt, t);
    first_row[t] = static_cast<vertex_t>(
        std::lower_bound(row_ptr_.begin(), row_ptr_.end(), target) - row_ptr_.begin());
  }
  first_row[nt] = n_rows_;  // trailing empty rows belong to the last block
  std::vector<offset_t> counts(static_cast<std::size_t>(nt) * nc, 0);  // [t][c]
#pragma omp parallel num_threads(nt)
  {
    const int t = omp_get_thread_num();
    offset_t* cnt = counts.data() + static_cast<std::size_t>(t) * nc;
    for (offset_t k = row_ptr_[first_row[t]]; k < row_ptr_[first_row[t + 1]]; ++k)
      ++cnt[col_idx_[k]];
  }
  // Column c of the transpose starts at tptr[c]; thread t's part of it at
  // tptr[c] + (counts of threads before t), stored back into counts.
  std::vector<offset_t> tptr(nc + 1, 0);
  for (std::size_t c = 0; c < nc; ++c) {
    offset_t at = tptr[c];
    for (int t = 0; t < nt; ++t) {
      const offset_t n = counts[static_cast<std::size_t>(t) * nc + c];
      counts[static_cast<std::size_t>(t) * nc + c] = at;
      at += n;
    }
    tptr[c + 1] = at;
  }
  std::vector<vertex_t> tcol = prefaulted_vector<vertex_t>(static_cast<std::size_t>(nz));
  std::vector<T> tval = prefaulted_vector<T>(pattern ? 0 : static_cast<std::size_t>(nz));
#pragma omp parallel num_threads(nt)
  {
    const int t = omp_get_thread_num();
    offset_t* next = counts.data() + static_cast<std::size_t>(t) * nc;
    for (vertex_t i = first_row[t]; i < first_row[t + 1]; ++i) {
      for (offset_t k = row_ptr_[i]; k < row_ptr_[i + 1]; ++k) {
        const offset_t p = next[col_idx_[k]]++;
        tcol[p] = i;
        if (!pattern) tval[p] = values_[k];
      }
    }
  }
  Csr t;
  t.n_rows_ = n_cols_;
  t.n_cols_ = n_rows_;
  t.row_ptr_ = std::move(tptr);
  t.col_idx_ = std::move(tcol);
  t.values_ = std::move(tval);
  return t;
}

template class Csr<float>;
template class Csr<double>;

}  // namespace graphrun
