// What graphrun-scale-check reports and checks about memory: the host's peak
// resident size and what it has available, the device memory in use
// (sampled, since algorithms free theirs before they return), and the
// estimates of what a circulant of a given size needs on each side.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "graphrun/engine/context.hpp"

namespace graphrun::scale {

// Peak resident set of this process so far (getrusage ru_maxrss), in bytes.
std::uint64_t host_peak_bytes();

// MemAvailable from /proc/meminfo, else physical memory; nullopt when
// neither can be read.
std::optional<std::uint64_t> host_available_bytes();

// Host bytes the check needs for a circulant of n vertices and nnz edges:
// the adjacency and its transpose (CSR, no values), the transpose's
// per-thread column counts (at most the size of col_idx, see
// Csr::transpose) and the vertex vectors of PageRank, BFS and the checks.
// SizeError when the sum overflows.
std::uint64_t host_bytes_needed(std::uint64_t n, std::uint64_t nnz, Device device);

// Device bytes at the peak of PageRank or BFS, whichever is larger: PageRank
// holds Aᵀ as CSR, a derived SpMV format (up to the size of Aᵀ's col_idx
// plus 8 bytes a row: HYB's ELL part and COO tail) and its vertex vectors;
// BFS holds A, and Aᵀ with its format once it pulls. An estimate for the
// report; the device itself is the judge.
std::uint64_t device_bytes_needed(std::uint64_t n, std::uint64_t nnz);

// Device memory in use (cudaMemGetInfo: total - free), remembered at its
// largest since the last reset. Without a CUDA device, or on the CPU, it
// samples nothing and reports no value.
class DeviceMemory {
 public:
  explicit DeviceMemory(bool enabled) : enabled_(enabled) {}
  void sample();
  void reset_peak() { peak_.reset(); }
  std::optional<std::uint64_t> peak() const { return peak_; }

 private:
  bool enabled_;
  std::optional<std::uint64_t> peak_;
};

// "10.48 GiB".
std::string gib(std::uint64_t bytes);

}  // namespace graphrun::scale
