// JDS from CSR on the device: row lengths, a stable CUB radix sort of the
// rows by decreasing length, the diagonal sizes by binary search in the
// sorted lengths, a CUB scan for jd_ptr, and a warp per row scattering its
// entries down the diagonals.
#include <bit>
#include <cub/device/device_radix_sort.cuh>

#include "format_util.cuh"
#include "graphrun/engine/cuda/jds.hpp"

namespace graphrun::cuda {

namespace {

__global__ void row_lengths(const offset_t* __restrict__ row_ptr, vertex_t n_rows,
                            vertex_t* __restrict__ len, vertex_t* __restrict__ ids) {
  const offset_t i = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  if (i >= n_rows) return;
  len[i] = static_cast<vertex_t>(row_ptr[i + 1] - row_ptr[i]);
  ids[i] = static_cast<vertex_t>(i);
}

// count[d] = rows longer than d = the first r with sorted_len[r] <= d
// (sorted_len decreases); count[n_diag] = 0 for the scan's total.
__global__ void diagonal_sizes(const vertex_t* __restrict__ sorted_len, vertex_t n_rows,
                               vertex_t n_diag, offset_t* __restrict__ count) {
  const offset_t d = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  if (d > n_diag) return;
  offset_t lo = 0, hi = n_rows;
  while (lo < hi) {
    const offset_t mid = lo + (hi - lo) / 2;
    if (sorted_len[mid] > d)
      lo = mid + 1;
    else
      hi = mid;
  }
  count[d] = d == n_diag ? 0 : lo;
}

template <class T>
__global__ void fill_jds(const offset_t* __restrict__ row_ptr, const vertex_t* __restrict__ col_idx,
                         const T* __restrict__ values, vertex_t n_rows,
                         const vertex_t* __restrict__ perm, const offset_t* __restrict__ jd_ptr,
                         vertex_t* __restrict__ col_out, T* __restrict__ val_out) {
  const offset_t r = (blockIdx.x * offset_t(blockDim.x) + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (r >= n_rows) return;
  const vertex_t i = perm[r];
  const offset_t begin = row_ptr[i], len = row_ptr[i + 1] - begin;
  for (offset_t d = lane; d < len; d += 32) {
    const offset_t slot = jd_ptr[d] + r;
    col_out[slot] = col_idx[begin + d];
    if (val_out) val_out[slot] = values[begin + d];
  }
}

}  // namespace

template <class T>
DeviceJds<T> build_jds(const DeviceCsr<T>& a, cudaStream_t stream) {
  DeviceJds<T> j;
  const vertex_t n = a.n_rows();
  j.n_rows = n;
  j.n_cols = a.n_cols();
  j.jd_ptr = DeviceArray<offset_t>(1);
  if (n == 0) {
    GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(j.jd_ptr.data(), 0, sizeof(offset_t), stream));
    GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
    return j;
  }
  DeviceArray<vertex_t> len(n), ids(n), sorted_len(n);
  j.perm = DeviceArray<vertex_t>(n);
  row_lengths<<<detail::blocks_for(n), detail::build_block, 0, stream>>>(a.row_ptr().data(), n,
                                                                         len.data(), ids.data());
  detail::check_launch();
  // A row has at most n_cols entries, so lengths fit vertex_t; sort only the
  // bits a length can use. Radix sort is stable: ties keep row order.
  const int end_bit =
      std::max(1, static_cast<int>(std::bit_width(static_cast<std::uint32_t>(a.n_cols()))));
  std::size_t bytes = 0;
  GRAPHRUN_CUDA_CHECK(
      cub::DeviceRadixSort::SortPairsDescending(nullptr, bytes, len.data(), sorted_len.data(),
                                                ids.data(), j.perm.data(), n, 0, end_bit, stream));
  {
    DeviceBuffer tmp(bytes);
    GRAPHRUN_CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(
        tmp.data(), bytes, len.data(), sorted_len.data(), ids.data(), j.perm.data(), n, 0, end_bit,
        stream));
    j.n_diag = detail::read_back(sorted_len.data(), stream);  // the longest row
  }
  DeviceArray<offset_t> count(std::size_t(j.n_diag) + 1);
  j.jd_ptr = DeviceArray<offset_t>(std::size_t(j.n_diag) + 1);
  diagonal_sizes<<<detail::blocks_for(offset_t(j.n_diag) + 1), detail::build_block, 0, stream>>>(
      sorted_len.data(), n, j.n_diag, count.data());
  detail::check_launch();
  detail::exclusive_sum(count.data(), j.jd_ptr.data(), offset_t(j.n_diag) + 1, stream);
  j.col_idx = DeviceArray<vertex_t>(static_cast<std::size_t>(a.nnz()));
  if (!a.is_pattern()) j.values = DeviceArray<T>(static_cast<std::size_t>(a.nnz()));
  if (a.nnz() > 0) {
    fill_jds<<<detail::blocks_for(offset_t(n) * 32), detail::build_block, 0, stream>>>(
        a.row_ptr().data(), a.col_idx().data(), a.is_pattern() ? nullptr : a.values().data(), n,
        j.perm.data(), j.jd_ptr.data(), j.col_idx.data(),
        a.is_pattern() ? nullptr : j.values.data());
    detail::check_launch();
  }
  GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
  return j;
}

template DeviceJds<float> build_jds(const DeviceCsr<float>&, cudaStream_t);
template DeviceJds<double> build_jds(const DeviceCsr<double>&, cudaStream_t);

}  // namespace graphrun::cuda
