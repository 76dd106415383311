// The engine's device questions in a build without the CUDA backend: no
// backend, no device, nothing to warm up, no memory to read. CMake links this
// file instead of src/cuda/ (engine/CMakeLists.txt), so that the code above
// the engine asks at run time and needs no preprocessor test of its own.
#include <optional>
#include <span>
#include <string>

#include "graphrun/engine/context.hpp"
#include "graphrun/engine/device_assembly.hpp"
#include "graphrun/engine/device_memory.hpp"
#include "graphrun/engine/error.hpp"

namespace graphrun {

bool cuda_backend_built() noexcept { return false; }
int cuda_device_count() noexcept { return 0; }
bool cuda_driver_found() noexcept { return false; }
void warm_up_device(int, std::function<void()>) noexcept {}
void finish_device_warm_up() noexcept {}
void release_pinned_host_buffers() noexcept {}

bool device_memory_totals(std::size_t&, std::size_t&, std::string& error) {
  error = "this build has no CUDA backend";
  return false;
}

// Unreachable: loaders ask cuda_device_count() first.
AssembledCsr assemble_csr_on_device(std::span<const IdEdges>, bool, bool, Duplicates,
                                    const std::string& source, bool) {
  throw DeviceError(source + ": this build has no CUDA backend to assemble the graph on");
}

std::optional<AssembledCsr> assemble_edge_text_on_device(std::span<const IdEdges>,
                                                         std::span<const char>, bool,
                                                         const std::string& source, bool) {
  throw DeviceError(source + ": this build has no CUDA backend to parse the graph on");
}

}  // namespace graphrun
