// Host-side helpers of the GPU SpGEMM's dispatch (spgemm_dispatch.cuh): grid
// sizes, CUB error checks, downloads, the waits for device scalars (through
// a pinned buffer) and the events of the phase split. (The row chunks are
// the plan's: plan/spgemm_gpu_plan.hpp.)
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../plan/spgemm_gpu_plan.hpp"
#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/types.hpp"

namespace graphrun::cuda::spgemm_detail {

inline int grid_for(std::int64_t work, int block, int cap) {
  const std::int64_t g = (work + block - 1) / block;
  return static_cast<int>(std::clamp<std::int64_t>(g, 1, cap));
}

inline void cub_check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) {
    cudaGetLastError();
    throw DeviceError(std::string("spgemm: ") + what + " failed: " + cudaGetErrorString(err));
  }
}

template <class T>
std::vector<T> download(const T* d, std::size_t n, cudaStream_t stream) {
  std::vector<T> h(n);
  if (n)
    GRAPHRUN_CUDA_CHECK(
        cudaMemcpyAsync(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost, stream));
  GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
  return h;
}

// A small pinned host buffer per thread for those scalars: a copy into
// pageable memory costs several times more, and small products wait twice.
inline unsigned long long* pinned_scalars() {
  struct Pinned {
    unsigned long long* p = nullptr;
    Pinned() {
      if (cudaMallocHost(&p, ScalarsAt::size * sizeof(unsigned long long)) != cudaSuccess) {
        cudaGetLastError();
        p = nullptr;
      }
    }
    ~Pinned() {
      if (p) cudaFreeHost(p);
    }
  };
  static thread_local Pinned buf;
  return buf.p;
}

// Events for the phase split, only when stats are asked for.
class PhaseTimer {
 public:
  explicit PhaseTimer(bool on, cudaStream_t stream) : on_(on), stream_(stream) {}
  ~PhaseTimer() {
    for (cudaEvent_t e : events_) cudaEventDestroy(e);
  }
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;
  // Records an event; returns its index (-1 when off).
  int mark() { return mark(stream_); }
  int mark(cudaStream_t stream) {  // on another stream (then compare only with its own marks)
    if (!on_) return -1;
    cudaEvent_t e;
    GRAPHRUN_CUDA_CHECK(cudaEventCreate(&e));
    GRAPHRUN_CUDA_CHECK(cudaEventRecord(e, stream));
    events_.push_back(e);
    return static_cast<int>(events_.size()) - 1;
  }
  double ms(int from, int to) const {
    if (!on_ || from < 0 || to < 0) return 0;
    GRAPHRUN_CUDA_CHECK(cudaEventSynchronize(events_[to]));
    float t = 0;
    GRAPHRUN_CUDA_CHECK(cudaEventElapsedTime(&t, events_[from], events_[to]));
    return t;
  }

 private:
  bool on_;
  cudaStream_t stream_;
  std::vector<cudaEvent_t> events_;
};

}  // namespace graphrun::cuda::spgemm_detail
