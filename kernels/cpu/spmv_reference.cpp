// The reference SpMV for the same combinations as the fast CSR kernel, so a
// verifier is always linked beside it (benchmarks' --verify, tests).
#include "graphrun/kernels/cpu/spmv_reference.hpp"

#include "graphrun/kernels/cpu/spmv_csr.hpp"  // GRAPHRUN_SPMV_COMBOS

namespace graphrun::cpu {

#define GRAPHRUN_SPMV_REFERENCE(S, T) GRAPHRUN_SPMV_INSTANCE(spmv_reference, CsrView, S, T)
GRAPHRUN_SPMV_COMBOS(GRAPHRUN_SPMV_REFERENCE)
#undef GRAPHRUN_SPMV_REFERENCE

}  // namespace graphrun::cpu
