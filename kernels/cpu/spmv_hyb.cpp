// The HYB reference SpMV for the combinations graphrun compiles.
#include "graphrun/kernels/cpu/spmv_hyb.hpp"

namespace graphrun::cpu {

#define GRAPHRUN_SPMV_HYB_INSTANTIATE(S, T)                                                \
  template void spmv_hyb_reference<S, T>(const HybView<T>&, const typename S::value_type*, \
                                         typename S::value_type*, Mask);
GRAPHRUN_SPMV_COMBOS(GRAPHRUN_SPMV_HYB_INSTANTIATE)
#undef GRAPHRUN_SPMV_HYB_INSTANTIATE

}  // namespace graphrun::cpu
