// COO from CSR on the device. Every entry (build_coo): the row index
// written a warp per 32 rows, the columns and values copied whole, and the
// empty rows listed by CUB's select. The row index and empty rows alone
// (build_coo_rows), over the CSR's own columns and values. A tail past
// `skip` entries per row (HYB's): per-row counts, a CUB scan for the output
// offsets, and a warp per row copying its entries (coalesced reads).
#include <thrust/iterator/counting_iterator.h>

#include <cub/device/device_select.cuh>
#include <string>

#include "format_util.cuh"
#include "graphrun/engine/cuda/coo.hpp"
#include "graphrun/engine/error.hpp"

namespace graphrun::cuda {

namespace {

__global__ void tail_counts(const offset_t* __restrict__ row_ptr, vertex_t n_rows, offset_t skip,
                            offset_t* __restrict__ counts) {
  const offset_t i = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  if (i > n_rows) return;
  if (i == n_rows) {
    counts[i] = 0;  // so that the exclusive scan leaves the total at [n_rows]
    return;
  }
  const offset_t len = row_ptr[i + 1] - row_ptr[i];
  counts[i] = len > skip ? len - skip : 0;
}

template <class T>
__global__ void fill_coo_tail(const offset_t* __restrict__ row_ptr,
                              const vertex_t* __restrict__ col_idx, const T* __restrict__ values,
                              vertex_t n_rows, offset_t skip, const offset_t* __restrict__ out_ptr,
                              vertex_t* __restrict__ row_out, vertex_t* __restrict__ col_out,
                              T* __restrict__ val_out) {
  const offset_t warp = (blockIdx.x * offset_t(blockDim.x) + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (warp >= n_rows) return;
  const auto i = static_cast<vertex_t>(warp);
  const offset_t begin = row_ptr[i] + skip, end = row_ptr[i + 1];
  const offset_t out = out_ptr[i] - begin;
  for (offset_t k = begin + lane; k < end; k += 32) {
    row_out[out + k] = i;
    col_out[out + k] = col_idx[k];
    if (values) val_out[out + k] = values[k];
  }
}

// Row i of the CSR is empty: what CUB's select keeps from 0..n-1.
struct EmptyRow {
  const offset_t* row_ptr;
  __device__ bool operator()(vertex_t i) const { return row_ptr[i + 1] == row_ptr[i]; }
};

}  // namespace

template <class T>
DeviceCoo<T> coo_tail(const DeviceCsr<T>& a, offset_t skip, cudaStream_t stream) {
  DeviceCoo<T> c;
  c.n_rows = a.n_rows();
  c.n_cols = a.n_cols();
  const vertex_t n = a.n_rows();
  if (n == 0) return c;
  // skip == 0 keeps every entry: the output offsets are row_ptr itself.
  DeviceArray<offset_t> offsets;
  const offset_t* out_ptr = a.row_ptr().data();
  offset_t total = a.nnz();
  if (skip > 0) {
    DeviceArray<offset_t> counts(std::size_t(n) + 1);
    offsets = DeviceArray<offset_t>(std::size_t(n) + 1);
    tail_counts<<<detail::blocks_for(offset_t(n) + 1), detail::build_block, 0, stream>>>(
        a.row_ptr().data(), n, skip, counts.data());
    detail::check_launch();
    detail::exclusive_sum(counts.data(), offsets.data(), offset_t(n) + 1, stream);
    out_ptr = offsets.data();
    total = detail::read_back(offsets.data() + n, stream);
  }
  c.row_idx = DeviceArray<vertex_t>(static_cast<std::size_t>(total));
  c.col_idx = DeviceArray<vertex_t>(static_cast<std::size_t>(total));
  if (!a.is_pattern()) c.values = DeviceArray<T>(static_cast<std::size_t>(total));
  if (total > 0 && skip == 0) {
    // Every entry: the rows written a warp per 32 rows, the columns and
    // values copied whole (a warp per row copying them took R-MAT 23's
    // transpose, 4.6M rows of 28 entries on average, 1.5-1.8 ms on the H200).
    detail::launch_expand_rows(n, a.row_ptr().data(), c.row_idx.data(), stream);
    GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(c.col_idx.data(), a.col_idx().data(),
                                        sizeof(vertex_t) * static_cast<std::size_t>(total),
                                        cudaMemcpyDeviceToDevice, stream));
    if (!a.is_pattern())
      GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(c.values.data(), a.values().data(),
                                          sizeof(T) * static_cast<std::size_t>(total),
                                          cudaMemcpyDeviceToDevice, stream));
  } else if (total > 0) {
    fill_coo_tail<<<detail::blocks_for(offset_t(n) * 32), detail::build_block, 0, stream>>>(
        a.row_ptr().data(), a.col_idx().data(), a.is_pattern() ? nullptr : a.values().data(), n,
        skip, out_ptr, c.row_idx.data(), c.col_idx.data(),
        a.is_pattern() ? nullptr : c.values.data());
    detail::check_launch();
  }
  GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));  // `offsets` dies here
  return c;
}

namespace {

// The rows of `a` with no entry, ascending: listed once so that every SpMV
// zeroes them with the whole grid (zeroing the rows between two entries
// from the thread of the later one left a long run to one thread:
// web-NotreDame has a run of 5,309 empty rows; a degree ordering puts
// millions last).
template <class T>
DeviceArray<vertex_t> list_empty_rows(const DeviceCsr<T>& a, cudaStream_t stream) {
  const vertex_t n = a.n_rows();
  if (n == 0) return {};
  // Selected into an array of n (the count is known only after), then
  // copied to one of their number.
  DeviceArray<vertex_t> all(static_cast<std::size_t>(n));
  DeviceArray<offset_t> count(1);
  const thrust::counting_iterator<vertex_t> rows(0);
  std::size_t bytes = 0;
  GRAPHRUN_CUDA_CHECK(cub::DeviceSelect::If(nullptr, bytes, rows, all.data(), count.data(), n,
                                            EmptyRow{a.row_ptr().data()}, stream));
  DeviceBuffer tmp(bytes);
  GRAPHRUN_CUDA_CHECK(cub::DeviceSelect::If(tmp.data(), bytes, rows, all.data(), count.data(), n,
                                            EmptyRow{a.row_ptr().data()}, stream));
  const offset_t empty = detail::read_back(count.data(), stream);
  DeviceArray<vertex_t> out(static_cast<std::size_t>(empty));
  if (empty > 0)
    GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(out.data(), all.data(),
                                        sizeof(vertex_t) * static_cast<std::size_t>(empty),
                                        cudaMemcpyDeviceToDevice, stream));
  GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));  // `all` and `tmp` die here
  return out;
}

}  // namespace

template <class T>
DeviceCoo<T> build_coo(const DeviceCsr<T>& a, cudaStream_t stream) {
  DeviceCoo<T> c = coo_tail(a, 0, stream);
  c.empty_rows = list_empty_rows(a, stream);
  return c;
}

template <class T>
DeviceCooRows build_coo_rows(const DeviceCsr<T>& a, DeviceArray<vertex_t> row_of_entry,
                             cudaStream_t stream) {
  DeviceCooRows c;
  if (row_of_entry.size() > 0 || a.nnz() == 0) {
    if (row_of_entry.size() != static_cast<std::size_t>(a.nnz()))
      throw ArgumentError("build_coo_rows: " + std::to_string(row_of_entry.size()) +
                          " rows given for " + std::to_string(a.nnz()) + " entries");
    c.row_idx = std::move(row_of_entry);
  } else {
    c.row_idx = DeviceArray<vertex_t>(static_cast<std::size_t>(a.nnz()));
    detail::launch_expand_rows(a.n_rows(), a.row_ptr().data(), c.row_idx.data(), stream);
  }
  c.empty_rows = list_empty_rows(a, stream);  // waits for the stream
  return c;
}

template DeviceCoo<float> coo_tail(const DeviceCsr<float>&, offset_t, cudaStream_t);
template DeviceCoo<double> coo_tail(const DeviceCsr<double>&, offset_t, cudaStream_t);
template DeviceCoo<float> build_coo(const DeviceCsr<float>&, cudaStream_t);
template DeviceCoo<double> build_coo(const DeviceCsr<double>&, cudaStream_t);
template DeviceCooRows build_coo_rows(const DeviceCsr<float>&, DeviceArray<vertex_t>, cudaStream_t);
template DeviceCooRows build_coo_rows(const DeviceCsr<double>&, DeviceArray<vertex_t>,
                                      cudaStream_t);

}  // namespace graphrun::cuda
