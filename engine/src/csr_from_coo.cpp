// Csr::from_coo: COO to CSR in parallel passes without atomics, stable, so
// that duplicates merge in input order at any thread count.
//
//   1. Each thread counts its contiguous share of the entries per bucket of
//      2^shift consecutive rows (at most 2048 buckets).
//   2. Each thread scatters its share into bucket order: bucket-major,
//      thread-minor, so input order holds within a bucket. Every thread
//      writes into 2048 sequential streams; nothing contends.
//   3. One bucket at a time per thread: a counting sort by row inside the
//      bucket (its row counts fit in cache), then each row sorted by column
//      and its duplicates merged (stable, so Duplicates::last is the last in
//      input order).
//   4. The rows, compacted, into the final arrays, in parallel.
//
// This replaced a counting sort with an atomic increment per entry on its
// row's cursor: on an R-MAT graph of 1.3e8 edges the hub rows' cursors made
// that scatter take 2.05 s with 16 threads, no faster than one thread, and a
// matrix with values was scattered by one thread to keep input order.
// Scratch arrays are left uninitialized (no serial zero-fill of gigabytes)
// and first written by the threads that fill them. Peak memory besides the
// COO: 20 bytes per entry for a pattern (row and column in bucket order,
// the sorted columns, then the final columns once the first are freed), 44
// with double values.
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <vector>

#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/error.hpp"

namespace graphrun {

namespace {

// Storage without value-initialization, for arrays every element of which
// is written before it is read.
template <class T>
std::unique_ptr<T[]> scratch(std::size_t n) {
  return std::unique_ptr<T[]>(new T[n]);
}

}  // namespace

template <class T>
Csr<T> Csr<T>::from_coo(const Coo<T>& coo, Duplicates dup) {
  const offset_t nnz = coo.nnz();
  const bool pattern = coo.is_pattern();
  if (coo.n_rows < 0 || coo.n_cols < 0) throw ArgumentError("Coo: negative shape");
  if (coo.col.size() != coo.row.size() || (!pattern && coo.val.size() != coo.row.size()))
    throw ArgumentError("Coo: row, col and val must have the same length");
  const vertex_t n = coo.n_rows;
  Csr out;
  out.n_rows_ = n;
  out.n_cols_ = coo.n_cols;
  out.row_ptr_.assign(static_cast<std::size_t>(n) + 1, 0);
  if (nnz == 0) return out;
  if (n == 0) throw ArgumentError("Coo: entry outside the matrix shape");

  // Small inputs in one thread: waking the others costs more.
  const int nt = nnz < (offset_t{1} << 16) ? 1 : std::max(1, omp_get_max_threads());
  int shift = 0;
  while ((std::int64_t{n - 1} >> shift) >= 2048) ++shift;
  const std::int64_t buckets = (std::int64_t{n - 1} >> shift) + 1;
  const auto share = [nnz, nt](int t) { return nnz / nt * t + nnz % nt * t / nt; };

  // 1. Counts per (thread share, bucket); the range check.
  std::vector<offset_t> cursor(static_cast<std::size_t>(nt * buckets), 0);
  bool in_range = true;
#pragma omp parallel for num_threads(nt) schedule(static, 1) reduction(&& : in_range)
  for (int t = 0; t < nt; ++t) {
    offset_t* count = cursor.data() + t * buckets;
    for (offset_t k = share(t); k < share(t + 1); ++k) {
      const vertex_t r = coo.row[k], c = coo.col[k];
      if (r < 0 || r >= n || c < 0 || c >= coo.n_cols) {
        in_range = false;
        break;
      }
      ++count[r >> shift];
    }
  }
  if (!in_range) throw ArgumentError("Coo: entry outside the matrix shape");
  std::vector<offset_t> bucket_start(static_cast<std::size_t>(buckets) + 1);
  offset_t at = 0;
  for (std::int64_t b = 0; b < buckets; ++b) {
    bucket_start[b] = at;
    for (int t = 0; t < nt; ++t) {
      const offset_t c = cursor[t * buckets + b];
      cursor[t * buckets + b] = at;
      at += c;
    }
  }
  bucket_start[buckets] = at;

  // 2. Into bucket order.
  const auto m = static_cast<std::size_t>(nnz);
  auto by_row = scratch<vertex_t>(m);
  auto by_col = scratch<vertex_t>(m);
  auto by_val = scratch<T>(pattern ? 0 : m);
#pragma omp parallel for num_threads(nt) schedule(static, 1)
  for (int t = 0; t < nt; ++t) {
    offset_t* next = cursor.data() + t * buckets;
    for (offset_t k = share(t); k < share(t + 1); ++k) {
      const vertex_t r = coo.row[k];
      const offset_t p = next[r >> shift]++;
      by_row[p] = r;
      by_col[p] = coo.col[k];
      if (!pattern) by_val[p] = coo.val[k];
    }
  }

  // 3. Per bucket: rows in order (row_first: where each row starts), each
  // row sorted and merged (kept: its length after merging).
  auto cols = scratch<vertex_t>(m);
  auto vals = scratch<T>(pattern ? 0 : m);
  std::vector<offset_t> row_first(static_cast<std::size_t>(n));
  std::vector<offset_t>& kept = out.row_ptr_;  // kept[r + 1], summed below
#pragma omp parallel num_threads(nt)
  {
    std::vector<offset_t> local;
    std::vector<offset_t> perm;
    std::vector<vertex_t> tmp_c;
    std::vector<T> tmp_v;
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t b = 0; b < buckets; ++b) {
      const offset_t begin = bucket_start[b], end = bucket_start[b + 1];
      const vertex_t r0 = static_cast<vertex_t>(b << shift);
      const vertex_t r1 = static_cast<vertex_t>(std::min<std::int64_t>(n, (b + 1) << shift));
      local.assign(static_cast<std::size_t>(r1 - r0) + 1, 0);
      for (offset_t p = begin; p < end; ++p) ++local[by_row[p] - r0 + 1];
      std::partial_sum(local.begin(), local.end(), local.begin());
      for (vertex_t r = r0; r < r1; ++r) row_first[r] = begin + local[r - r0];
      for (offset_t p = begin; p < end; ++p) {
        const offset_t q = begin + local[by_row[p] - r0]++;
        cols[q] = by_col[p];
        if (!pattern) vals[q] = by_val[p];
      }
      for (vertex_t r = r0; r < r1; ++r) {
        const offset_t first = row_first[r];
        const offset_t len = (r + 1 < r1 ? row_first[r + 1] : end) - first;
        if (len == 0) continue;
        vertex_t* c = cols.get() + first;
        offset_t kept_len = 0;
        if (pattern) {
          std::sort(c, c + len);
          kept_len = std::unique(c, c + len) - c;
        } else {
          T* v = vals.get() + first;
          perm.resize(len);
          std::iota(perm.begin(), perm.end(), offset_t{0});
          if (!std::is_sorted(c, c + len))
            std::stable_sort(perm.begin(), perm.end(),
                             [c](offset_t x, offset_t y) { return c[x] < c[y]; });
          tmp_c.resize(len);
          tmp_v.resize(len);
          for (offset_t k = 0; k < len; ++k) {
            const vertex_t col = c[perm[k]];
            const T val = v[perm[k]];
            if (kept_len > 0 && tmp_c[kept_len - 1] == col) {
              T& acc = tmp_v[kept_len - 1];
              acc = dup == Duplicates::sum   ? acc + val
                    : dup == Duplicates::max ? std::max(acc, val)
                                             : val;
            } else {
              tmp_c[kept_len] = col;
              tmp_v[kept_len] = val;
              ++kept_len;
            }
          }
          std::copy(tmp_c.begin(), tmp_c.begin() + kept_len, c);
          std::copy(tmp_v.begin(), tmp_v.begin() + kept_len, v);
        }
        kept[r + 1] = kept_len;
      }
    }
  }
  by_row.reset();
  by_col.reset();
  by_val.reset();
  std::partial_sum(kept.begin(), kept.end(), kept.begin());

  // 4. The merged rows, packed.
  const auto total = static_cast<std::size_t>(kept[n]);
  out.col_idx_.resize(total);
  if (!pattern) out.values_.resize(total);
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
  for (std::int64_t b = 0; b < buckets; ++b) {
    const vertex_t r0 = static_cast<vertex_t>(b << shift);
    const vertex_t r1 = static_cast<vertex_t>(std::min<std::int64_t>(n, (b + 1) << shift));
    for (vertex_t r = r0; r < r1; ++r) {
      const offset_t len = kept[r + 1] - kept[r];
      std::copy_n(cols.get() + row_first[r], len, out.col_idx_.begin() + kept[r]);
      if (!pattern) std::copy_n(vals.get() + row_first[r], len, out.values_.begin() + kept[r]);
    }
  }
  return out;
}

template Csr<float> Csr<float>::from_coo(const Coo<float>&, Duplicates);
template Csr<double> Csr<double>::from_coo(const Coo<double>&, Duplicates);

}  // namespace graphrun
