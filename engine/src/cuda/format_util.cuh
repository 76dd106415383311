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

// out[k] = the row of entry k of a CSR (the row index of its COO). A warp
// takes 32 consecutive rows: it reads their bounds in one coalesced load,
// then writes them one after another, a lane per entry, so that short rows
// (most of a graph's) do not each occupy a warp and a long one is still
// written 32 entries at a time. A template only so that every file that
// includes this one may launch it.
template <class Row>
__global__ void expand_rows(vertex_t n_rows, const offset_t* __restrict__ row_ptr,
                            Row* __restrict__ out) {
  const offset_t warps = (offset_t{gridDim.x} * blockDim.x) / 32;
  const int lane = static_cast<int>(threadIdx.x % 32);
  for (offset_t first = (blockIdx.x * offset_t{blockDim.x} + threadIdx.x) / 32 * 32;
       first < offset_t{n_rows}; first += warps * 32) {
    const offset_t mine = first + lane;
    const offset_t begin = mine < n_rows ? row_ptr[mine] : 0;
    const offset_t end = mine < n_rows ? row_ptr[mine + 1] : 0;
    for (int j = 0; j < 32; ++j) {
      const offset_t b = __shfl_sync(0xffffffffu, begin, j);
      const offset_t e = __shfl_sync(0xffffffffu, end, j);
      for (offset_t k = b + lane; k < e; k += 32) out[k] = static_cast<Row>(first + j);
    }
  }
}

// expand_rows over the whole CSR on `stream`.
inline void launch_expand_rows(vertex_t n_rows, const offset_t* row_ptr, vertex_t* out,
                               cudaStream_t stream) {
  const offset_t warps = (offset_t{n_rows} + 31) / 32;
  expand_rows<vertex_t><<<blocks_for(warps * 32), build_block, 0, stream>>>(n_rows, row_ptr, out);
  check_launch();
}

}  // namespace graphrun::cuda::detail
