// Small pieces the GPU algorithms share: selecting the context's device,
// uploading a graph's CSR (with or without its values), pinned host memory
// for the scalars read back every iteration, and launch sizes.
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "graphrun/engine/context.hpp"
#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/engine/device_csr.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/pinned_scratch.hpp"

namespace graphrun::detail {

// Makes ctx's GPU current, with a clear error where there is none.
inline void use_device(const Context& ctx, const char* algorithm) {
  const int count = cuda_device_count();
  if (count == 0) throw DeviceError(std::string(algorithm) + ": no CUDA device found");
  if (ctx.device_id() < 0 || ctx.device_id() >= count)
    throw DeviceError(std::string(algorithm) + ": CUDA device " + std::to_string(ctx.device_id()) +
                      " does not exist (" + std::to_string(count) + " found)");
  GRAPHRUN_CUDA_CHECK(cudaSetDevice(ctx.device_id()));
}

// Uploads a; values only when `with_values` (otherwise a pattern: entries 1,
// and no value bytes streamed by the kernels).
inline DeviceCsr<double> upload(const Csr<double>& a, bool with_values) {
  DeviceArray<offset_t> row_ptr{std::span<const offset_t>(a.row_ptr())};
  DeviceArray<vertex_t> col_idx{std::span<const vertex_t>(a.col_idx())};
  DeviceArray<double> values;
  if (with_values && !a.is_pattern())
    values = DeviceArray<double>{std::span<const double>(a.values())};
  return DeviceCsr<double>(a.n_rows(), a.n_cols(), std::move(row_ptr), std::move(col_idx),
                           std::move(values));
}

template <class T>
DeviceArray<T> device_copy(const DeviceArray<T>& from) {
  DeviceArray<T> to(from.size());
  if (from.size() > 0)
    GRAPHRUN_CUDA_CHECK(
        cudaMemcpy(to.data(), from.data(), from.size() * sizeof(T), cudaMemcpyDeviceToDevice));
  return to;
}

inline bool on_current_device(const DeviceCsr<double>& a) {
  if (a.row_ptr().size() == 0) return true;
  int current = 0;
  GRAPHRUN_CUDA_CHECK(cudaGetDevice(&current));
  cudaPointerAttributes where{};
  GRAPHRUN_CUDA_CHECK(cudaPointerGetAttributes(&where, a.row_ptr().data()));
  return where.device == current;
}

// A copy of a device CSR on the device (values only when `with_values`), or
// nullopt when it lives on another GPU than the current one.
inline std::optional<DeviceCsr<double>> device_copy(const DeviceCsr<double>& a, bool with_values) {
  if (!on_current_device(a)) return std::nullopt;
  return DeviceCsr<double>(a.n_rows(), a.n_cols(), device_copy(a.row_ptr()),
                           device_copy(a.col_idx()),
                           with_values ? device_copy(a.values()) : DeviceArray<double>());
}

// The graph's adjacency on the device, values only when `with_values`: the
// one the loader left there (Graph::device_adjacency) itself where it is on
// the current GPU and has no values that were not asked for, else a device
// copy of it or an upload of adj(). Borrowing spares a copy of the whole
// adjacency per run (R-MAT 23's 0.56 GB: ~0.5 ms on the H200 and the room
// for it); the graph's shared copy is kept alive by the handle.
class AdjacencyOnDevice {
 public:
  AdjacencyOnDevice() = default;
  AdjacencyOnDevice(const Graph& g, bool with_values) {
    if (const auto& d = g.device_adjacency()) {
      if ((with_values || d->csr.is_pattern()) && on_current_device(d->csr)) {
        borrowed_ = d;
        return;
      }
      if (std::optional<DeviceCsr<double>> a = device_copy(d->csr, with_values)) {
        owned_ = std::move(*a);
        return;
      }
    }
    owned_ = upload(g.adj(), with_values);
  }

  const DeviceCsr<double>& csr() const noexcept { return borrowed_ ? borrowed_->csr : owned_; }

 private:
  std::shared_ptr<const DeviceAdjacency> borrowed_;
  DeviceCsr<double> owned_;
};

// Page-locked host memory for the few scalars copied back each iteration:
// a copy from pinned memory is a plain DMA, no staging. From the process's
// pinned scratch block (a cudaMallocHost per buffer cost ~1 ms each).
template <class T>
using Pinned = PinnedScratch<T>;

inline int multiprocessors() {
  int device = 0, sms = 0;
  GRAPHRUN_CUDA_CHECK(cudaGetDevice(&device));
  GRAPHRUN_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return sms;
}

// Blocks for a grid-stride loop over `work` items: enough to fill the GPU a
// few times over, never more than the work needs (at least 1).
inline unsigned grid_for(long long work, int block, int per_sm = 8) {
  const long long want = (work + block - 1) / block;
  const long long cap = static_cast<long long>(multiprocessors()) * per_sm;
  return static_cast<unsigned>(want < 1 ? 1 : (want < cap ? want : cap));
}

inline void check_launch() { GRAPHRUN_CUDA_CHECK(cudaGetLastError()); }

// Blocks for a persistent cooperative kernel (a device-side level loop, one
// grid-wide barrier per level): two per SM, enough to hide the gathers'
// latency on the thin frontiers such a loop takes and few enough for a
// quick barrier; fewer where the kernel's resources allow only one.
// DeviceError naming `algorithm` where not even one block fits on an SM.
inline unsigned cooperative_blocks(const void* kernel, int block, const char* algorithm) {
  int per_sm = 0;
  GRAPHRUN_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, 0));
  if (per_sm < 1)
    throw DeviceError(std::string(algorithm) + ": a device-side level loop does not fit on an SM");
  return static_cast<unsigned>(multiprocessors() * (per_sm < 2 ? per_sm : 2));
}

}  // namespace graphrun::detail
