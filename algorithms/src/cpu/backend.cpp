// The CPU backend (see cpu_backend.hpp).
#include "cpu_backend.hpp"

namespace graphrun::detail {

const Backend& cpu_backend() noexcept {
  static const BackendOf<CpuSteps> backend;
  return backend;
}

}  // namespace graphrun::detail
