// Reference SpMV over HYB (engine/formats/hyb.hpp): the ELL part as in
// spmv_ell_reference, then the COO part added into the same rows.
//
//   y(i) = ELL part of row i, then add(y(i), each COO entry of row i in order)
//
// A row's first K entries sit in ELL and the rest follow in COO in CSR order,
// so the result equals the CSR reference exactly. The verifier of HYB
// kernels; the CPU runs it when asked for SpmvFormat::hyb.
#pragma once

#include "graphrun/engine/formats/hyb.hpp"
#include "graphrun/kernels/cpu/spmv_coo.hpp"
#include "graphrun/kernels/cpu/spmv_csr.hpp"  // GRAPHRUN_SPMV_COMBOS
#include "graphrun/kernels/cpu/spmv_ell.hpp"
#include "graphrun/kernels/cpu/spmv_kernel.hpp"
#include "graphrun/kernels/mask.hpp"

namespace graphrun::cpu {

template <class S, class T>
void spmv_hyb_reference(const HybView<T>& a, const typename S::value_type* x,
                        typename S::value_type* y, Mask mask = {}) {
  spmv_ell_reference<S>(a.ell, x, y, mask);
  spmv_coo_accumulate<S>(a.coo, x, y, mask);
}

// SpmvFormat::hyb: the reference, over HYB built from the CSR on every call.
template <>
struct SpmvKernel<SpmvFormat::hyb> {
  template <class S, class T>
  static void run(const CsrView<T>& a, const typename S::value_type* x, typename S::value_type* y,
                  Mask mask, int threads) {
    apply<S>(Hyb<T>::from_csr(a).view(), x, y, mask, threads);
  }
  template <class S, class T>
  static void apply(const HybView<T>& a, const typename S::value_type* x, typename S::value_type* y,
                    Mask mask, int /*threads*/) {
    spmv_hyb_reference<S>(a, x, y, mask);
  }
};

#define GRAPHRUN_SPMV_HYB_EXTERN(S, T)                                                            \
  extern template void spmv_hyb_reference<S, T>(const HybView<T>&, const typename S::value_type*, \
                                                typename S::value_type*, Mask);
GRAPHRUN_SPMV_COMBOS(GRAPHRUN_SPMV_HYB_EXTERN)
#undef GRAPHRUN_SPMV_HYB_EXTERN

}  // namespace graphrun::cpu
