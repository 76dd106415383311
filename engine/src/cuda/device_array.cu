#include <span>
#include <string>
#include <thread>

#include "device_staging.hpp"
#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/device_memory.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/pinned_scratch.hpp"

namespace graphrun {

namespace detail {
void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line) {
  cudaGetLastError();  // clear a non-sticky error, so that later calls do not report it again
  throw DeviceError(std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
                    cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")");
}
}  // namespace detail

void throw_device_size_overflow() { throw SizeError("device array size overflows size_t"); }

bool cuda_backend_built() noexcept { return true; }

bool cuda_driver_found() noexcept {
  int version = 0;
  if (cudaDriverGetVersion(&version) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return version > 0;
}

int cuda_device_count() noexcept {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" error
    return 0;
  }
  return n;
}

namespace {

// The warm-up thread. Joined by finish_device_warm_up(); the destructor is
// the last resort (a detached thread still inside the driver at exit is
// undefined behaviour).
struct WarmUp {
  std::thread thread;
  void join() noexcept {
    if (thread.joinable()) thread.join();
  }
  ~WarmUp() { join(); }
};

WarmUp& warm_up() {
  static WarmUp warm;
  return warm;
}

}  // namespace

void warm_up_device(int device, std::function<void()> prime) noexcept {
  WarmUp& warm = warm_up();
  if (warm.thread.joinable()) return;
  try {
    warm.thread = std::thread([device, prime = std::move(prime)] {
      // cudaFree(nullptr) creates the primary context; the runtime makes
      // other threads' calls wait for it.
      if (cudaSetDevice(device) != cudaSuccess || cudaFree(nullptr) != cudaSuccess) {
        cudaGetLastError();
        return;
      }
      // The read-back buffers' block too: pinning it takes ~1 ms.
      detail::reserve_pinned_scratch();
      if (prime) {
        try {
          prime();
        } catch (...) {
          cudaGetLastError();  // nothing of it is anyone's error
        }
      }
    });
  } catch (...) {
    // No thread: the context is then made by the first call, as without this.
  }
}

void finish_device_warm_up() noexcept { warm_up().join(); }

namespace {

// Gives the device's default stream-ordered pool's unused memory back to
// the device. The SpGEMM raises the pool's release threshold so that
// repeated calls reuse their workspace; the memory the pool keeps is then
// invisible to cudaMalloc and to the pools' own growth elsewhere. Called
// once before an allocation is reported as failed. Waits for the device,
// so that memory freed on a stream is back in the pool first.
bool trim_default_pool() noexcept {
  int device = 0;
  cudaMemPool_t pool;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetDefaultMemPool(&pool, device) != cudaSuccess ||
      cudaDeviceSynchronize() != cudaSuccess || cudaMemPoolTrimTo(pool, 0) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return true;
}

}  // namespace

std::size_t device_memory_free() {
  int device = 0;
  GRAPHRUN_CUDA_CHECK(cudaGetDevice(&device));
  cudaMemPool_t pool;
  GRAPHRUN_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
  std::size_t free_b = 0, total_b = 0;
  GRAPHRUN_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  std::uint64_t reserved = 0, used = 0;
  GRAPHRUN_CUDA_CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved));
  GRAPHRUN_CUDA_CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
  return free_b + static_cast<std::size_t>(reserved > used ? reserved - used : 0);
}

bool device_memory_totals(std::size_t& free_bytes, std::size_t& total_bytes, std::string& error) {
  const cudaError_t err = cudaMemGetInfo(&free_bytes, &total_bytes);
  if (err == cudaSuccess) return true;
  cudaGetLastError();
  error = cudaGetErrorString(err);
  return false;
}

std::size_t device_memory_available() {
  return std::min(device_memory_free(), device_memory_headroom());
}

void release_pinned_host_buffers() noexcept {
  detail::release_staging_buffers();
  detail::release_pinned_scratch_block();
}

namespace {

// Gives back the reservation of a failed allocation and says what failed,
// with what the device had free.
[[noreturn]] void allocation_failed(const char* call, std::size_t bytes, cudaError_t err) {
  cudaGetLastError();
  release_device_memory(bytes);
  std::size_t free_b = 0, total_b = 0;
  cudaMemGetInfo(&free_b, &total_b);
  throw DeviceMemoryError(std::string(call) + " of " + std::to_string(bytes) + " bytes failed (" +
                          std::to_string(free_b) + " of " + std::to_string(total_b) +
                          " bytes free): " + cudaGetErrorString(err));
}

}  // namespace

DeviceBuffer::DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
  if (bytes == 0) return;
  reserve_device_memory(bytes, "a device array");
  cudaError_t err = cudaMalloc(&ptr_, bytes);
  if (err == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    if (trim_default_pool()) err = cudaMalloc(&ptr_, bytes);
  }
  if (err != cudaSuccess) allocation_failed("cudaMalloc", bytes, err);
}

DeviceBuffer::DeviceBuffer(std::size_t bytes, cudaStream_t stream)
    : bytes_(bytes), stream_(stream), ordered_(true) {
  if (bytes == 0) return;
  reserve_device_memory(bytes, "a device array");
  cudaError_t err = cudaMallocAsync(&ptr_, bytes, stream);
  if (err == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    if (trim_default_pool()) err = cudaMallocAsync(&ptr_, bytes, stream);
  }
  if (err != cudaSuccess) {
    ptr_ = nullptr;
    allocation_failed("cudaMallocAsync", bytes, err);
  }
}

void DeviceBuffer::release() noexcept {  // never throws: destructors call it
  if (!ptr_) return;
  release_device_memory(bytes_);
  if (ordered_)
    cudaFreeAsync(ptr_, stream_);
  else
    cudaFree(ptr_);
}

DeviceBuffer::~DeviceBuffer() { release(); }

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
  if (this != &o) {
    release();
    ptr_ = o.ptr_;
    bytes_ = o.bytes_;
    stream_ = o.stream_;
    ordered_ = o.ordered_;
    o.ptr_ = nullptr;
    o.bytes_ = 0;
  }
  return *this;
}

// A plain cudaMemcpy runs on the legacy default stream, which does not wait
// for a non-blocking stream: a stream-ordered buffer waits for its own.
void DeviceBuffer::wait_for_stream() const {
  if (ordered_) GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

// Copies past this size go through the pinned buffers (device_staging.hpp):
// a pageable cudaMemcpy runs at ~7.5 GB/s to the H200, and into freshly
// allocated host memory (a download into a new std::vector) at ~1.4 GB/s,
// the driver faulting the pages in one by one; staged, the host's side of
// each block is copied on every core while the next block crosses the bus.
// Below it, a plain copy: nothing to overlap.
constexpr std::size_t kStagedCopyBytes = std::size_t{4} << 20;

void DeviceBuffer::copy_from_host(const void* src, std::size_t bytes) {
  if (bytes > bytes_) throw ArgumentError("DeviceBuffer: upload larger than the buffer");
  if (!bytes) return;
  wait_for_stream();
  if (bytes >= kStagedCopyBytes) {
    const std::span<const unsigned char> whole[] = {
        {static_cast<const unsigned char*>(src), bytes}};
    detail::stage_to_device<unsigned char, unsigned char>(whole, static_cast<unsigned char*>(ptr_),
                                                          nullptr);
    return;
  }
  GRAPHRUN_CUDA_CHECK(cudaMemcpy(ptr_, src, bytes, cudaMemcpyHostToDevice));
}

void DeviceBuffer::copy_to_host(void* dst, std::size_t bytes) const {
  if (bytes > bytes_) throw ArgumentError("DeviceBuffer: download larger than the buffer");
  if (!bytes) return;
  wait_for_stream();
  if (bytes >= kStagedCopyBytes) {
    detail::stage_from_device(static_cast<const unsigned char*>(ptr_), bytes,
                              static_cast<unsigned char*>(dst), nullptr);
    return;
  }
  GRAPHRUN_CUDA_CHECK(cudaMemcpy(dst, ptr_, bytes, cudaMemcpyDeviceToHost));
}

}  // namespace graphrun
