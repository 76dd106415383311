// Device memory behind RAII: plain cudaMalloc/cudaFree (never managed
// memory), every call checked and turned into a DeviceError naming it.
//
// DeviceBuffer owns untyped bytes; DeviceArray<T> is the typed array that
// kernels and algorithms use. Both exist only in CUDA builds
// (GRAPHRUN_HAVE_CUDA); cuda_device_count() exists in every build and
// answers 0 where there is no CUDA backend, driver or GPU.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace graphrun {

// Number of usable CUDA devices; 0 without backend, driver or GPU. Never throws.
int cuda_device_count() noexcept;

#if defined(GRAPHRUN_HAVE_CUDA)

[[noreturn]] void throw_device_size_overflow();

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(o.ptr_), bytes_(o.bytes_) {
    o.ptr_ = nullptr;
    o.bytes_ = 0;
  }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void* data() noexcept { return ptr_; }
  const void* data() const noexcept { return ptr_; }
  std::size_t bytes() const noexcept { return bytes_; }

  void copy_from_host(const void* src, std::size_t bytes);
  void copy_to_host(void* dst, std::size_t bytes) const;

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(std::size_t n) : buf_(bytes_for(n)), n_(n) {}
  explicit DeviceArray(std::span<const T> host) : DeviceArray(host.size()) { upload(host); }

  T* data() noexcept { return static_cast<T*>(buf_.data()); }
  const T* data() const noexcept { return static_cast<const T*>(buf_.data()); }
  std::size_t size() const noexcept { return n_; }

  void upload(std::span<const T> host) { buf_.copy_from_host(host.data(), bytes_for(host.size())); }
  std::vector<T> download() const {
    std::vector<T> host(n_);
    buf_.copy_to_host(host.data(), bytes_for(n_));
    return host;
  }

 private:
  static std::size_t bytes_for(std::size_t n);
  DeviceBuffer buf_;
  std::size_t n_ = 0;
};

template <class T>
std::size_t DeviceArray<T>::bytes_for(std::size_t n) {
  std::size_t b;
  if (__builtin_mul_overflow(n, sizeof(T), &b)) throw_device_size_overflow();
  return b;
}

#endif  // GRAPHRUN_HAVE_CUDA

}  // namespace graphrun
