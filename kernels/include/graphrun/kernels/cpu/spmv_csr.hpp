// SpMV on the CPU, CSR format, OpenMP over rows:
//
//   y(i) = add_k mul(A(i,k), x(k))   for every row i the mask allows
//
// Rows are split statically into one block per thread with equal
// (nonzeros + rows) by binary search on row_ptr (cpu/partition.hpp): skewed
// graphs stay balanced unless one row dominates, and the partition depends
// only on the matrix and the thread count. Each row is reduced serially by
// one thread, in column order, so y is bit-identical whatever the thread
// count. A semiring with is_terminal() stops a row at its annihilator (OR
// reaching true: bottom-up BFS).
//
// Header-only template, so any semiring works (BFS's AnySecond, later SSSP
// variants); the combinations the library itself uses are compiled once in
// kernels/cpu/spmv_csr.cpp (extern template below), so callers do not
// re-instantiate them.
#pragma once

#include <omp.h>

#include <cstdint>

#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/kernels/cpu/partition.hpp"
#include "graphrun/kernels/mask.hpp"
#include "graphrun/kernels/semiring_traits.hpp"

namespace graphrun::cpu {

namespace detail {

template <class S, bool Pattern, class T>
inline typename S::value_type spmv_row(const CsrView<T>& a, vertex_t i,
                                       const typename S::value_type* x) {
  using V = typename S::value_type;
  V acc = S::zero();
  const offset_t end = a.row_ptr[i + 1];
  for (offset_t k = a.row_ptr[i]; k < end; ++k) {
    const V aik = Pattern ? semiring_entry<S>(T(1)) : semiring_entry<S>(a.values[k]);
    acc = S::add(acc, S::mul(aik, x[a.col_idx[k]]));
    if constexpr (SemiringWithTerminal<S>) {
      if (S::is_terminal(acc)) break;
    }
  }
  return acc;
}

template <class S, bool Pattern, bool Masked, class T>
void spmv_rows(const CsrView<T>& a, const typename S::value_type* x, typename S::value_type* y,
               Mask mask, vertex_t begin, vertex_t end) {
  for (vertex_t i = begin; i < end; ++i) {
    if constexpr (Masked) {
      if ((mask.bits[i] != 0) == mask.complement) continue;
    }
    y[i] = spmv_row<S, Pattern>(a, i, x);
  }
}

template <class S, bool Pattern, bool Masked, class T>
void spmv_csr_impl(const CsrView<T>& a, const typename S::value_type* x, typename S::value_type* y,
                   Mask mask, int threads) {
  // Below this much work a parallel region costs more than it saves.
  constexpr offset_t min_parallel_work = 1 << 14;
  const offset_t work = a.nnz + a.n_rows;
  if (threads <= 1 || work < min_parallel_work) {
    spmv_rows<S, Pattern, Masked>(a, x, y, mask, 0, a.n_rows);
    return;
  }
#pragma omp parallel num_threads(threads)
  {
    const int parts = omp_get_num_threads();
    const int p = omp_get_thread_num();
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

// The combinations compiled into graphrun_kernels (kernels/cpu/spmv_csr.cpp).
#define GRAPHRUN_SPMV_CSR_COMBOS(X) \
  X(PlusTimes<double>, double)      \
  X(PlusTimes<double>, float)       \
  X(PlusTimes<float>, float)        \
  X(PlusTimes<float>, double)       \
  X(MinPlus<double>, double)        \
  X(MinPlus<double>, float)         \
  X(MaxTimes<double>, double)       \
  X(MaxTimes<double>, float)        \
  X(OrAnd, double)                  \
  X(OrAnd, float)

#define GRAPHRUN_SPMV_CSR_EXTERN(S, T)                                                  \
  extern template void spmv_csr<S, T>(const CsrView<T>&, const typename S::value_type*, \
                                      typename S::value_type*, Mask, int);
GRAPHRUN_SPMV_CSR_COMBOS(GRAPHRUN_SPMV_CSR_EXTERN)
#undef GRAPHRUN_SPMV_CSR_EXTERN

}  // namespace graphrun::cpu
