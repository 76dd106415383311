// The reference SpMV: serial, one row after another, no early exit, no
// partitioning, no special cases. It is what the fast kernels are tested
// against; keep it obviously correct rather than fast.
#pragma once

#include "graphrun/engine/csr.hpp"
#include "graphrun/kernels/cpu/spmv_csr.hpp"  // GRAPHRUN_SPMV_COMBOS
#include "graphrun/kernels/mask.hpp"
#include "graphrun/kernels/semiring_traits.hpp"

namespace graphrun::cpu {

template <class S, class T>
void spmv_reference(const CsrView<T>& a, const typename S::value_type* x, typename S::value_type* y,
                    Mask mask = {}) {
  using V = typename S::value_type;
  for (vertex_t i = 0; i < a.n_rows; ++i) {
    if (!mask.allows(i)) continue;
    V acc = S::zero();
    for (offset_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      acc = S::add(acc, S::mul(semiring_entry<S>(a.value(k)), x[a.col_idx[k]]));
    y[i] = acc;
  }
}

#define GRAPHRUN_SPMV_REFERENCE_EXTERN(S, T) GRAPHRUN_SPMV_EXTERN(spmv_reference, CsrView, S, T)
GRAPHRUN_SPMV_COMBOS(GRAPHRUN_SPMV_REFERENCE_EXTERN)
#undef GRAPHRUN_SPMV_REFERENCE_EXTERN

}  // namespace graphrun::cpu
