// The ELL reference SpMV for the combinations graphrun compiles.
#include "graphrun/kernels/cpu/spmv_ell.hpp"

namespace graphrun::cpu {

#define GRAPHRUN_SPMV_ELL(S, T) GRAPHRUN_SPMV_INSTANCE(spmv_reference, EllView, S, T)
GRAPHRUN_SPMV_COMBOS(GRAPHRUN_SPMV_ELL)
#undef GRAPHRUN_SPMV_ELL

}  // namespace graphrun::cpu
