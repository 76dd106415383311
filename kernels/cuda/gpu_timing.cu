// See gpu_timing.hpp.
#include <algorithm>
#include <vector>

#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/kernels/cuda/gpu_timing.hpp"

namespace graphrun::cuda {

double gpu_median_ms(int reps, const std::function<void(cudaStream_t)>& fn) {
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  GRAPHRUN_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  GRAPHRUN_CUDA_CHECK(cudaEventCreate(&start));
  GRAPHRUN_CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<double> ms;
  for (int r = 0; r <= reps; ++r) {  // call 0 warms up
    GRAPHRUN_CUDA_CHECK(cudaEventRecord(start, stream));
    fn(stream);
    GRAPHRUN_CUDA_CHECK(cudaEventRecord(stop, stream));
    GRAPHRUN_CUDA_CHECK(cudaEventSynchronize(stop));
    float t = 0;
    GRAPHRUN_CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
    if (r > 0) ms.push_back(t);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(stream);
  std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
  return ms[ms.size() / 2];
}

}  // namespace graphrun::cuda
