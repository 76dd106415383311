// Host arrays to the device through pinned double buffers: see
// device_staging.hpp. A .cpp file, so that the conversion runs on
// every host core (OpenMP), which nvcc-compiled host code does not get.
#include "device_staging.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <mutex>
#include <vector>

#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/prefault.hpp"

namespace graphrun::detail {

namespace {

// 32 MiB per buffer: large enough for the copy engine's full rate, small
// enough that pinning two costs little.
constexpr std::size_t kStageBytes = std::size_t{32} << 20;
// Arrays up to this size go through an ordinary (pageable) copy: at a few
// microseconds per copy there is nothing for double buffering to hide, and
// a small load need not wait for memory to be pinned.
constexpr std::size_t kDirectBytes = std::size_t{1} << 20;

// Two pinned buffers and their events, pinned on first use and kept for the
// life of the process: pinning 64 MiB takes milliseconds, and a load makes
// up to seven staged copies. One staged copy at a time holds them.
struct PinnedBuffers {
  void* buf[2] = {nullptr, nullptr};
  cudaEvent_t copied[2] = {nullptr, nullptr};
  PinnedBuffers() {
    for (int i = 0; i < 2; ++i) {
      GRAPHRUN_CUDA_CHECK(cudaMallocHost(&buf[i], kStageBytes));
      GRAPHRUN_CUDA_CHECK(cudaEventCreateWithFlags(&copied[i], cudaEventDisableTiming));
    }
  }
  // Deleted only by release_staging_buffers(), never at exit (the driver may
  // already be shutting down, and the process's pinned memory goes with it).
  // Each buffer's last copy ended when its lease did (the stream was waited
  // for); the events are waited for all the same.
  ~PinnedBuffers() {
    for (int i = 0; i < 2; ++i) {
      cudaEventSynchronize(copied[i]);
      cudaEventDestroy(copied[i]);
      cudaFreeHost(buf[i]);
    }
    cudaGetLastError();
  }
  PinnedBuffers(const PinnedBuffers&) = delete;
  PinnedBuffers& operator=(const PinnedBuffers&) = delete;
};

// The buffers (null until the first staged copy, and again after
// release_staging_buffers) and the lock that one staged copy at a time holds.
struct Staging {
  std::mutex lock;
  PinnedBuffers* buffers = nullptr;
};

Staging& staging() {
  static Staging* const s = new Staging();  // never destroyed, as the buffers
  return *s;
}

class StagingLease {
 public:
  StagingLease() : lock_(staging().lock) {
    // Made under the lock, so two first uses pin once.
    if (staging().buffers == nullptr) staging().buffers = new PinnedBuffers();
    buffers_ = staging().buffers;
  }
  PinnedBuffers& operator*() const { return *buffers_; }
  PinnedBuffers* operator->() const { return buffers_; }

 private:
  std::lock_guard<std::mutex> lock_;
  PinnedBuffers* buffers_ = nullptr;
};

}  // namespace

template <class From, class To>
void stage_to_device(std::span<const std::span<const From>> parts, To* out, CUstream_st* stream) {
  std::size_t total = 0;
  for (const std::span<const From>& part : parts) total += part.size();
  if (total * sizeof(To) <= kDirectBytes) {
    std::vector<To> converted;
    converted.reserve(total);
    for (const std::span<const From>& part : parts)
      for (const From v : part) converted.push_back(static_cast<To>(v));
    GRAPHRUN_CUDA_CHECK(
        cudaMemcpyAsync(out, converted.data(), total * sizeof(To), cudaMemcpyHostToDevice, stream));
    GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
    return;
  }
  const StagingLease pinned;
  const std::size_t block = kStageBytes / sizeof(To);
  std::size_t at = 0;  // values copied (queued) so far
  int which = 0;
  for (const std::span<const From>& part : parts)
    for (std::size_t from = 0; from < part.size(); from += block) {
      const std::size_t count = std::min(block, part.size() - from);
      // The buffer's previous copy must be done before it is refilled.
      GRAPHRUN_CUDA_CHECK(cudaEventSynchronize(pinned->copied[which]));
      To* buf = static_cast<To*>(pinned->buf[which]);
      const From* src = part.data() + from;
      const auto n = static_cast<std::ptrdiff_t>(count);
#pragma omp parallel for schedule(static) if (n > 65536)
      for (std::ptrdiff_t i = 0; i < n; ++i) buf[i] = static_cast<To>(src[i]);
      GRAPHRUN_CUDA_CHECK(
          cudaMemcpyAsync(out + at, buf, count * sizeof(To), cudaMemcpyHostToDevice, stream));
      GRAPHRUN_CUDA_CHECK(cudaEventRecord(pinned->copied[which], stream));
      at += count;
      which ^= 1;
    }
  GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
}

template <class From, class To>
void stage_from_device(const From* from, std::size_t n, To* out, CUstream_st* stream) {
  if (n * sizeof(From) <= kDirectBytes) {
    std::vector<From> copy(n);
    GRAPHRUN_CUDA_CHECK(
        cudaMemcpyAsync(copy.data(), from, n * sizeof(From), cudaMemcpyDeviceToHost, stream));
    GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::copy(copy.begin(), copy.end(), out);  // converting From to To
    return;
  }
  const StagingLease pinned;
  const std::size_t block = kStageBytes / sizeof(From);
  const std::size_t blocks = (n + block - 1) / block;
  const auto queue = [&](std::size_t b) {
    const std::size_t count = std::min(block, n - b * block);
    GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(pinned->buf[b % 2], from + b * block, count * sizeof(From),
                                        cudaMemcpyDeviceToHost, stream));
    GRAPHRUN_CUDA_CHECK(cudaEventRecord(pinned->copied[b % 2], stream));
  };
  queue(0);
  for (std::size_t b = 0; b < blocks; ++b) {
    GRAPHRUN_CUDA_CHECK(cudaEventSynchronize(pinned->copied[b % 2]));
    if (b + 1 < blocks) queue(b + 1);  // into the other buffer, while this one is spread
    const From* buf = static_cast<const From*>(pinned->buf[b % 2]);
    To* dst = out + b * block;
    const auto count = static_cast<std::ptrdiff_t>(std::min(block, n - b * block));
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < count; ++i) dst[i] = static_cast<To>(buf[i]);
  }
}

void release_staging_buffers() noexcept {
  Staging& s = staging();
  const std::lock_guard<std::mutex> hold(s.lock);  // no staged copy under way
  delete s.buffers;
  s.buffers = nullptr;
}

// Here, in a file built with OpenMP, so that the faults are taken on every
// core (the header's callers are often nvcc-compiled, without it).
void prefault_host(void* p, std::size_t bytes) noexcept { prefault_range(p, bytes); }

template void stage_to_device(std::span<const std::span<const std::uint64_t>>, std::uint32_t*,
                              CUstream_st*);
template void stage_to_device(std::span<const std::span<const std::uint32_t>>, std::uint32_t*,
                              CUstream_st*);
template void stage_to_device(std::span<const std::span<const std::uint32_t>>, std::uint64_t*,
                              CUstream_st*);
template void stage_to_device(std::span<const std::span<const std::uint64_t>>, std::uint64_t*,
                              CUstream_st*);
template void stage_to_device(std::span<const std::span<const double>>, double*, CUstream_st*);
template void stage_to_device(std::span<const std::span<const unsigned char>>, unsigned char*,
                              CUstream_st*);

template void stage_from_device(const unsigned char*, std::size_t, unsigned char*, CUstream_st*);
template void stage_from_device(const std::int64_t*, std::size_t, std::int64_t*, CUstream_st*);
template void stage_from_device(const std::int32_t*, std::size_t, std::int32_t*, CUstream_st*);
template void stage_from_device(const double*, std::size_t, double*, CUstream_st*);
template void stage_from_device(const std::uint32_t*, std::size_t, std::uint64_t*, CUstream_st*);
template void stage_from_device(const std::uint64_t*, std::size_t, std::uint64_t*, CUstream_st*);

}  // namespace graphrun::detail
