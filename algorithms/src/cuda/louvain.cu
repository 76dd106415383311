// Louvain has no GPU local moving yet (louvain.hpp): Device::cuda is refused
// with a DeviceError that says so.
#include "cuda_backend.hpp"
#include "graphrun/engine/error.hpp"

namespace graphrun::detail {

LouvainMoves CudaSteps::louvain_moves(Context&, const LouvainLevel&, const LouvainOptions&) {
  throw DeviceError("louvain: there is no GPU version yet; run it with Device::cpu");
}

}  // namespace graphrun::detail
