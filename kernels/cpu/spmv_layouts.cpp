// The references over coo, ell, hyb, jds and sell for the combinations graphrun
// compiles.
#include "graphrun/kernels/cpu/spmv_layouts.hpp"

namespace graphrun::cpu {

#define GRAPHRUN_SPMV_LAYOUTS(S, T) GRAPHRUN_SPMV_LAYOUT_REFERENCES(GRAPHRUN_SPMV_INSTANCE, S, T)
GRAPHRUN_SPMV_COMBOS(GRAPHRUN_SPMV_LAYOUTS)
#undef GRAPHRUN_SPMV_LAYOUTS

}  // namespace graphrun::cpu
