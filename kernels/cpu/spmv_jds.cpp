// The JDS reference SpMV for the combinations graphrun compiles.
#include "graphrun/kernels/cpu/spmv_jds.hpp"

namespace graphrun::cpu {

#define GRAPHRUN_SPMV_JDS(S, T) GRAPHRUN_SPMV_INSTANCE(spmv_reference, JdsView, S, T)
GRAPHRUN_SPMV_COMBOS(GRAPHRUN_SPMV_JDS)
#undef GRAPHRUN_SPMV_JDS

}  // namespace graphrun::cpu
