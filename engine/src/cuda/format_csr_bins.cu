// csr-bins from CSR on the device: each row's bin from its length, a stable
// CUB radix sort of the row ids on the 3-bit bin (rows of a bin keep their
// order, so a bin's writes of y go up the rows), and the bins' bounds by
// binary search in the sorted bins, read back to the host.
#include <cstdint>
#include <cub/device/device_radix_sort.cuh>

#include "format_util.cuh"
#include "graphrun/engine/cuda/csr_bins.hpp"
#include "graphrun/engine/first_at_least.hpp"

namespace graphrun::cuda {

namespace {

__global__ void row_bins(const offset_t* __restrict__ row_ptr, vertex_t n_rows,
                         std::uint8_t* __restrict__ bin, vertex_t* __restrict__ ids) {
  const offset_t i = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  if (i >= n_rows) return;
  bin[i] = static_cast<std::uint8_t>(csr_bin(row_ptr[i + 1] - row_ptr[i]));
  ids[i] = static_cast<vertex_t>(i);
}

// start[b] = the first position of a bin >= b in the sorted bins.
__global__ void bin_starts(const std::uint8_t* __restrict__ sorted, vertex_t n_rows,
                           vertex_t* __restrict__ start) {
  const int b = static_cast<int>(threadIdx.x);
  if (b > csr_bin_count) return;
  start[b] = first_at_least(sorted, vertex_t{0}, n_rows, static_cast<std::uint8_t>(b));
}

}  // namespace

template <class T>
DeviceCsrBins build_csr_bins(const DeviceCsr<T>& a, cudaStream_t stream) {
  DeviceCsrBins s;
  const vertex_t n = a.n_rows();
  if (n == 0) return s;
  DeviceArray<std::uint8_t> bin(n), sorted(n);
  DeviceArray<vertex_t> ids(n), start(csr_bin_count + 1);
  s.rows = DeviceArray<vertex_t>(n);
  row_bins<<<detail::blocks_for(n), detail::build_block, 0, stream>>>(a.row_ptr().data(), n,
                                                                      bin.data(), ids.data());
  detail::check_launch();
  // Seven bins: three bits. Radix sort is stable: a bin's rows stay ascending.
  constexpr int end_bit = 3;
  std::size_t bytes = 0;
  GRAPHRUN_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
      nullptr, bytes, bin.data(), sorted.data(), ids.data(), s.rows.data(), n, 0, end_bit, stream));
  {
    DeviceBuffer tmp(bytes);
    GRAPHRUN_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(tmp.data(), bytes, bin.data(),
                                                        sorted.data(), ids.data(), s.rows.data(), n,
                                                        0, end_bit, stream));
    bin_starts<<<1, 32, 0, stream>>>(sorted.data(), n, start.data());
    detail::check_launch();
    GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(s.start.data(), start.data(),
                                        sizeof(vertex_t) * s.start.size(), cudaMemcpyDeviceToHost,
                                        stream));
    GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  return s;
}

template DeviceCsrBins build_csr_bins(const DeviceCsr<float>&, cudaStream_t);
template DeviceCsrBins build_csr_bins(const DeviceCsr<double>&, cudaStream_t);

}  // namespace graphrun::cuda
