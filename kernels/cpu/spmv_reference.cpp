// The reference SpMV for the same combinations as the fast CSR kernel, so a
// verifier is always linked beside it (benchmarks' --verify, tests).
#include "graphrun/kernels/cpu/spmv_reference.hpp"

#include "graphrun/kernels/cpu/spmv_csr.hpp"  // GRAPHRUN_SPMV_COMBOS

namespace graphrun::cpu {

#define GRAPHRUN_SPMV_REFERENCE_INSTANTIATE(S, T)                                      \
  template void spmv_reference<S, T>(const CsrView<T>&, const typename S::value_type*, \
                                     typename S::value_type*, Mask);
GRAPHRUN_SPMV_COMBOS(GRAPHRUN_SPMV_REFERENCE_INSTANTIATE)
#undef GRAPHRUN_SPMV_REFERENCE_INSTANTIATE

}  // namespace graphrun::cpu
