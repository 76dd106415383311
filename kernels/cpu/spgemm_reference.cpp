// The reference SpGEMM for the same combinations as the fast CPU kernel, so a
// verifier is always linked beside it (tests, the command line's checks).
#include "graphrun/kernels/cpu/spgemm_reference.hpp"

namespace graphrun::cpu {

#define GRAPHRUN_SPGEMM_REFERENCE_INSTANTIATE(S, T) \
  template Csr<typename S::value_type> spgemm_reference<S, T>(const CsrView<T>&, const CsrView<T>&);
GRAPHRUN_SPGEMM_COMBOS(GRAPHRUN_SPGEMM_REFERENCE_INSTANTIATE)
#undef GRAPHRUN_SPGEMM_REFERENCE_INSTANTIATE

}  // namespace graphrun::cpu
