// Small page-locked host buffers for what a GPU algorithm reads back while
// it runs (frontier counts, residuals, flags), carved from one block that
// is pinned once per process.
//
// cudaMallocHost costs 0.5-1.6 ms a call on the H200's host even for 128
// bytes, and cudaFreeHost 0.2-0.4 ms (measured): a GPU run with four such
// buffers paid several milliseconds of set-up for a few scalars. The block
// (64 KiB, portable to every device) is pinned at first use, or earlier by
// the device warm-up thread while the input loads; a request larger than
// what is free in it gets a buffer of its own. Thread-safe. Defined in
// builds with the CUDA backend only.
#pragma once

#include <cstddef>

namespace graphrun::detail {

// At least `bytes` of pinned host memory, 64-byte aligned; DeviceError where
// none can be had. Give it back with release_pinned_scratch(p, bytes).
void* acquire_pinned_scratch(std::size_t bytes);
void release_pinned_scratch(void* p, std::size_t bytes) noexcept;

// Pins the block now, if it is not yet; errors are left for the first use.
void reserve_pinned_scratch() noexcept;

// Unpins the block where no buffer of it is held (the next use pins it
// again). Part of release_pinned_host_buffers().
void release_pinned_scratch_block() noexcept;

// A typed buffer of n elements from the scratch, for its owner's lifetime.
template <class T>
class PinnedScratch {
 public:
  explicit PinnedScratch(std::size_t n)
      : n_(n), p_(static_cast<T*>(acquire_pinned_scratch(n * sizeof(T)))) {}
  ~PinnedScratch() { release_pinned_scratch(p_, n_ * sizeof(T)); }
  PinnedScratch(const PinnedScratch&) = delete;
  PinnedScratch& operator=(const PinnedScratch&) = delete;
  T* data() noexcept { return p_; }
  T& operator[](std::size_t i) noexcept { return p_[i]; }

 private:
  std::size_t n_;
  T* p_;
};

}  // namespace graphrun::detail
