// The CSR SpMV instantiations graphrun itself uses, compiled once here; the
// template (graphrun/kernels/cpu/spmv_csr.hpp) stays visible for any other
// semiring.
#include "graphrun/kernels/cpu/spmv_csr.hpp"

namespace graphrun::cpu {

#define GRAPHRUN_SPMV_CSR(S, T) GRAPHRUN_SPMV_INSTANCE(spmv_csr, CsrView, S, T, int)
GRAPHRUN_SPMV_COMBOS(GRAPHRUN_SPMV_CSR)
#undef GRAPHRUN_SPMV_CSR

}  // namespace graphrun::cpu
