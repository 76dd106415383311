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
#pragma once

#include "graphrun/engine/formats/coo_format.hpp"
#include "graphrun/kernels/cpu/spmv_csr.hpp"  // GRAPHRUN_SPMV_COMBOS
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

template <class S, class T>
void spmv_reference(const CooView<T>& a, const typename S::value_type* x, typename S::value_type* y,
                    Mask mask = {}) {
  for (vertex_t i = 0; i < a.n_rows; ++i)
    if (mask.allows(i)) y[i] = S::zero();
  spmv_coo_accumulate<S>(a, x, y, mask);
}

#define GRAPHRUN_SPMV_COO_EXTERN(S, T) GRAPHRUN_SPMV_EXTERN(spmv_reference, CooView, S, T)
GRAPHRUN_SPMV_COMBOS(GRAPHRUN_SPMV_COO_EXTERN)
#undef GRAPHRUN_SPMV_COO_EXTERN

}  // namespace graphrun::cpu
