#include "graphrun/engine/context.hpp"

#include <omp.h>

#include <string>

#include "graphrun/engine/device_memory.hpp"
#include "graphrun/engine/error.hpp"

namespace graphrun {

Device parse_device(std::string_view name) {
  if (name == "cpu") return Device::cpu;
  if (name == "cuda") return Device::cuda;
  throw ArgumentError("unknown device '" + std::string(name) + "' (expected cpu or cuda)");
}

std::string_view to_string(Device d) { return d == Device::cpu ? "cpu" : "cuda"; }

Context::Context(Device device, int threads, int device_id)
    : device_(device), threads_(threads), device_id_(device_id) {
  if (threads < 0) throw ArgumentError("thread count must be >= 0 (0 = all available)");
  if (threads_ == 0) threads_ = omp_get_max_threads();
  if (threads_ < 1) threads_ = 1;
}

Context& Context::set_max_device_memory(std::size_t bytes) {
  max_device_memory_ = bytes;
  set_device_memory_cap(bytes);
  return *this;
}

}  // namespace graphrun
