// Device memory behind RAII, every call checked and turned into a DeviceError
// naming it; never managed memory. Two kinds of buffer:
//   - plain: cudaMalloc / cudaFree;
//   - stream-ordered: cudaMallocAsync from the device's default pool on a
//     stream, freed by cudaFreeAsync on the same stream. Results that a
//     kernel library builds on a stream (SpGEMM's C) use these, because a
//     cudaMalloc can cost more than a small product. The stream must outlive
//     the buffer; copies to and from the host wait for the stream first.
//
// DeviceBuffer owns untyped bytes; DeviceArray<T> is the typed array that
// kernels and algorithms use. Both are defined only in CUDA builds (the
// sources under cuda/ folders include this header); the questions every build
// may ask (is there a device?) are in context.hpp.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "graphrun/engine/context.hpp"
#include "graphrun/engine/error.hpp"

struct CUstream_st;  // cudaStream_t, without the CUDA headers

namespace graphrun {

[[noreturn]] void throw_device_size_overflow();

namespace detail {
// Faults in the pages of [p, p + bytes) on every host core
// (MADV_POPULATE_WRITE; device_staging.cpp, which has OpenMP): a fresh
// vector of millions of values took one thread's page faults, ~25 ms for
// PageRank's 37 MB of ranks at R-MAT 23.
void prefault_host(void* p, std::size_t bytes) noexcept;
}  // namespace detail

// std::vector<T>(n), its pages faulted in on every core first: where a
// download lands.
template <class T>
std::vector<T> host_vector_for_download(std::size_t n) {
  std::vector<T> v;
  v.reserve(n);
  detail::prefault_host(v.data(), n * sizeof(T));
  v.resize(n);
  return v;
}

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes);
  // Stream-ordered: usable in the order of `stream` (nullptr: the default stream).
  DeviceBuffer(std::size_t bytes, CUstream_st* stream);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : ptr_(o.ptr_), bytes_(o.bytes_), stream_(o.stream_), ordered_(o.ordered_) {
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
  void release() noexcept;
  void wait_for_stream() const;
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
  CUstream_st* stream_ = nullptr;
  bool ordered_ = false;  // from the pool, freed on stream_
};

template <class T>
class DeviceArray {
 public:
  using value_type = T;
  DeviceArray() = default;
  explicit DeviceArray(std::size_t n) : buf_(bytes_for(n)), n_(n) {}
  // Stream-ordered (see DeviceBuffer).
  DeviceArray(std::size_t n, CUstream_st* stream) : buf_(bytes_for(n), stream), n_(n) {}
  explicit DeviceArray(std::span<const T> host) : DeviceArray(host.size()) { upload(host); }

  T* data() noexcept { return static_cast<T*>(buf_.data()); }
  const T* data() const noexcept { return static_cast<const T*>(buf_.data()); }
  std::size_t size() const noexcept { return n_; }

  void upload(std::span<const T> host) { buf_.copy_from_host(host.data(), bytes_for(host.size())); }
  std::vector<T> download() const {
    std::vector<T> host = host_vector_for_download<T>(n_);
    buf_.copy_to_host(host.data(), bytes_for(n_));
    return host;
  }
  // Into host memory of at least size() values (a vector prepared while the
  // device was busy).
  void download_into(std::span<T> host) const {
    if (host.size() < n_)
      throw ArgumentError("DeviceArray::download_into: room for " + std::to_string(host.size()) +
                          " values, the array holds " + std::to_string(n_));
    buf_.copy_to_host(host.data(), bytes_for(n_));
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

}  // namespace graphrun
