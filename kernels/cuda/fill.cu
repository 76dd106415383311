// The first CUDA kernel: fill a device array with a value. It proves the
// CUDA toolchain, the device array and the launch checks end to end; the
// SpMV and SpGEMM kernels follow the same pattern.
#include <cstdint>

#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/kernels/cuda/fill.hpp"

namespace graphrun::cuda {

namespace {
template <class T>
__global__ void fill_kernel(T* __restrict__ out, std::size_t n, T value) {
  // Grid-stride loop: any n with a grid sized for the device, not for n.
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = value;
}
}  // namespace

template <class T>
void fill(DeviceArray<T>& a, T value) {
  if (a.size() == 0) return;
  constexpr int block = 256;
  const std::size_t want = (a.size() + block - 1) / block;
  const unsigned grid = static_cast<unsigned>(want < 65535 ? want : 65535);
  fill_kernel<<<grid, block>>>(a.data(), a.size(), value);
  GRAPHRUN_CUDA_CHECK(cudaGetLastError());
  GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());
}

template void fill(DeviceArray<float>&, float);
template void fill(DeviceArray<double>&, double);
template void fill(DeviceArray<std::int32_t>&, std::int32_t);
template void fill(DeviceArray<std::int64_t>&, std::int64_t);

}  // namespace graphrun::cuda
