// The ELL reference SpMV for the combinations graphrun compiles.
#include "graphrun/kernels/cpu/spmv_ell.hpp"

namespace graphrun::cpu {

#define GRAPHRUN_SPMV_ELL_INSTANTIATE(S, T)                                                \
  template void spmv_ell_reference<S, T>(const EllView<T>&, const typename S::value_type*, \
                                         typename S::value_type*, Mask);
GRAPHRUN_SPMV_COMBOS(GRAPHRUN_SPMV_ELL_INSTANTIATE)
#undef GRAPHRUN_SPMV_ELL_INSTANTIATE

}  // namespace graphrun::cpu
