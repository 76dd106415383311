// fill(a, v): a[i] = v for every i, on the device (CUDA builds only).
#pragma once

#include "graphrun/engine/device_array.hpp"

namespace graphrun::cuda {
template <class T>
void fill(DeviceArray<T>& a, T value);
}  // namespace graphrun::cuda
