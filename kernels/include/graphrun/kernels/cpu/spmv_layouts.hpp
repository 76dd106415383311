// The CPU's serial references over the layouts made for the GPU's
// coalescing (engine/formats/): coo, ell, hyb, jds and sell. Each walks its layout
// in an order that reduces every row in CSR order, so its result equals the
// CSR reference (spmv_reference.hpp) exactly; they verify the GPU's kernels,
// and the CPU runs them when asked for these formats (to compare, not to be
// fast: a run from the CSR builds the layout on every call).
#pragma once

#include "graphrun/engine/formats/coo_format.hpp"
#include "graphrun/engine/formats/ell.hpp"
#include "graphrun/engine/formats/hyb.hpp"
#include "graphrun/engine/formats/jds.hpp"
#include "graphrun/engine/formats/sell.hpp"
#include "graphrun/kernels/combos.hpp"
#include "graphrun/kernels/cpu/spmv_kernel.hpp"
#include "graphrun/kernels/mask.hpp"
#include "graphrun/kernels/semiring_traits.hpp"

namespace graphrun::cpu {

// Adds the entries of `a` into the rows of y the mask allows (no reset):
// the COO step of COO and HYB.
template <class S, class T>
void spmv_coo_accumulate(const CooView<T>& a, const typename S::value_type* x,
                         typename S::value_type* y, Mask mask = {}) {
  for (offset_t k = 0; k < a.nnz; ++k) {
    const vertex_t i = a.row_idx[k];
    if (!mask.allows(i)) continue;
    y[i] = S::add(y[i], S::mul(semiring_entry<S>(a.value(k)), x[a.col_idx[k]]));
  }
}

// Reference SpMV over COO (engine/formats/coo_format.hpp): serial, entry by
// entry in storage order, each added into its row of y.
//
//   y(i) = S::zero() for every row i the mask allows, then
//   y(row_idx[k]) = add(y(row_idx[k]), mul(entry k, x(col_idx[k])))
//
// Since COO from CSR is sorted by (row, col), each row is reduced in CSR's
// order and the result equals the CSR reference exactly. This is the
// verifier of COO kernels (the GPU's segmented reduction); the CPU runs it
// when asked for SpmvFormat::coo.
template <class S, class T>
void spmv_reference(const CooView<T>& a, const typename S::value_type* x, typename S::value_type* y,
                    Mask mask = {}) {
  for (vertex_t i = 0; i < a.n_rows; ++i)
    if (mask.allows(i)) y[i] = S::zero();
  spmv_coo_accumulate<S>(a, x, y, mask);
}

// Reference SpMV over ELL (engine/formats/ell.hpp): serial, row by row, each
// row's slots j = 0 .. width-1 in order, padding (column -1) skipped.
//
//   y(i) = add over j with col_idx[j*n+i] >= 0 of mul(entry, x(col_idx[j*n+i]))
//
// Slots hold a row's entries in CSR order, so the result equals the CSR
// reference exactly. The verifier of ELL kernels; the CPU runs it when asked
// for SpmvFormat::ell.
template <class S, class T>
void spmv_reference(const EllView<T>& a, const typename S::value_type* x, typename S::value_type* y,
                    Mask mask = {}) {
  using V = typename S::value_type;
  const offset_t n = a.n_rows;
  for (vertex_t i = 0; i < a.n_rows; ++i) {
    if (!mask.allows(i)) continue;
    V acc = S::zero();
    for (offset_t j = 0; j < a.width; ++j) {
      const offset_t slot = j * n + i;
      const vertex_t c = a.col_idx[slot];
      if (c < 0) continue;  // padding
      acc = S::add(acc, S::mul(semiring_entry<S>(a.value(slot)), x[c]));
    }
    y[i] = acc;
  }
}

// Reference SpMV over HYB (engine/formats/hyb.hpp): the ELL part as in
// the ELL reference, then the COO part added into the same rows.
//
//   y(i) = ELL part of row i, then add(y(i), each COO entry of row i in order)
//
// A row's first K entries sit in ELL and the rest follow in COO in CSR order,
// so the result equals the CSR reference exactly. The verifier of HYB
// kernels; the CPU runs it when asked for SpmvFormat::hyb.
template <class S, class T>
void spmv_reference(const HybView<T>& a, const typename S::value_type* x, typename S::value_type* y,
                    Mask mask = {}) {
  spmv_reference<S>(a.ell, x, y, mask);
  spmv_coo_accumulate<S>(a.coo, x, y, mask);
}

// Reference SpMV over JDS (engine/formats/jds.hpp): serial, one sorted row
// position r after another, walking its entries down the jagged diagonals.
//
//   y(perm[r]) = add over d < n_diag with r < count_d of
//                mul(entry jd_ptr[d] + r, x(col_idx[jd_ptr[d] + r]))
//
// Entry d of a row is its d-th CSR entry, so the result equals the CSR
// reference exactly. The verifier of JDS kernels; the CPU runs it when asked
// for SpmvFormat::jds.
template <class S, class T>
void spmv_reference(const JdsView<T>& a, const typename S::value_type* x, typename S::value_type* y,
                    Mask mask = {}) {
  using V = typename S::value_type;
  for (vertex_t r = 0; r < a.n_rows; ++r) {
    const vertex_t i = a.perm[r];
    if (!mask.allows(i)) continue;
    V acc = S::zero();
    // Diagonals shrink (count_d is non-increasing): stop at the first one
    // that no longer reaches position r.
    for (offset_t d = 0; d < a.n_diag && r < a.jd_ptr[d + 1] - a.jd_ptr[d]; ++d) {
      const offset_t k = a.jd_ptr[d] + r;
      acc = S::add(acc, S::mul(semiring_entry<S>(a.value(k)), x[a.col_idx[k]]));
    }
    y[i] = acc;
  }
}

// Reference SpMV over SELL-32-σ (engine/formats/sell.hpp): serial, one
// position r after another, its row's entries down its slice's columns to
// the first padding slot, part after part.
//
//   y(perm[r]) = add over parts p, then j < width of r's slice in part p,
//                up to the first -1, of mul(entry slice_ptr[p n_slices + s]
//                + j C + r % C, x(its column))
//
// Entry j of a row's part p is the j-th of its CSR entries in that part's
// columns, and the parts follow one another in column order, so one sum
// carried through the parts meets the entries in CSR order: the result
// equals the CSR reference exactly.
template <class S, class T>
void spmv_reference(const SellView<T>& a, const typename S::value_type* x,
                    typename S::value_type* y, Mask mask = {}) {
  using V = typename S::value_type;
  for (vertex_t r = 0; r < a.n_rows; ++r) {
    const vertex_t i = a.perm[r];
    if (!mask.allows(i)) continue;
    V acc = S::zero();
    for (vertex_t p = 0; p < a.n_parts; ++p) {
      const offset_t s = offset_t{p} * a.n_slices + r / sell_chunk;
      const offset_t base = a.slice_ptr[s] + r % sell_chunk;
      const offset_t width = (a.slice_ptr[s + 1] - a.slice_ptr[s]) / sell_chunk;
      for (offset_t j = 0; j < width; ++j) {
        const offset_t k = base + j * sell_chunk;
        if (a.col_idx[k] < 0) break;
        acc = S::add(acc, S::mul(semiring_entry<S>(a.value(k)), x[a.col_idx[k]]));
      }
    }
    y[i] = acc;
  }
}

// The five references for (S, T), each through DECLARE: extern here,
// instantiated in kernels/cpu/spmv_layouts.cpp.
#define GRAPHRUN_SPMV_LAYOUT_REFERENCES(DECLARE, S, T) \
  DECLARE(spmv_reference, CooView, S, T)               \
  DECLARE(spmv_reference, EllView, S, T)               \
  DECLARE(spmv_reference, HybView, S, T)               \
  DECLARE(spmv_reference, JdsView, S, T)               \
  DECLARE(spmv_reference, SellView, S, T)
#define GRAPHRUN_SPMV_LAYOUTS_EXTERN(S, T) \
  GRAPHRUN_SPMV_LAYOUT_REFERENCES(GRAPHRUN_SPMV_EXTERN, S, T)
GRAPHRUN_SPMV_COMBOS(GRAPHRUN_SPMV_LAYOUTS_EXTERN)
#undef GRAPHRUN_SPMV_LAYOUTS_EXTERN

// cpu::SpmvKernel for these formats: the reference over the layout.
template <template <class> class Layout>
struct SpmvReferenceKernel {
  template <class S, class T>
  static void run(const CsrView<T>& a, const typename S::value_type* x, typename S::value_type* y,
                  Mask mask, int threads) {
    apply<S>(Layout<T>::from_csr(a).view(), x, y, mask, threads);
  }
  template <class S, class View>
  static void apply(const View& a, const typename S::value_type* x, typename S::value_type* y,
                    Mask mask, int /*threads*/) {
    spmv_reference<S>(a, x, y, mask);
  }
};

template <>
struct SpmvKernel<SpmvFormat::coo> : SpmvReferenceKernel<CooMatrix> {};
template <>
struct SpmvKernel<SpmvFormat::ell> : SpmvReferenceKernel<Ell> {
};  // FormatError past the fill limit
template <>
struct SpmvKernel<SpmvFormat::hyb> : SpmvReferenceKernel<Hyb> {};
template <>
struct SpmvKernel<SpmvFormat::jds> : SpmvReferenceKernel<Jds> {};
template <>
struct SpmvKernel<SpmvFormat::sell> : SpmvReferenceKernel<Sell> {
};  // FormatError past the fill limit

}  // namespace graphrun::cpu
