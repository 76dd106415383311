// Helpers shared by the device format builders: launch sizes, a CUB scan
// with its temporary storage, and reading one value back.
#pragma once

#include <cstddef>
#include <cub/device/device_scan.cuh>

#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/types.hpp"

namespace graphrun::cuda::detail {

inline constexpr int build_block = 256;

// Blocks of `block` threads covering `threads` threads (at least one block).
inline unsigned blocks_for(offset_t threads, int block = build_block) {
  const offset_t b = threads / block + (threads % block != 0);
  if (b > offset_t{0x7fffffff}) throw SizeError("device launch: too many blocks");
  return static_cast<unsigned>(b < 1 ? 1 : b);
}

// out[i] = in[0] + ... + in[i-1] for i < n (CUB, on `stream`).
template <class In, class Out>
void exclusive_sum(const In* in, Out* out, offset_t n, cudaStream_t stream) {
#if CUB_VERSION < 200600
  // CUB before 2.6 (CUDA 12.6 and older) takes DeviceScan's num_items as an
  // int: a count past 2^31 - 1 (n_rows + 1 for a matrix of 2^31 - 1 rows)
  // would wrap. Since 2.6 it is a template parameter and offset_t passes whole.
  if (n > offset_t{0x7fffffff}) throw SizeError("device scan: more than 2^31 - 1 items");
#endif
  std::size_t bytes = 0;
  GRAPHRUN_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, n, stream));
  DeviceBuffer tmp(bytes);
  GRAPHRUN_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(tmp.data(), bytes, in, out, n, stream));
}

// The value at device address p (waits for the stream).
template <class V>
V read_back(const V* p, cudaStream_t stream) {
  V v{};
  GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(&v, p, sizeof(V), cudaMemcpyDeviceToHost, stream));
  GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
  return v;
}

inline void check_launch() { GRAPHRUN_CUDA_CHECK(cudaGetLastError()); }

}  // namespace graphrun::cuda::detail
