// Reference SpMV over ELL (engine/formats/ell.hpp): serial, row by row, each
// row's slots j = 0 .. width-1 in order, padding (column -1) skipped.
//
//   y(i) = add over j with col_idx[j*n+i] >= 0 of mul(entry, x(col_idx[j*n+i]))
//
// Slots hold a row's entries in CSR order, so the result equals the CSR
// reference exactly. The verifier of ELL kernels; the CPU runs it when asked
// for SpmvFormat::ell.
#pragma once

#include "graphrun/engine/formats/ell.hpp"
#include "graphrun/kernels/cpu/spmv_csr.hpp"  // GRAPHRUN_SPMV_COMBOS
#include "graphrun/kernels/mask.hpp"
#include "graphrun/kernels/semiring_traits.hpp"

namespace graphrun::cpu {

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

#define GRAPHRUN_SPMV_ELL_EXTERN(S, T) GRAPHRUN_SPMV_EXTERN(spmv_reference, EllView, S, T)
GRAPHRUN_SPMV_COMBOS(GRAPHRUN_SPMV_ELL_EXTERN)
#undef GRAPHRUN_SPMV_ELL_EXTERN

}  // namespace graphrun::cpu
