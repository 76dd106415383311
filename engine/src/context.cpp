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

// Whether the CUDA backend is built, asked at run time, so that code above
// the engine needs no preprocessor test of its own; and the device queries
// of a build without it.
#if defined(GRAPHRUN_HAVE_CUDA)
namespace graphrun {
bool cuda_backend_built() noexcept { return true; }
}  // namespace graphrun
#else
#include "graphrun/engine/device_array.hpp"
namespace graphrun {
bool cuda_backend_built() noexcept { return false; }
int cuda_device_count() noexcept { return 0; }
void warm_up_device(int) noexcept {}
bool device_memory_totals(std::size_t&, std::size_t&, std::string& error) {
  error = "this build has no CUDA backend";
  return false;
}
}  // namespace graphrun
#endif
