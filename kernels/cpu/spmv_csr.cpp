// The CSR SpMV instantiations graphrun itself uses, compiled once here; the
// template (graphrun/kernels/cpu/spmv_csr.hpp) stays visible for any other
// semiring.
#include "graphrun/kernels/cpu/spmv_csr.hpp"

namespace graphrun::cpu {

#define GRAPHRUN_SPMV_CSR_INSTANTIATE(S, T)                                      \
  template void spmv_csr<S, T>(const CsrView<T>&, const typename S::value_type*, \
                               typename S::value_type*, Mask, int);
GRAPHRUN_SPMV_COMBOS(GRAPHRUN_SPMV_CSR_INSTANTIATE)
#undef GRAPHRUN_SPMV_CSR_INSTANTIATE

}  // namespace graphrun::cpu
