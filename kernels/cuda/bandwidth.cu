// measured_copy_bandwidth: cudaMemcpyAsync device to device, timed with events.
#include <cstddef>

#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/kernels/cuda/bandwidth.hpp"
#include "graphrun/kernels/cuda/gpu_timing.hpp"

namespace graphrun::cuda {

double measured_copy_bandwidth() {
  // Large enough to dwarf the L2 cache (50 MiB on an H200) and launch costs,
  // small enough for any GPU we run on.
  constexpr std::size_t bytes = std::size_t{1} << 30;
  constexpr int runs = 5;
  DeviceBuffer src(bytes), dst(bytes);
  GRAPHRUN_CUDA_CHECK(cudaMemset(src.data(), 1, bytes));
  const double ms = gpu_median_ms(runs, [&](cudaStream_t stream) {
    GRAPHRUN_CUDA_CHECK(
        cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice, stream));
  });
  return 2.0 * static_cast<double>(bytes) / (ms * 1e-3) / 1e9;
}

}  // namespace graphrun::cuda
