// The COO reference SpMV for the combinations graphrun compiles.
#include "graphrun/kernels/cpu/spmv_coo.hpp"

namespace graphrun::cpu {

#define GRAPHRUN_SPMV_COO(S, T) GRAPHRUN_SPMV_INSTANCE(spmv_reference, CooView, S, T)
GRAPHRUN_SPMV_COMBOS(GRAPHRUN_SPMV_COO)
#undef GRAPHRUN_SPMV_COO

}  // namespace graphrun::cpu
