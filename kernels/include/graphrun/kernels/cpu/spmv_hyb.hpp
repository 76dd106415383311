// Reference SpMV over HYB (engine/formats/hyb.hpp): the ELL part as in
// the ELL reference, then the COO part added into the same rows.
//
//   y(i) = ELL part of row i, then add(y(i), each COO entry of row i in order)
//
// A row's first K entries sit in ELL and the rest follow in COO in CSR order,
// so the result equals the CSR reference exactly. The verifier of HYB
// kernels; the CPU runs it when asked for SpmvFormat::hyb.
#pragma once

#include "graphrun/engine/formats/hyb.hpp"
#include "graphrun/kernels/cpu/spmv_coo.hpp"
#include "graphrun/kernels/cpu/spmv_ell.hpp"
#include "graphrun/kernels/mask.hpp"

namespace graphrun::cpu {

template <class S, class T>
void spmv_reference(const HybView<T>& a, const typename S::value_type* x, typename S::value_type* y,
                    Mask mask = {}) {
  spmv_reference<S>(a.ell, x, y, mask);
  spmv_coo_accumulate<S>(a.coo, x, y, mask);
}

#define GRAPHRUN_SPMV_HYB_EXTERN(S, T) GRAPHRUN_SPMV_EXTERN(spmv_reference, HybView, S, T)
GRAPHRUN_SPMV_COMBOS(GRAPHRUN_SPMV_HYB_EXTERN)
#undef GRAPHRUN_SPMV_HYB_EXTERN

}  // namespace graphrun::cpu
