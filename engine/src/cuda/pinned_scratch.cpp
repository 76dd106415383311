// The pinned scratch block: see pinned_scratch.hpp. Slots of 64 bytes,
// taken first-fit under a mutex: the buffers are few, small and short-lived
// (a handful per algorithm run), so a linear scan of 1,024 flags is cheap.
#include "graphrun/engine/pinned_scratch.hpp"

#include <cuda_runtime_api.h>

#include <array>
#include <mutex>

#include "graphrun/engine/cuda_check.hpp"

namespace graphrun::detail {

namespace {

constexpr std::size_t kSlot = 64;
constexpr std::size_t kSlots = 1024;  // 64 KiB

struct ScratchBlock {
  std::mutex lock;
  std::byte* base = nullptr;  // null until pinned
  std::array<bool, kSlots> used{};

  // Pins the block where it is not yet; false where that failed (the error
  // cleared: callers then pin their own buffers).
  bool pinned() {
    if (base != nullptr) return true;
    void* p = nullptr;
    if (cudaHostAlloc(&p, kSlot * kSlots, cudaHostAllocPortable) != cudaSuccess) {
      cudaGetLastError();
      return false;
    }
    base = static_cast<std::byte*>(p);
    return true;
  }

  bool owns(const void* p) const {
    const auto* b = static_cast<const std::byte*>(p);
    return base != nullptr && b >= base && b < base + kSlot * kSlots;
  }
};

// Never destroyed: the block lives as long as the process (freeing pinned
// memory from a static destructor races the driver's own shutdown), unless
// release_pinned_scratch_block() unpins it first.
ScratchBlock& block() {
  static ScratchBlock* const b = new ScratchBlock();
  return *b;
}

std::size_t slots_for(std::size_t bytes) { return bytes == 0 ? 1 : (bytes + kSlot - 1) / kSlot; }

}  // namespace

void* acquire_pinned_scratch(std::size_t bytes) {
  const std::size_t want = slots_for(bytes);
  ScratchBlock& b = block();
  if (want <= kSlots) {
    const std::lock_guard<std::mutex> hold(b.lock);
    if (b.pinned()) {
      std::size_t run = 0;
      for (std::size_t s = 0; s < kSlots; ++s) {
        run = b.used[s] ? 0 : run + 1;
        if (run == want) {
          const std::size_t first = s + 1 - want;
          for (std::size_t k = first; k <= s; ++k) b.used[k] = true;
          return b.base + first * kSlot;
        }
      }
    }
  }
  void* p = nullptr;  // larger than what is free: a buffer of its own
  GRAPHRUN_CUDA_CHECK(cudaMallocHost(&p, bytes == 0 ? 1 : bytes));
  return p;
}

void release_pinned_scratch(void* p, std::size_t bytes) noexcept {
  if (p == nullptr) return;
  // As cudaFreeHost does, wait for the device first: no copy still in
  // flight (an error path's) may land in slots handed to another owner.
  if (cudaDeviceSynchronize() != cudaSuccess) cudaGetLastError();
  ScratchBlock& b = block();
  {
    const std::lock_guard<std::mutex> hold(b.lock);
    if (b.owns(p)) {
      const auto first = static_cast<std::size_t>(static_cast<std::byte*>(p) - b.base) / kSlot;
      for (std::size_t k = first; k < first + slots_for(bytes); ++k) b.used[k] = false;
      return;
    }
  }
  cudaFreeHost(p);
}

void reserve_pinned_scratch() noexcept {
  ScratchBlock& b = block();
  const std::lock_guard<std::mutex> hold(b.lock);
  b.pinned();
}

void release_pinned_scratch_block() noexcept {
  ScratchBlock& b = block();
  const std::lock_guard<std::mutex> hold(b.lock);
  if (b.base == nullptr) return;
  for (const bool u : b.used)
    if (u) return;  // a buffer is still held: the block stays
  cudaFreeHost(b.base);
  cudaGetLastError();
  b.base = nullptr;
}

}  // namespace graphrun::detail
