// Reference SpMV over JDS (engine/formats/jds.hpp): serial, one sorted row
// position r after another, walking its entries down the jagged diagonals.
//
//   y(perm[r]) = add over d < n_diag with r < count_d of
//                mul(entry jd_ptr[d] + r, x(col_idx[jd_ptr[d] + r]))
//
// Entry d of a row is its d-th CSR entry, so the result equals the CSR
// reference exactly. The verifier of JDS kernels; the CPU runs it when asked
// for SpmvFormat::jds.
#pragma once

#include "graphrun/engine/formats/jds.hpp"
#include "graphrun/kernels/cpu/spmv_csr.hpp"  // GRAPHRUN_SPMV_COMBOS
#include "graphrun/kernels/mask.hpp"
#include "graphrun/kernels/semiring_traits.hpp"

namespace graphrun::cpu {

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

#define GRAPHRUN_SPMV_JDS_EXTERN(S, T) GRAPHRUN_SPMV_EXTERN(spmv_reference, JdsView, S, T)
GRAPHRUN_SPMV_COMBOS(GRAPHRUN_SPMV_JDS_EXTERN)
#undef GRAPHRUN_SPMV_JDS_EXTERN

}  // namespace graphrun::cpu
