// The strip agent of the CPU SpGEMM: spgemm_rows' long dense rows of
// PlusTimes<double> over float entries, expanded against a copy of B cut
// into vertical strips (SpgemmTuning::strip_cols, and narrower by
// strip_bytes where B is large), so that a strip's accumulators stay in L1
// while B's rows stream past, and a batch of rows sweeps one strip while it
// is in cache. It plans its own strips (build), as only spgemm_rows uses
// them and only when they pay.
#pragma once

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define GRAPHRUN_STRIP_AVX2 1
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>

#include "spgemm_row_common.hpp"

namespace graphrun::cpu::spgemm_detail {

template <class S, class T>
class StripRows : RowOperands<S, T> {
 public:
  using V = typename S::value_type;
  using Tuning = SpgemmTuning;
  using RowOperands<S, T>::RowOperands;
  // The strip path reads rows out by their non-zero sums, which needs sums
  // that are zero only where there is no product: float entries multiplied
  // and added in double, all positive (a product of two positive floats is
  // a positive double: no underflow, no overflow).
  static constexpr bool capable = std::is_same_v<S, PlusTimes<double>> && std::is_same_v<T, float>;

  // spgemm_rows: whether the long dense rows are expanded strip by strip
  // (SpgemmTuning::strip_cols), and if so B's strips, in p.strips. Only when
  // the rows that would use them have many products per entry of B (the
  // copy is two passes over B), B's rows are long enough to make runs of
  // some length in each strip, and every entry of A and B is positive. A
  // copy that does not fit in memory leaves the rows on the bitmap path.
  void build(Plan& p, int threads) const {
    if constexpr (capable) {
      if (!p.any_dense || b_.n_cols == 0 || b_.n_rows == 0) return;
      if (b_.nnz < Tuning::strip_min_row_entries * b_.n_rows) return;
      // Strips of strip_cols columns, or narrower where B is large
      // (SpgemmTuning::strip_bytes), but never so many that B's rows keep
      // fewer than strip_min_run entries per strip on average; and at
      // least one strip per 2^16 columns (a strip's columns are 16-bit).
      const std::int64_t by_cols = (b_.n_cols + Tuning::strip_cols - 1) / Tuning::strip_cols;
      const std::int64_t bytes =
          b_.nnz * static_cast<std::int64_t>(sizeof(std::uint16_t) + sizeof(float));
      const std::int64_t by_bytes = (bytes + Tuning::strip_bytes - 1) / Tuning::strip_bytes;
      const std::int64_t most =
          std::max<std::int64_t>(1, b_.nnz / (Tuning::strip_min_run * b_.n_rows));
      const std::int64_t count = std::max<std::int64_t>(
          (b_.n_cols + 65535) / 65536, std::min(most, std::max(by_cols, by_bytes)));
      const std::int64_t min_ip = Tuning::strip_min_products_per_col * b_.n_cols;
      std::int64_t rows = 0, ip = 0;
      for (vertex_t i = 0; i < a_.n_rows; ++i)
        if (p.kind[i] == SpgemmRowKind::dense && p.ip[i] >= min_ip) {
          ++rows;
          ip += p.ip[i];
        }
      if (ip < Tuning::strip_min_products_per_entry * b_.nnz) return;
      if (!all_positive(a_, p.parallel) || !all_positive(b_, p.parallel)) return;
      Strips& s = p.strips;
      const vertex_t width = static_cast<vertex_t>((b_.n_cols + count - 1) / count);
      const vertex_t n = b_.n_rows;
      const std::size_t stride = static_cast<std::size_t>(n) + 1;
      try {
        s.row_ptr.assign(static_cast<std::size_t>(count) * stride, 0);
        s.col.resize(static_cast<std::size_t>(b_.nnz));
        s.val.resize(static_cast<std::size_t>(b_.nnz));
      } catch (const std::bad_alloc&) {
        p.strips = Strips{};
        return;
      }
      // Entries of row k in strip t go to row_ptr[t * stride + k + 1]; one
      // scan of the whole array then gives every strip's row pointers, each
      // strip starting where the one before it ends.
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024) if (p.parallel)
      for (vertex_t k = 0; k < n; ++k)
        for (offset_t kb = b_.row_ptr[k]; kb < b_.row_ptr[k + 1]; ++kb)
          ++s.row_ptr[static_cast<std::size_t>(b_.col_idx[kb] / width) * stride + k + 1];
      for (std::size_t x = 1; x < s.row_ptr.size(); ++x) s.row_ptr[x] += s.row_ptr[x - 1];
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024) if (p.parallel)
      for (vertex_t k = 0; k < n; ++k) {
        int t = -1;
        offset_t out = 0;
        for (offset_t kb = b_.row_ptr[k]; kb < b_.row_ptr[k + 1]; ++kb) {
          const vertex_t j = b_.col_idx[kb];
          if (j / width != t) {  // columns are sorted: strips come in order
            t = j / width;
            out = s.row_ptr[static_cast<std::size_t>(t) * stride + k];
          }
          s.col[out] = static_cast<std::uint16_t>(j - t * width);
          s.val[out] = static_cast<float>(b_.value(kb));
          ++out;
        }
      }
      s.count = static_cast<int>(count);
      s.width = width;
      s.min_ip = min_ip;
      s.rows = rows;
    } else {
      (void)p;
      (void)threads;
    }
  }

  // Long dense rows rows[0, n) against B's strips: strip 0 of every row of
  // the batch, then strip 1, and so on, so that a strip of B is read from
  // DRAM once for the batch and from cache for its other rows
  // (SpgemmTuning::strip_bytes). For each row and strip, every product of
  // the row that falls in the strip is added to the strip's accumulators (in
  // the order k runs through A(i,:), as on the other paths, so the sums are
  // the same to the bit), then the strip's non-zero sums are appended to the
  // row's output in column order and the accumulators zeroed behind. Row r
  // is written to out_col + starts[r], out_val + starts[r] (room for
  // min(IP, n_cols) + 1 entries); its length to len[r].
  void numeric_batch(const Strips& s, Workspace<V>& w, const vertex_t* rows, int n,
                     const offset_t* starts, vertex_t* out_col, V* out_val, offset_t* len) const {
    std::fill(len, len + n, offset_t{0});
    for (int strip = 0; strip < s.count; ++strip)
      for (int r = 0; r < n; ++r) {
        const vertex_t i = rows[r];
        const offset_t at = starts[r] + len[r];
        add_strip(s, strip, w.acc.data(), a_.row_ptr[i], a_.row_ptr[i + 1]);
        len[r] += read_out(s, strip, w.acc.data(), out_col + at, out_val + at);
      }
  }

 private:
  // Every product of A(i, a_begin..a_end) in strip `strip`, added to acc.
  // While one row of the strip is summed, the next one is prefetched: the
  // strips of a row are short runs that the hardware prefetcher would meet
  // cold.
  void add_strip(const Strips& s, int strip, V* acc, offset_t a_begin, offset_t a_end) const {
    static const AddProducts add = pick_add_products();
    const std::uint16_t* col = s.col.data();
    const float* val = s.val.data();
    const offset_t* row_ptr = s.row_ptr.data() + static_cast<std::size_t>(strip) *
                                                     (static_cast<std::size_t>(b_.n_rows) + 1);
    for (offset_t ka = a_begin; ka < a_end; ++ka) {
      const vertex_t k = a_.col_idx[ka];
      if (ka + 1 < a_end) {
        const vertex_t next = a_.col_idx[ka + 1];
        prefetch_lines(col + row_ptr[next], col + row_ptr[next + 1]);
        prefetch_lines(val + row_ptr[next], val + row_ptr[next + 1]);
      }
      add(acc, a_entry(ka), col, val, row_ptr[k], row_ptr[k + 1]);
    }
  }

  // The strip's non-zero sums, in column order, to out_col/out_val; the
  // accumulators zeroed behind. Branch-free: the slot at t is overwritten
  // until a non-zero sum claims it (hence the spare slot past every row).
  offset_t read_out(const Strips& s, int strip, V* acc, vertex_t* out_col, V* out_val) const {
    const vertex_t first = static_cast<vertex_t>(strip) * s.width;
    const vertex_t width = std::min(s.width, b_.n_cols - first);
    offset_t t = 0;
    for (vertex_t j = 0; j < width; ++j) {
      const V x = acc[j];
      out_col[t] = first + j;
      out_val[t] = x;
      t += x != S::zero();
      acc[j] = S::zero();
    }
    return t;
  }

 public:
  // acc[col[kb]] += aik * val[kb] for kb in [begin, end), in that order.
  // With SSE2, two entries of B are widened and multiplied at once (a
  // product of two floats is exact in double, so this is the scalar loop's
  // arithmetic, as is an FMA the compiler may form): about 7% fewer cycles
  // per product than the scalar loop, which spends a zeroing, a conversion
  // and a multiply on each.
  static void add_products(V* acc, V aik, const std::uint16_t* col, const float* val,
                           offset_t begin, offset_t end) {
    offset_t kb = begin;
#if defined(__SSE2__)
    const __m128d a2 = _mm_set1_pd(aik);
    for (; kb + 2 <= end; kb += 2) {
      // Two floats as one 8-byte load; memcpy, since val + kb is only
      // 4-byte aligned (the compiler makes it one unaligned movsd).
      double two;
      std::memcpy(&two, val + kb, sizeof two);
      const __m128 pair = _mm_castpd_ps(_mm_set_sd(two));
      const __m128d p = _mm_mul_pd(a2, _mm_cvtps_pd(pair));
      V* x0 = acc + col[kb];
      V* x1 = acc + col[kb + 1];
      _mm_store_sd(x0, _mm_add_sd(_mm_load_sd(x0), p));
      _mm_store_sd(x1, _mm_add_sd(_mm_load_sd(x1), _mm_unpackhi_pd(p, p)));
    }
#endif
    for (; kb < end; ++kb)
      acc[col[kb]] = S::add(acc[col[kb]], S::mul(aik, static_cast<V>(val[kb])));
  }

  using AddProducts = void (*)(V*, V, const std::uint16_t*, const float*, offset_t, offset_t);

#if GRAPHRUN_STRIP_AVX2
  // add_products with four entries of B at a time: their columns in one
  // 8-byte load, their values widened and multiplied in one AVX register;
  // the sums still one at a time in the same order, so the same bits.
  // Chosen at run time where the CPU has AVX2 (the build targets plain
  // x86-64): fewer instructions per product than the SSE2 pairs, which is
  // what the loop is bound by once B's runs are in cache.
  [[gnu::target("avx2")]] static void add_products_avx2(V* acc, V aik, const std::uint16_t* col,
                                                        const float* val, offset_t begin,
                                                        offset_t end) {
    offset_t kb = begin;
    const __m256d a4 = _mm256_set1_pd(aik);
    for (; kb + 4 <= end; kb += 4) {
      const __m256d p = _mm256_mul_pd(a4, _mm256_cvtps_pd(_mm_loadu_ps(val + kb)));
      std::uint64_t c;
      std::memcpy(&c, col + kb, sizeof c);
      const __m128d lo = _mm256_castpd256_pd128(p), hi = _mm256_extractf128_pd(p, 1);
      V* x0 = acc + (c & 0xffff);
      V* x1 = acc + ((c >> 16) & 0xffff);
      V* x2 = acc + ((c >> 32) & 0xffff);
      V* x3 = acc + (c >> 48);
      _mm_store_sd(x0, _mm_add_sd(_mm_load_sd(x0), lo));
      _mm_store_sd(x1, _mm_add_sd(_mm_load_sd(x1), _mm_unpackhi_pd(lo, lo)));
      _mm_store_sd(x2, _mm_add_sd(_mm_load_sd(x2), hi));
      _mm_store_sd(x3, _mm_add_sd(_mm_load_sd(x3), _mm_unpackhi_pd(hi, hi)));
    }
    for (; kb < end; ++kb)
      acc[col[kb]] = S::add(acc[col[kb]], S::mul(aik, static_cast<V>(val[kb])));
  }
#endif

  static AddProducts pick_add_products() {
#if GRAPHRUN_STRIP_AVX2
    if constexpr (capable)
      if (__builtin_cpu_supports("avx2")) return add_products_avx2;
#endif
    return add_products;
  }

  // Asks for the cache lines of [begin, end) ahead of their use, into L2
  // (the accumulators keep L1).
  template <class X>
  static void prefetch_lines(const X* begin, const X* end) {
    constexpr std::uintptr_t line = 64;
    const auto last = reinterpret_cast<std::uintptr_t>(end);
    for (auto a = reinterpret_cast<std::uintptr_t>(begin) & ~(line - 1); a < last; a += line)
      __builtin_prefetch(reinterpret_cast<const void*>(a), 0, 2);
  }

 private:
  // Every entry > 0 (a pattern's entries are 1): NaN, zeros and negatives fail.
  static bool all_positive(const CsrView<T>& m, bool parallel) {
    if (!m.values) return true;
    bool ok = true;
#pragma omp parallel for reduction(&& : ok) schedule(static) if (parallel)
    for (offset_t k = 0; k < m.nnz; ++k)
      ok = ok && m.values[k] > T(0) && std::isfinite(m.values[k]);
    return ok;
  }

  using RowOperands<S, T>::a_;
  using RowOperands<S, T>::b_;
  using RowOperands<S, T>::a_entry;
  using RowOperands<S, T>::b_entry;
};

}  // namespace graphrun::cpu::spgemm_detail
