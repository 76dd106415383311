// The JDS reference SpMV for the combinations graphrun compiles.
#include "graphrun/kernels/cpu/spmv_jds.hpp"

namespace graphrun::cpu {

#define GRAPHRUN_SPMV_JDS_INSTANTIATE(S, T)                                                \
  template void spmv_jds_reference<S, T>(const JdsView<T>&, const typename S::value_type*, \
                                         typename S::value_type*, Mask);
GRAPHRUN_SPMV_COMBOS(GRAPHRUN_SPMV_JDS_INSTANTIATE)
#undef GRAPHRUN_SPMV_JDS_INSTANTIATE

}  // namespace graphrun::cpu
