// split_columns (engine/cuda/column_split.hpp): each row's cut by binary
// search, the two parts' row pointers by CUB scans, then a warp per row
// copying its entries to either side, 32 at a time.
#include <string>

#include "format_util.cuh"
#include "graphrun/engine/cuda/column_split.hpp"

namespace graphrun::cuda {

namespace {

// below[i] = row i's entries in columns < cut; below[n] = 0 (the scan's end).
__global__ void entries_below(const offset_t* __restrict__ row_ptr,
                              const vertex_t* __restrict__ col_idx, vertex_t n_rows, vertex_t cut,
                              offset_t* __restrict__ below, offset_t* __restrict__ above) {
  const offset_t i = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  if (i > n_rows) return;
  if (i == n_rows) {
    below[i] = above[i] = 0;
    return;
  }
  offset_t lo = row_ptr[i], hi = row_ptr[i + 1];
  const offset_t end = hi;
  while (lo < hi) {
    const offset_t mid = lo + (hi - lo) / 2;
    if (col_idx[mid] < cut)
      lo = mid + 1;
    else
      hi = mid;
  }
  below[i] = lo - row_ptr[i];
  above[i] = end - lo;
}

template <class T>
__global__ void copy_sides(const offset_t* __restrict__ row_ptr,
                           const vertex_t* __restrict__ col_idx, const T* __restrict__ values,
                           vertex_t n_rows, const offset_t* __restrict__ low_ptr,
                           const offset_t* __restrict__ high_ptr, vertex_t* __restrict__ low_col,
                           T* __restrict__ low_val, vertex_t* __restrict__ high_col,
                           T* __restrict__ high_val) {
  const offset_t i = (blockIdx.x * offset_t(blockDim.x) + threadIdx.x) / 32;
  if (i >= n_rows) return;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const offset_t begin = row_ptr[i], split = begin + (low_ptr[i + 1] - low_ptr[i]);
  for (offset_t k = begin + lane; k < row_ptr[i + 1]; k += 32) {
    const bool low = k < split;
    const offset_t to = low ? low_ptr[i] + (k - begin) : high_ptr[i] + (k - split);
    (low ? low_col : high_col)[to] = col_idx[k];
    if (values) (low ? low_val : high_val)[to] = values[k];
  }
}

}  // namespace

template <class T>
std::pair<DeviceCsr<T>, DeviceCsr<T>> split_columns(const DeviceCsr<T>& a, vertex_t cut,
                                                    cudaStream_t stream) {
  if (cut < 0 || cut > a.n_cols())
    throw ArgumentError("split_columns: cut " + std::to_string(cut) + " outside 0.." +
                        std::to_string(a.n_cols()));
  const vertex_t n = a.n_rows();
  DeviceArray<offset_t> low_ptr(std::size_t(n) + 1), high_ptr(std::size_t(n) + 1);
  {
    DeviceArray<offset_t> below(std::size_t(n) + 1), above(std::size_t(n) + 1);
    entries_below<<<detail::blocks_for(offset_t(n) + 1), detail::build_block, 0, stream>>>(
        a.row_ptr().data(), a.col_idx().data(), n, cut, below.data(), above.data());
    detail::check_launch();
    detail::exclusive_sum(below.data(), low_ptr.data(), offset_t(n) + 1, stream);
    detail::exclusive_sum(above.data(), high_ptr.data(), offset_t(n) + 1, stream);
  }
  const offset_t low_nnz = detail::read_back(low_ptr.data() + n, stream);
  const offset_t high_nnz = a.nnz() - low_nnz;
  DeviceArray<vertex_t> low_col(static_cast<std::size_t>(low_nnz)),
      high_col(static_cast<std::size_t>(high_nnz));
  DeviceArray<T> low_val(a.is_pattern() ? 0 : static_cast<std::size_t>(low_nnz)),
      high_val(a.is_pattern() ? 0 : static_cast<std::size_t>(high_nnz));
  if (n > 0) {
    copy_sides<T><<<detail::blocks_for(offset_t(n) * 32), detail::build_block, 0, stream>>>(
        a.row_ptr().data(), a.col_idx().data(), a.is_pattern() ? nullptr : a.values().data(), n,
        low_ptr.data(), high_ptr.data(), low_col.data(), low_val.data(), high_col.data(),
        high_val.data());
    detail::check_launch();
  }
  GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
  return {
      DeviceCsr<T>(n, a.n_cols(), std::move(low_ptr), std::move(low_col), std::move(low_val)),
      DeviceCsr<T>(n, a.n_cols(), std::move(high_ptr), std::move(high_col), std::move(high_val))};
}

template std::pair<DeviceCsr<float>, DeviceCsr<float>> split_columns(const DeviceCsr<float>&,
                                                                     vertex_t, cudaStream_t);
template std::pair<DeviceCsr<double>, DeviceCsr<double>> split_columns(const DeviceCsr<double>&,
                                                                       vertex_t, cudaStream_t);

}  // namespace graphrun::cuda
