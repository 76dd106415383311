// GRAPHRUN_CUDA_CHECK(call): run a CUDA runtime call and turn a failure into
// a DeviceError naming the call, file and line. For .cu files only.
#pragma once

#include <cuda_runtime.h>

namespace graphrun::detail {
[[noreturn]] void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line);
}

#define GRAPHRUN_CUDA_CHECK(call)                                                     \
  do {                                                                                \
    const cudaError_t graphrun_err_ = (call);                                         \
    if (graphrun_err_ != cudaSuccess)                                                 \
      ::graphrun::detail::throw_cuda_error(graphrun_err_, #call, __FILE__, __LINE__); \
  } while (0)
