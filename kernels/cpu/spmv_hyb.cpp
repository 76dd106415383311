// The HYB reference SpMV for the combinations graphrun compiles.
#include "graphrun/kernels/cpu/spmv_hyb.hpp"

namespace graphrun::cpu {

#define GRAPHRUN_SPMV_HYB(S, T) GRAPHRUN_SPMV_INSTANCE(spmv_reference, HybView, S, T)
GRAPHRUN_SPMV_COMBOS(GRAPHRUN_SPMV_HYB)
#undef GRAPHRUN_SPMV_HYB

}  // namespace graphrun::cpu
