// SpMV on the CPU, CSR format, OpenMP over rows:
//
//   y(i) = add_k mul(A(i,k), x(k))   for every row i the mask allows
//
// Rows are split into blocks of equal work (nonzeros + rows) by binary
// search on row_ptr (cpu/partition.hpp), a few blocks per thread handed out
// dynamically: skewed graphs and unevenly loaded cores stay balanced unless
// one row dominates. Each row is reduced by one thread in an order fixed by
// the row alone (spmv_row), so y is bit-identical whatever the thread count
// or the blocks. A semiring with is_terminal() stops a row at its
// annihilator (OR reaching true: bottom-up BFS).
//
// Header-only template, so any semiring works (BFS's AnySecond, later SSSP
// variants); the combinations the library itself uses are compiled once in
// kernels/cpu/spmv_csr.cpp (extern template below), so callers do not
// re-instantiate them.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>

#include "graphrun/engine/context.hpp"
#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/kernels/combos.hpp"
#include "graphrun/kernels/cpu/partition.hpp"
#include "graphrun/kernels/cpu/spmv_kernel.hpp"
#include "graphrun/kernels/mask.hpp"
#include "graphrun/kernels/semiring_traits.hpp"

namespace graphrun::cpu {

// A row kernel (reduce_entries<..., Prefetch>) that prefetches the gather
// x(col_idx[k]) gather_ahead entries on, for PageRank's pass
// (algorithms/src/cpu/pagerank_steps.cpp) where x is past a core's share of
// the caches (gather_prefetch_min_bytes) and the gathers are scattered
// (gathers_scattered): there a row waits on the memory system, elsewhere a
// prefetch is an instruction and a load more per entry. Measured with that
// pass, 2 threads, prefetch on against off: uniform 2M x 8 (x 16 MB) +12-16%
// (32 ahead; 64 ahead +1%), R-MAT 22 +6-12%, gapbs -u 20 and -g 20 (x 8 MB)
// +1-4%; where x fits in the caches (web-NotreDame, soc-Slashdot0902,
// Cornell5, luxembourg_osm) 10-19% slower, and on the 2000x2000 grid (x 32
// MB, but a row's columns within 2,000 ids of it, which the hardware
// prefetcher follows) 21% slower.
inline constexpr offset_t gather_ahead = 32;
inline constexpr std::size_t gather_prefetch_min_bytes = std::size_t{4} << 20;

// Whether a's rows gather far from themselves: of the entries of up to
// 4,096 rows spread over the matrix, more than half reach a column more
// than 8,192 indices (64 KiB of doubles) from their row. The sampled rows
// are far apart, each a cache and TLB miss or two: on `threads` threads
// (gapbs -u 20 on one, 1.6 ms, a quarter of PageRank's set-up).
template <class T>
bool gathers_scattered(const CsrView<T>& a, int threads = 1) {
  const vertex_t step = std::max<vertex_t>(1, a.n_rows / 4096);
  const vertex_t samples = (a.n_rows + step - 1) / step;
  offset_t total = 0, far = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : total, far) \
    if (threads > 1)
  for (vertex_t s = 0; s < samples; ++s) {
    const vertex_t i = s * step;
    for (offset_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const std::int64_t distance = std::int64_t{a.col_idx[k]} - i;
      far += distance > 8192 || distance < -8192;
    }
    total += a.row_ptr[i + 1] - a.row_ptr[i];
  }
  return 2 * far > total;
}

// Whether rows of a gathering from an x of `x_bytes` should prefetch
// (PageRank's pass; the SpMV itself never does, see spmv_csr_impl).
template <class T>
bool prefetch_gathers(const CsrView<T>& a, std::size_t x_bytes, int threads = 1) {
  return x_bytes > gather_prefetch_min_bytes && gathers_scattered(a, threads);
}

namespace detail {

// add over entries [begin, end) of mul(entry k, x(col_idx[k])): a row, or
// the part of a row a merge-path share holds. A semiring with is_terminal()
// stops at its annihilator. Otherwise the even and odd entries go to two
// accumulators, added at the end, so that the additions form two chains
// instead of one. Until 2026-12-05 runs of 32 or more entries took four
// chains and shorter ones one (tuned on ca-CondMat, 1 thread: 0.77x ->
// 0.95x of GraphBLAS with the threshold at 8 -> 32); two chains for every
// row ran gapbs -u 20 33.6 -> 24.4 ms and -g 20 30.3 -> 25.1 ms (2 threads,
// medians of 9; rows of about 32 entries, where four chains were slower
// than one), cit-HepPh -12%, luxembourg_osm -14%, and the other eight shared
// graphs measured within +-4% (three alternating runs of 15). The order
// depends only on the entries, never on the thread count. With Prefetch,
// the gather gather_ahead entries on is prefetched (the same sums, the
// same bits). x may be stored narrower than the semiring's values (X, a
// float x for PageRank's gathers): each x(j) is widened as it is read.
template <class S, bool Pattern, class T, bool Prefetch = false, class X = typename S::value_type>
inline typename S::value_type reduce_entries(const CsrView<T>& a, offset_t begin, offset_t end,
                                             const X* x) {
  using V = typename S::value_type;
  auto term = [&](offset_t k) {
    const V aik = Pattern ? semiring_entry<S>(T(1)) : semiring_entry<S>(a.values[k]);
    return S::mul(aik, static_cast<V>(x[a.col_idx[k]]));
  };
  if constexpr (SemiringWithTerminal<S>) {
    V acc = S::zero();
    for (offset_t k = begin; k < end; ++k) {
      acc = S::add(acc, term(k));
      if (S::is_terminal(acc)) break;
    }
    return acc;
  } else {
    V even = S::zero(), odd = S::zero();
    offset_t k = begin;
    [[maybe_unused]] const offset_t last = a.nnz - 1;
    for (; k + 2 <= end; k += 2) {
      if constexpr (Prefetch) {
        __builtin_prefetch(x + a.col_idx[std::min(k + gather_ahead, last)]);
        __builtin_prefetch(x + a.col_idx[std::min(k + 1 + gather_ahead, last)]);
      }
      even = S::add(even, term(k));
      odd = S::add(odd, term(k + 1));
    }
    if (k < end) even = S::add(even, term(k));
    return S::add(even, odd);
  }
}

template <class S, bool Pattern, class T, bool Prefetch = false, class X = typename S::value_type>
inline typename S::value_type spmv_row(const CsrView<T>& a, vertex_t i, const X* x) {
  return reduce_entries<S, Pattern, T, Prefetch, X>(a, a.row_ptr[i], a.row_ptr[i + 1], x);
}

// Rows [begin, end).
template <class S, bool Pattern, bool Masked, class T>
void spmv_rows(const CsrView<T>& a, const typename S::value_type* x, typename S::value_type* y,
               Mask mask, vertex_t begin, vertex_t end) {
  for (vertex_t i = begin; i < end; ++i) {
    if constexpr (Masked) {
      if ((mask.bits[i] != 0) == mask.complement) continue;
    }
    y[i] = spmv_row<S, Pattern, T>(a, i, x);
  }
}

// The SpMV itself does not prefetch its gathers: with PageRank's rule
// (prefetch_gathers), `graphrun bench spmv` on R-MAT 20 (edge factor 16, 1M
// rows: x 8 MB) went 15.3-16.4 -> 19.0-20.0 ms and uniform 2M x 8 moved
// within its noise (2 threads, alternating builds), where PageRank's pass
// over Aᵀ of the same graphs gains (+4% directed, +17% undirected on R-MAT
// 20): a plain row has less besides its gathers to overlap them with.
template <class S, bool Pattern, bool Masked, class T>
void spmv_csr_impl(const CsrView<T>& a, const typename S::value_type* x, typename S::value_type* y,
                   Mask mask, int threads) {
  const offset_t work = a.nnz + a.n_rows;
  if (threads <= 1 || work < cpu_min_parallel_work) {
    spmv_rows<S, Pattern, Masked>(a, x, y, mask, 0, a.n_rows);
    return;
  }
  // A few blocks of equal work per thread, handed out dynamically: a thread
  // whose core is slowed (by another process, or by cache misses its block
  // happens to take) does not hold the others back. Each y(i) is computed
  // by one thread from its row alone, so the result does not depend on the
  // blocks or on who runs them.
  const offset_t max_parts = std::max<offset_t>(1, work / (cpu_min_parallel_work / 4));
  const int parts = static_cast<int>(std::min<offset_t>(offset_t{threads} * 8, max_parts));
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (int p = 0; p < parts; ++p) {
    const vertex_t begin = partition_begin(a.row_ptr, a.n_rows, parts, p);
    const vertex_t end = partition_begin(a.row_ptr, a.n_rows, parts, p + 1);
    spmv_rows<S, Pattern, Masked>(a, x, y, mask, begin, end);
  }
}

}  // namespace detail

// y = A ⊕.⊗ x on `threads` OpenMP threads. x has a.n_cols entries, y has
// a.n_rows; they must not overlap. Rows outside `mask` keep their y.
template <class S, class T>
void spmv_csr(const CsrView<T>& a, const typename S::value_type* x, typename S::value_type* y,
              Mask mask, int threads) {
  const bool pattern = a.values == nullptr;
  if (pattern) {
    if (mask.active())
      detail::spmv_csr_impl<S, true, true>(a, x, y, mask, threads);
    else
      detail::spmv_csr_impl<S, true, false>(a, x, y, mask, threads);
  } else {
    if (mask.active())
      detail::spmv_csr_impl<S, false, true>(a, x, y, mask, threads);
    else
      detail::spmv_csr_impl<S, false, false>(a, x, y, mask, threads);
  }
}

// csr-thread, csr-warp and csr-bins: the GPU's thread-, warp- and
// bin-per-row splits are one thing on a CPU, this kernel.
struct SpmvCsrKernel {
  template <class S, class T>
  static void run(const CsrView<T>& a, const typename S::value_type* x, typename S::value_type* y,
                  Mask mask, int threads) {
    spmv_csr<S>(a, x, y, mask, threads);
  }
  template <class S, class T>
  static void apply(const CsrView<T>& a, const typename S::value_type* x, typename S::value_type* y,
                    Mask mask, int threads) {
    spmv_csr<S>(a, x, y, mask, threads);
  }
};
template <>
struct SpmvKernel<SpmvFormat::csr_thread> : SpmvCsrKernel {};
template <>
struct SpmvKernel<SpmvFormat::csr_warp> : SpmvCsrKernel {};
template <>
struct SpmvKernel<SpmvFormat::csr_bins> : SpmvCsrKernel {};

#define GRAPHRUN_SPMV_CSR_EXTERN(S, T) GRAPHRUN_SPMV_EXTERN(spmv_csr, CsrView, S, T, int)
GRAPHRUN_SPMV_COMBOS(GRAPHRUN_SPMV_CSR_EXTERN)
#undef GRAPHRUN_SPMV_CSR_EXTERN

}  // namespace graphrun::cpu
