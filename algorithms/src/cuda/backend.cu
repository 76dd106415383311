// The CUDA backend (see cuda_backend.hpp).
#include "cuda_backend.hpp"

namespace graphrun::detail {

const Backend* cuda_backend() noexcept {
  static const BackendOf<CudaSteps> backend;
  return &backend;
}

}  // namespace graphrun::detail
