// GPU time of a call, by CUDA events: how the benchmarks time graphrun's
// kernels and their cuSPARSE anchors alike, and how measured_copy_bandwidth
// times its copies. CUDA builds only.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>

namespace graphrun::cuda {

// The median over `reps` calls (after one warm-up) of the GPU time of
// fn(stream), each call bracketed by CUDA events on a stream of its own.
double gpu_median_ms(int reps, const std::function<void(cudaStream_t)>& fn);

}  // namespace graphrun::cuda
