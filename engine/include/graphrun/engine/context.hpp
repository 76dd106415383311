// Where work runs. Algorithms and kernels take a Context& first.
//
// Device::cpu runs on `threads` OpenMP threads (0 = OpenMP's default, which
// honours OMP_NUM_THREADS). Device::cuda runs on `device_id`; the GPU
// backend arrives with the CUDA kernels.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>

#include "graphrun/engine/types.hpp"

namespace graphrun {

enum class Device { cpu, cuda };

// Work (rows + stored entries) below which a CPU kernel runs on one thread:
// waking the others costs more than they save. One value for the SpMV
// kernels, PageRank's fused pass and the format choice, which must agree.
inline constexpr offset_t cpu_min_parallel_work = offset_t{1} << 14;

Device parse_device(std::string_view name);  // "cpu" | "cuda", else ArgumentError
std::string_view to_string(Device d);

// What every build can ask about the GPU, answered at run time, so that code
// above the engine needs no preprocessor test: a build without the CUDA
// backend links engine/src/no_gpu/device_absent.cpp, whose answers are "no".
//
// Whether this build has the CUDA backend.
bool cuda_backend_built() noexcept;
// Number of usable CUDA devices; 0 without backend, driver or GPU. Never throws.
// The first call starts the CUDA driver (0.2 s on an H200's host).
int cuda_device_count() noexcept;
// Whether a CUDA driver is installed, asked without starting it (so that a
// command line can refuse at once where there is none, and count the
// devices while its input loads). Never throws.
bool cuda_driver_found() noexcept;
// Starts creating device `device`'s CUDA context on a thread of its own and
// returns at once, so that the ~0.2 s it takes overlaps other work (a command
// line reading its input). The first CUDA call that needs the context waits
// for it. Errors are left for that first call to report. Does nothing
// without a CUDA backend.
//
// `prime`, where given, runs on that thread once the context exists: work
// that makes a later call cheaper (a command line runs its GPU kernels on a
// small graph, so that CUDA's loading of each kernel at its first launch is
// paid while the input is read rather than in the run). Whatever it throws
// is dropped. Only the first call's `prime` runs.
void warm_up_device(int device, std::function<void()> prime = {}) noexcept;
// Waits for the thread warm_up_device() started. A program that may end
// before its first CUDA call (an error found in its input) calls this before
// it returns from main: the CUDA runtime's exit handlers, registered on that
// thread, run before the static objects made earlier, and tearing the runtime
// down while the thread is still creating the context can hang the exit (it
// did, on a GPU busy with other processes).
void finish_device_warm_up() noexcept;

class Context {
 public:
  explicit Context(Device device = Device::cpu, int threads = 0, int device_id = 0);

  Device device() const noexcept { return device_; }
  int device_id() const noexcept { return device_id_; }

  // Number of CPU threads parallel regions use (resolved, always >= 1).
  int threads() const noexcept { return threads_; }

  // Most device memory graphrun may hold, in bytes (0 = no cap; see
  // engine/device_memory.hpp). The cap is one per process: setting it here
  // sets it for every context.
  Context& set_max_device_memory(std::size_t bytes);
  std::size_t max_device_memory() const noexcept { return max_device_memory_; }

  // Results that do not depend on timing: GPU sums in a fixed order, so the
  // same input gives the same bits run to run (SpGEMM and what builds on it;
  // PageRank and SpMV reduce in a fixed order always). CPU results are
  // deterministic for a given thread count either way.
  Context& set_deterministic(bool on) noexcept {
    deterministic_ = on;
    return *this;
  }
  bool deterministic() const noexcept { return deterministic_; }

 private:
  Device device_;
  int threads_;
  int device_id_;
  std::size_t max_device_memory_ = 0;
  bool deterministic_ = false;
};

}  // namespace graphrun
