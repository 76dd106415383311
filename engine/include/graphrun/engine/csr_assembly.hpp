// Assembling CSR from entries that come in parts (COO ranges, the chunks a
// parallel parser produced), in parallel passes without atomics, stable, so
// that duplicates merge in input order at any thread count.
//
//   1. Each part's entries are counted per bucket of 2^shift consecutive
//      rows (at most 2048 buckets).
//   2. Each part's entries are scattered into bucket order: bucket-major,
//      part-minor, so input order holds within a bucket. A part writes into
//      up to 2048 sequential streams; nothing contends.
//   3. One bucket at a time per thread: a radix sort by column (buckets of
//      4096 entries and more), then a counting sort by row inside the bucket
//      (its row counts fit in cache), both stable, so that every row comes
//      out sorted with equal columns in input order; then duplicates merge
//      (Duplicates::last is the last in input order). Small buckets sort
//      each row instead.
//   4. The rows, compacted, into the final arrays, in parallel.
//
// This replaced a counting sort with an atomic increment per entry on its
// row's cursor: on an R-MAT graph of 1.3e8 edges the hub rows' cursors made
// that scatter take 2.05 s with 16 threads, no faster than one thread, and a
// matrix with values was scattered by one thread to keep input order. The
// parts need not be copied into one COO first (the edge-list reader hands
// over its parse chunks). Scratch arrays are left uninitialized (no serial
// zero-fill of gigabytes) and first written by the threads that fill them.
// Peak memory besides the parts: 16 bytes per entry for a pattern (row and
// column in bucket order, the sorted columns), 36 with double values; and
// per thread, twice the largest bucket it radix-sorts (16 or 32 bytes per
// entry of that bucket).
#pragma once

#include <omp.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <numeric>
#include <utility>
#include <vector>

#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/host_trace.hpp"
#include "graphrun/engine/prefault.hpp"

namespace graphrun {

namespace detail {

// Storage without value-initialization, for arrays every element of which
// is written before it is read.
template <class T>
std::unique_ptr<T[]> scratch(std::size_t n) {
  return std::unique_ptr<T[]>(new T[n]);
}

}  // namespace detail

// The CSR matrix (n_rows x n_cols) of the entries of parts 0 .. parts-1, in
// that order: count(p) is how many entries part p has, and entries(p, emit)
// calls emit(row, col, value) for each of them in order (value ignored for a
// pattern). Duplicates merge by `dup`. An entry outside the shape is an
// ArgumentError, as is a count that emit calls disagree with. `threads`: at
// most this many (0: OpenMP's default); entries(p, ...) runs in parallel for
// different parts.
template <class T, class Count, class Entries>
Csr<T> assemble_csr(vertex_t n_rows, vertex_t n_cols, std::int64_t parts, bool pattern,
                    Duplicates dup, int threads, Count count, Entries entries) {
  if (n_rows < 0 || n_cols < 0) throw ArgumentError("Csr: negative shape");
  const vertex_t n = n_rows;
  std::vector<offset_t> part_start(static_cast<std::size_t>(parts) + 1, 0);
  for (std::int64_t p = 0; p < parts; ++p) {
    const offset_t c = count(p);
    if (c < 0) throw ArgumentError("Csr: negative entry count");
    part_start[p + 1] = checked_add<offset_t>(part_start[p], c, "entry count");
  }
  const offset_t nnz = part_start[parts];
  std::vector<offset_t> row_ptr(static_cast<std::size_t>(n) + 1, 0);
  if (nnz == 0) return Csr<T>(n, n_cols, std::move(row_ptr), {}, {});
  if (n == 0) throw ArgumentError("Csr: entry outside the matrix shape");

  HostTrace trace("csr assembly");  // GRAPHRUN_TRACE: each step's time
  // Small inputs in one thread: waking the others costs more.
  const int nt = nnz < (offset_t{1} << 16) ? 1
                 : threads > 0             ? threads
                                           : std::max(1, omp_get_max_threads());
  int shift = 0;
  while ((std::int64_t{n - 1} >> shift) >= 2048) ++shift;
  const std::int64_t buckets = (std::int64_t{n - 1} >> shift) + 1;

  // 1. Counts per (part, bucket); the range check.
  std::vector<offset_t> cursor(static_cast<std::size_t>(parts * buckets), 0);
  bool in_range = true, counted = true;
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1) reduction(&& : in_range, counted)
  for (std::int64_t p = 0; p < parts; ++p) {
    offset_t* c = cursor.data() + p * buckets;
    offset_t seen = 0;
    bool ok = true;
    entries(p, [&](vertex_t r, vertex_t col, T) {
      if (r < 0 || r >= n || col < 0 || col >= n_cols) {
        ok = false;
        return;
      }
      ++c[r >> shift];
      ++seen;
    });
    in_range = in_range && ok;
    counted = counted && seen == part_start[p + 1] - part_start[p];
  }
  if (!in_range) throw ArgumentError("Csr: entry outside the matrix shape");
  if (!counted) throw ArgumentError("Csr: a part's entries differ from its count");
  std::vector<offset_t> bucket_start(static_cast<std::size_t>(buckets) + 1);
  offset_t at = 0;
  for (std::int64_t b = 0; b < buckets; ++b) {
    bucket_start[b] = at;
    for (std::int64_t p = 0; p < parts; ++p) {
      const offset_t c = cursor[p * buckets + b];
      cursor[p * buckets + b] = at;
      at += c;
    }
  }
  bucket_start[buckets] = at;
  trace.step("counted");

  // 2. Into bucket order.
  const auto m = static_cast<std::size_t>(nnz);
  auto by_row = detail::scratch<vertex_t>(m);
  auto by_col = detail::scratch<vertex_t>(m);
  auto by_val = detail::scratch<T>(pattern ? 0 : m);
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
  for (std::int64_t p = 0; p < parts; ++p) {
    offset_t* next = cursor.data() + p * buckets;
    entries(p, [&](vertex_t r, vertex_t col, T v) {
      const offset_t q = next[r >> shift]++;
      by_row[q] = r;
      by_col[q] = col;
      if (!pattern) by_val[q] = v;
    });
  }

  trace.step("into bucket order");

  // 3. Per bucket: rows in order (row_first: where each row starts), each
  // row sorted and merged (kept: its length after merging). A bucket of
  // many entries is first put in column order by an LSD radix sort (11-bit
  // digits, stable, in cache), so that the stable counting sort by row
  // leaves every row sorted: on R-MAT graphs that is several times faster
  // than sorting each row. A small bucket sorts its rows one by one.
  constexpr int kDigitBits = 11;
  constexpr offset_t kRadixMin = 4096;  // entries in a bucket
  const int column_bits = n_cols > 1 ? std::bit_width(static_cast<std::uint32_t>(n_cols - 1)) : 0;
  const int column_passes = (column_bits + kDigitBits - 1) / kDigitBits;
  auto cols = detail::scratch<vertex_t>(m);
  auto vals = detail::scratch<T>(pattern ? 0 : m);
  std::vector<offset_t> row_first(static_cast<std::size_t>(n));
  std::vector<offset_t>& kept = row_ptr;  // kept[r + 1], summed below
#pragma omp parallel num_threads(nt)
  {
    std::vector<offset_t> local, digits;
    std::vector<offset_t> perm;
    std::vector<vertex_t> tmp_c;
    std::vector<T> tmp_v;
    std::vector<vertex_t> ping_r, ping_c, pong_r, pong_c;
    std::vector<T> ping_v, pong_v;
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t b = 0; b < buckets; ++b) {
      const offset_t begin = bucket_start[b], end = bucket_start[b + 1];
      const auto size = static_cast<std::size_t>(end - begin);
      const auto r0 = static_cast<vertex_t>(b << shift);
      const auto r1 = static_cast<vertex_t>(std::min<std::int64_t>(n, (b + 1) << shift));
      const vertex_t* src_r = by_row.get() + begin;
      const vertex_t* src_c = by_col.get() + begin;
      const T* src_v = pattern ? nullptr : by_val.get() + begin;
      const bool column_order = end - begin >= kRadixMin;
      if (column_order) {
        for (auto* buffer : {&ping_r, &ping_c, &pong_r, &pong_c}) buffer->resize(size);
        if (!pattern) {
          ping_v.resize(size);
          pong_v.resize(size);
        }
        for (int pass = 0; pass < column_passes; ++pass) {
          const int low = pass * kDigitBits;
          const auto digit = [low](vertex_t c) {
            return static_cast<std::size_t>((static_cast<std::uint32_t>(c) >> low) &
                                            ((1u << kDigitBits) - 1));
          };
          digits.assign((std::size_t{1} << kDigitBits) + 1, 0);
          for (std::size_t i = 0; i < size; ++i) ++digits[digit(src_c[i]) + 1];
          // All entries share this digit: the order stands as it is.
          if (std::find(digits.begin(), digits.end(), static_cast<offset_t>(size)) != digits.end())
            continue;
          std::partial_sum(digits.begin(), digits.end(), digits.begin());
          const bool to_ping = src_c != ping_c.data();
          vertex_t* dst_r = to_ping ? ping_r.data() : pong_r.data();
          vertex_t* dst_c = to_ping ? ping_c.data() : pong_c.data();
          T* dst_v = pattern ? nullptr : (to_ping ? ping_v.data() : pong_v.data());
          for (std::size_t i = 0; i < size; ++i) {
            const auto q = static_cast<std::size_t>(digits[digit(src_c[i])]++);
            dst_r[q] = src_r[i];
            dst_c[q] = src_c[i];
            if (!pattern) dst_v[q] = src_v[i];
          }
          src_r = dst_r, src_c = dst_c, src_v = dst_v;
        }
      }
      local.assign(static_cast<std::size_t>(r1 - r0) + 1, 0);
      for (std::size_t i = 0; i < size; ++i) ++local[src_r[i] - r0 + 1];
      std::partial_sum(local.begin(), local.end(), local.begin());
      for (vertex_t r = r0; r < r1; ++r) row_first[r] = begin + local[r - r0];
      for (std::size_t i = 0; i < size; ++i) {
        const offset_t q = begin + local[src_r[i] - r0]++;
        cols[q] = src_c[i];
        if (!pattern) vals[q] = src_v[i];
      }
      for (vertex_t r = r0; r < r1; ++r) {
        const offset_t first = row_first[r];
        const offset_t len = (r + 1 < r1 ? row_first[r + 1] : end) - first;
        if (len == 0) continue;
        vertex_t* c = cols.get() + first;
        offset_t kept_len = 0;
        if (pattern) {
          if (!column_order) std::sort(c, c + len);
          kept_len = std::unique(c, c + len) - c;
        } else if (column_order) {
          // Sorted, equal columns in input order: merge neighbours in place.
          T* v = vals.get() + first;
          for (offset_t k = 0; k < len; ++k) {
            if (kept_len > 0 && c[kept_len - 1] == c[k]) {
              T& acc = v[kept_len - 1];
              acc = dup == Duplicates::sum   ? acc + v[k]
                    : dup == Duplicates::max ? std::max(acc, v[k])
                    : dup == Duplicates::min ? std::min(acc, v[k])
                                             : v[k];
            } else {
              c[kept_len] = c[k];
              v[kept_len] = v[k];
              ++kept_len;
            }
          }
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
                    : dup == Duplicates::min ? std::min(acc, val)
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
  trace.step("buckets sorted and merged");

  // 4. The merged rows, packed.
  const auto total = static_cast<std::size_t>(kept[n]);
  // Faulted in on every core before the fill (prefault.hpp).
  std::vector<vertex_t> col_idx = prefaulted_vector<vertex_t>(total);
  std::vector<T> values = prefaulted_vector<T>(pattern ? 0 : total);
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
  for (std::int64_t b = 0; b < buckets; ++b) {
    const auto r0 = static_cast<vertex_t>(b << shift);
    const auto r1 = static_cast<vertex_t>(std::min<std::int64_t>(n, (b + 1) << shift));
    for (vertex_t r = r0; r < r1; ++r) {
      const offset_t len = kept[r + 1] - kept[r];
      std::copy_n(cols.get() + row_first[r], len, col_idx.begin() + kept[r]);
      if (!pattern) std::copy_n(vals.get() + row_first[r], len, values.begin() + kept[r]);
    }
  }
  cols.reset();
  vals.reset();
  trace.step("packed");
  return Csr<T>(n, n_cols, std::move(row_ptr), std::move(col_idx), std::move(values));
}

}  // namespace graphrun
