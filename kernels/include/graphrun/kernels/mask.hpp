// Masks, as in GraphBLAS: an output vector is written only where the mask
// allows it.
//
//   Mask{}                          every row is computed
//   Mask{bits}                      row i is computed iff bits[i] != 0
//   Mask{bits, /*complement=*/true} row i is computed iff bits[i] == 0
//
// Rows outside the mask are left untouched (GraphBLAS "replace" is not
// modelled: callers that want zeros there write them themselves). `bits`
// holds one byte per row, so a BFS visited set serves directly as a mask.
#pragma once

#include <cstdint>

#include "graphrun/engine/host_device.hpp"
#include "graphrun/engine/types.hpp"

namespace graphrun {

// The same struct serves host and device kernels: on the GPU `bits` is a
// device pointer.
struct Mask {
  const std::uint8_t* bits = nullptr;  // nullptr: no mask
  bool complement = false;

  GRAPHRUN_HD bool active() const noexcept { return bits != nullptr; }
  // Whether row i is computed.
  GRAPHRUN_HD bool allows(vertex_t i) const noexcept {
    return bits == nullptr || ((bits[i] != 0) != complement);
  }
};

}  // namespace graphrun
