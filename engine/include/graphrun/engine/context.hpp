// Where work runs. Algorithms and kernels take a Context& first.
//
// Device::cpu runs on `threads` OpenMP threads (0 = OpenMP's default, which
// honours OMP_NUM_THREADS). Device::cuda runs on `device_id`; the GPU
// backend arrives with the CUDA kernels.
#pragma once

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

class Context {
 public:
  explicit Context(Device device = Device::cpu, int threads = 0, int device_id = 0);

  Device device() const noexcept { return device_; }
  int device_id() const noexcept { return device_id_; }

  // Number of CPU threads parallel regions use (resolved, always >= 1).
  int threads() const noexcept { return threads_; }

 private:
  Device device_;
  int threads_;
  int device_id_;
};

}  // namespace graphrun
