// The COO reference SpMV for the combinations graphrun compiles.
#include "graphrun/kernels/cpu/spmv_coo.hpp"

namespace graphrun::cpu {

#define GRAPHRUN_SPMV_COO_INSTANTIATE(S, T)                                                \
  template void spmv_coo_reference<S, T>(const CooView<T>&, const typename S::value_type*, \
                                         typename S::value_type*, Mask);
GRAPHRUN_SPMV_COMBOS(GRAPHRUN_SPMV_COO_INSTANTIATE)
#undef GRAPHRUN_SPMV_COO_INSTANTIATE

}  // namespace graphrun::cpu
