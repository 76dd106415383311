// The CUDA backend in a build without CUDA: there is none, and
// backend_for() says so with a DeviceError naming the algorithm (exit
// status 2 on the command line), not a link error. CMake links this file
// instead of src/cuda/ (algorithms/CMakeLists.txt).
#include "../backend.hpp"

namespace graphrun::detail {

const Backend* cuda_backend() noexcept { return nullptr; }

}  // namespace graphrun::detail
