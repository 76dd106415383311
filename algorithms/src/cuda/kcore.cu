// Core numbers have no GPU version yet (kcore.hpp): Device::cuda is refused
// with a DeviceError that says so.
#include "cuda_backend.hpp"
#include "graphrun/engine/error.hpp"

namespace graphrun::detail {

KcoreResult CudaSteps::core_numbers(Context&, const Graph&, const KcoreOptions&) {
  throw DeviceError("core_numbers: there is no GPU version yet; run it with Device::cpu");
}

}  // namespace graphrun::detail
