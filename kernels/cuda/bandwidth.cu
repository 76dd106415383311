// measured_copy_bandwidth: cudaMemcpy device to device, timed with events.
#include <algorithm>
#include <cstddef>
#include <vector>

#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/kernels/cuda/bandwidth.hpp"

namespace graphrun::cuda {

double measured_copy_bandwidth() {
  // Large enough to dwarf the L2 cache (50 MiB on an H200) and launch costs,
  // small enough for any GPU we run on.
  constexpr std::size_t bytes = std::size_t{1} << 30;
  constexpr int runs = 5;
  DeviceBuffer src(bytes), dst(bytes);
  GRAPHRUN_CUDA_CHECK(cudaMemset(src.data(), 1, bytes));
  cudaEvent_t start = nullptr, stop = nullptr;
  GRAPHRUN_CUDA_CHECK(cudaEventCreate(&start));
  GRAPHRUN_CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<float> ms;
  for (int r = 0; r <= runs; ++r) {  // run 0 warms up
    GRAPHRUN_CUDA_CHECK(cudaEventRecord(start));
    GRAPHRUN_CUDA_CHECK(cudaMemcpy(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice));
    GRAPHRUN_CUDA_CHECK(cudaEventRecord(stop));
    GRAPHRUN_CUDA_CHECK(cudaEventSynchronize(stop));
    float t = 0;
    GRAPHRUN_CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
    if (r > 0) ms.push_back(t);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::nth_element(ms.begin(), ms.begin() + runs / 2, ms.end());
  return 2.0 * static_cast<double>(bytes) / (static_cast<double>(ms[runs / 2]) * 1e-3) / 1e9;
}

}  // namespace graphrun::cuda
