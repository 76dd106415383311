// The device memory count and cap (device_memory.hpp). Plain host code with
// atomics: allocations come from any thread, and the count is only
// arithmetic, so it exists in every build (a CPU-only build never counts).

#include "graphrun/engine/device_memory.hpp"

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <limits>

#include "graphrun/engine/error.hpp"

namespace graphrun {

namespace {
std::atomic<std::size_t> cap_bytes{0};
std::atomic<std::size_t> in_use{0};
std::atomic<std::size_t> peak{0};
}  // namespace

void set_device_memory_cap(std::size_t bytes) noexcept { cap_bytes = bytes; }
std::size_t device_memory_cap() noexcept { return cap_bytes; }
std::size_t device_memory_in_use() noexcept { return in_use; }
std::size_t device_memory_peak() noexcept { return peak; }
void reset_device_memory_peak() noexcept { peak = in_use.load(); }

std::string describe_bytes(std::size_t bytes) {
  char text[64];
  std::snprintf(text, sizeof text, "%zu bytes (%.2f GiB)", bytes,
                static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
  return text;
}

void reserve_device_memory(std::size_t bytes, const char* what) {
  const std::size_t cap = cap_bytes;
  std::size_t held = in_use.load();
  for (;;) {
    // held + bytes > cap, written so that it cannot overflow.
    if (cap != 0 && (bytes > cap || held > cap - bytes))
      throw DeviceMemoryError(std::string(what) + " needs " + describe_bytes(bytes) +
                              " of device memory, but " + describe_bytes(held) + " of the cap of " +
                              describe_bytes(cap) + " (--max-device-memory) are in use: " +
                              describe_bytes(held > cap ? 0 : cap - held) + " available");
    if (in_use.compare_exchange_weak(held, held + bytes)) break;
  }
  std::size_t p = peak.load();
  while (held + bytes > p && !peak.compare_exchange_weak(p, held + bytes)) {
  }
}

void release_device_memory(std::size_t bytes) noexcept { in_use -= bytes; }

std::size_t device_memory_headroom() noexcept {
  const std::size_t cap = cap_bytes, held = in_use;
  if (cap == 0) return std::numeric_limits<std::size_t>::max();
  return held >= cap ? 0 : cap - held;
}

}  // namespace graphrun
