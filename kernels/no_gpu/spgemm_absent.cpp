// cuda::spgemm_host (cuda/spgemm.hpp) in a build without CUDA: it refuses,
// so that asking kernels/spgemm.hpp for Device::cuda is a clear DeviceError
// (exit status 2 on the command line), not a link error. Instantiated over
// the same GRAPHRUN_SPGEMM_COMBOS as the CUDA definition.
#include "graphrun/engine/error.hpp"
#include "graphrun/kernels/combos.hpp"
#include "graphrun/kernels/cuda/spgemm.hpp"

namespace graphrun::cuda {

template <class S, class T>
Csr<typename S::value_type> spgemm_host(const CsrView<T>&, const CsrView<T>&, const SpgemmOptions&,
                                        SpgemmStats*) {
  throw DeviceError("spgemm: this build has no CUDA backend; use the CPU");
}

#define GRAPHRUN_SPGEMM_ABSENT(S, T)                                                  \
  template Csr<S::value_type> spgemm_host<S, T>(const CsrView<T>&, const CsrView<T>&, \
                                                const SpgemmOptions&, SpgemmStats*);
GRAPHRUN_SPGEMM_COMBOS(GRAPHRUN_SPGEMM_ABSENT)
#undef GRAPHRUN_SPGEMM_ABSENT

}  // namespace graphrun::cuda
