// The merge-path SpMV (parallel and reference) for the combinations graphrun
// compiles.
#include "graphrun/kernels/cpu/spmv_merge_path.hpp"

namespace graphrun::cpu {

#define GRAPHRUN_SPMV_MERGE_PATH_INSTANTIATE(S, T)                                            \
  template void spmv_merge_path<S, T>(const MergePathView<T>&, const typename S::value_type*, \
                                      typename S::value_type*, Mask, int);                    \
  template void spmv_merge_path<S, T>(const CsrView<T>&, const typename S::value_type*,       \
                                      typename S::value_type*, Mask, int);                    \
  template void spmv_merge_path_reference<S, T>(                                              \
      const MergePathView<T>&, const typename S::value_type*, typename S::value_type*, Mask);
GRAPHRUN_SPMV_COMBOS(GRAPHRUN_SPMV_MERGE_PATH_INSTANTIATE)
#undef GRAPHRUN_SPMV_MERGE_PATH_INSTANTIATE

}  // namespace graphrun::cpu
