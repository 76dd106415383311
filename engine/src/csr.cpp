#include "graphrun/engine/csr.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <memory>
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

// The transpose as a two-level counting sort, so that neither pass writes
// at random across the whole matrix:
//   1. each thread takes a block of rows (equal nonzeros) and counts its
//      entries per bucket of 2^shift consecutive columns (at most 4,096
//      buckets);
//   2. each thread scatters its entries into the buckets, in row order:
//      4,096 sequential streams (row, column within the bucket, value);
//   3. each bucket, on whichever thread takes it, is counting-sorted by
//      column with a count array of 2^shift entries that stays in the
//      core's cache, straight into the bucket's own range of the result
//      (buckets are in column order, so bucket b's entries occupy the same
//      positions there as in the staging arrays).
// Entries reach a bucket in (thread, row) order, which is row order, and
// the sort is stable: each transposed row comes out sorted by row, the same
// arrays at any thread count. The counting transpose it replaces scattered
// every entry to a random place of the whole result and kept a count per
// column for every thread, zeroed and scanned on one core; on R-MAT 22
// (65M entries, 4M columns, 2 threads) it took 0.55 s. Staging costs 6
// bytes per entry (and the values' bytes) beside the result.
template <class T>
Csr<T> Csr<T>::transpose() const {
  const offset_t nz = nnz();
  const bool pattern = is_pattern();
  const auto nc = static_cast<std::size_t>(n_cols_);
  std::vector<offset_t> tptr = prefaulted_vector<offset_t>(nc + 1, 0);
  std::vector<vertex_t> tcol = prefaulted_vector<vertex_t>(static_cast<std::size_t>(nz));
  std::vector<T> tval = prefaulted_vector<T>(pattern ? 0 : static_cast<std::size_t>(nz));
  Csr t;
  t.n_rows_ = n_cols_;
  t.n_cols_ = n_rows_;
  if (nz == 0) {
    t.row_ptr_ = std::move(tptr);
    return t;
  }

  // Buckets of 2^shift columns: at most 4,096 of them, and a column's
  // place in its bucket fits 16 bits.
  int shift = 0;
  while ((nc >> shift) > 4096 && shift < 16) ++shift;
  const std::size_t buckets = ((nc - 1) >> shift) + 1;
  const std::size_t width = std::size_t{1} << shift;
  const int nt = std::max(1, omp_get_max_threads());
  std::vector<vertex_t> first_row(static_cast<std::size_t>(nt) + 1);
  for (int b = 0; b <= nt; ++b) {
    const offset_t target = split_point(nz, nt, b);
    first_row[b] = static_cast<vertex_t>(
        std::lower_bound(row_ptr_.begin(), row_ptr_.end(), target) - row_ptr_.begin());
  }
  first_row[nt] = n_rows_;  // trailing empty rows belong to the last block

  // 1. Entries per (thread, bucket).
  std::vector<offset_t> cursor(static_cast<std::size_t>(nt) * buckets, 0);  // [t][b]
  // A loop over the blocks, not a block per thread number: a call from
  // inside a parallel region gets a team of one, which must still take
  // every block.
#pragma omp parallel for schedule(static, 1) num_threads(nt)
  for (int th = 0; th < nt; ++th) {
    offset_t* count = cursor.data() + static_cast<std::size_t>(th) * buckets;
    for (offset_t k = row_ptr_[first_row[th]]; k < row_ptr_[first_row[th + 1]]; ++k)
      ++count[static_cast<std::size_t>(col_idx_[k]) >> shift];
  }
  // Bucket b starts at bucket_start[b]; thread t's part of it after the
  // parts of the threads before t.
  std::vector<offset_t> bucket_start(buckets + 1, 0);
  offset_t at = 0;
  for (std::size_t b = 0; b < buckets; ++b) {
    bucket_start[b] = at;
    for (int th = 0; th < nt; ++th) {
      offset_t& c = cursor[static_cast<std::size_t>(th) * buckets + b];
      const offset_t n = c;
      c = at;
      at += n;
    }
  }
  bucket_start[buckets] = at;

  // 2. Staged in buckets, in row order.
  const std::unique_ptr<vertex_t[]> stage_row(new vertex_t[static_cast<std::size_t>(nz)]);
  const std::unique_ptr<std::uint16_t[]> stage_col(new std::uint16_t[static_cast<std::size_t>(nz)]);
  const std::unique_ptr<T[]> stage_val(pattern ? nullptr : new T[static_cast<std::size_t>(nz)]);
  const std::size_t low = width - 1;
#pragma omp parallel for schedule(static, 1) num_threads(nt)
  for (int th = 0; th < nt; ++th) {
    offset_t* next = cursor.data() + static_cast<std::size_t>(th) * buckets;
    for (vertex_t i = first_row[th]; i < first_row[th + 1]; ++i)
      for (offset_t k = row_ptr_[i]; k < row_ptr_[i + 1]; ++k) {
        const auto c = static_cast<std::size_t>(col_idx_[k]);
        const offset_t p = next[c >> shift]++;
        stage_row[p] = i;
        stage_col[p] = static_cast<std::uint16_t>(c & low);
        if (!pattern) stage_val[p] = values_[k];
      }
  }

  // 3. Each bucket counting-sorted by column into its range of the result.
#pragma omp parallel num_threads(nt)
  {
    std::vector<offset_t> start(width + 1);
#pragma omp for schedule(dynamic, 1)
    for (std::size_t b = 0; b < buckets; ++b) {
      const offset_t from = bucket_start[b], to = bucket_start[b + 1];
      const std::size_t c0 = b << shift;
      const std::size_t cols = std::min(width, nc - c0);
      std::fill_n(start.begin(), cols + 1, 0);
      for (offset_t p = from; p < to; ++p) ++start[stage_col[p] + 1];
      offset_t run = from;
      for (std::size_t j = 0; j < cols; ++j) {
        run += start[j + 1];
        start[j + 1] = run;  // tptr of column c0 + j + 1
        tptr[c0 + j + 1] = run;
      }
      start[0] = from;  // start[j]: where column c0 + j's next entry goes
      for (offset_t p = from; p < to; ++p) {
        const offset_t q = start[stage_col[p]]++;
        tcol[q] = stage_row[p];
        if (!pattern) tval[q] = stage_val[p];
      }
    }
  }
  t.row_ptr_ = std::move(tptr);
  t.col_idx_ = std::move(tcol);
  t.values_ = std::move(tval);
  return t;
}

template class Csr<float>;
template class Csr<double>;

}  // namespace graphrun
