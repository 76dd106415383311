// backend_for(): where a Context's device picks the backend that runs the
// algorithms' steps (backend.hpp).
#include "backend.hpp"

#include <string>

#include "graphrun/engine/error.hpp"

namespace graphrun::detail {

const Backend& backend_for(const Context& ctx, const char* algorithm) {
  switch (ctx.device()) {
    case Device::cpu:
      return cpu_backend();
    case Device::cuda:
      if (const Backend* b = cuda_backend()) return *b;
      throw DeviceError(std::string(algorithm) +
                        ": this build has no CUDA backend; use Device::cpu");
  }
  throw ArgumentError(std::string(algorithm) + ": unknown device");
}

}  // namespace graphrun::detail
