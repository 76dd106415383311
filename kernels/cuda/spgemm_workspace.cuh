// Working memory of one SpGEMM call: buffers from the device's stream-ordered
// pool, their sizes and layouts from the plan (plan/spgemm_gpu_plan.hpp).
//
// The default pool's release threshold is raised to "never" so that memory a
// call frees stays in the pool for the next call: graph contraction and MCL
// call SpGEMM in a loop, and a cudaMalloc per call would cost more than a
// small product itself.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/engine/device_memory.hpp"
#include "graphrun/engine/error.hpp"

namespace graphrun::cuda::spgemm_detail {

inline cudaMemPool_t warm_pool() {
  int device = 0;
  GRAPHRUN_CUDA_CHECK(cudaGetDevice(&device));
  cudaMemPool_t pool;
  GRAPHRUN_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
  std::uint64_t keep = ~std::uint64_t{0};
  GRAPHRUN_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
  return pool;
}

// A stream-ordered allocation, freed in stream order.
class PoolBuffer {
 public:
  PoolBuffer() = default;
  PoolBuffer(std::size_t bytes, cudaStream_t stream, const char* what)
      : stream_(stream), bytes_(bytes) {
    if (bytes == 0) return;
    reserve_device_memory(bytes, (std::string("spgemm: ") + what).c_str());
    const cudaError_t err = cudaMallocAsync(&ptr_, bytes, stream);
    if (err != cudaSuccess) {
      cudaGetLastError();
      ptr_ = nullptr;
      release_device_memory(bytes);
      throw DeviceMemoryError(std::string("spgemm: ") + what + " needs " + std::to_string(bytes) +
                              " bytes of device memory; " +
                              std::to_string(device_memory_available()) + " are available (" +
                              cudaGetErrorString(err) + ")");
    }
  }
  ~PoolBuffer() {
    if (!ptr_) return;
    cudaFreeAsync(ptr_, stream_);  // never throws from a destructor
    release_device_memory(bytes_);
  }
  PoolBuffer(const PoolBuffer&) = delete;
  PoolBuffer& operator=(const PoolBuffer&) = delete;

  void* data() const noexcept { return ptr_; }
  std::size_t bytes() const noexcept { return bytes_; }

 private:
  void* ptr_ = nullptr;
  cudaStream_t stream_ = nullptr;
  std::size_t bytes_ = 0;
};

// The array of type T at `offset` bytes into a buffer (the plan's layouts:
// FixedLayout, ChunkLayout).
template <class T>
T* at(void* base, std::size_t offset) {
  return reinterpret_cast<T*>(static_cast<unsigned char*>(base) + offset);
}

}  // namespace graphrun::cuda::spgemm_detail
