// What every device SpMV layout holds besides its own index arrays: the
// shape, and the values in the layout's order (empty for a pattern matrix,
// whose entries are all one). DeviceCoo, DeviceEll and DeviceJds derive from
// it, as the host layouts derive from HostLayout (formats/host_layout.hpp).
// Included by CUDA sources only.
#pragma once

#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/types.hpp"

namespace graphrun::cuda {

template <class T>
struct DeviceLayout {
  vertex_t n_rows = 0;
  vertex_t n_cols = 0;
  DeviceArray<T> values;
};

}  // namespace graphrun::cuda
