// Aᵀ of a device CSR, built on the device: the transpose PageRank and BFS
// pull through, without building it on the host and uploading it (at 10⁸
// edges and more, the host transpose and its upload were most of a GPU run's
// set-up).
//
// A stable radix sort of the entries by column (CUB; entry indices as the
// values) puts each column's entries in entry order, which is row order:
// the transpose's rows come out with sorted columns, as Csr<T>::transpose
// gives them, and the result is the same array for array. Row pointers come
// from per-column counts (atomics: the counts, not their order, matter) and
// a scan. Temporary memory: about 24 bytes per entry besides the result.
#include <algorithm>
#include <bit>
#include <cub/device/device_radix_sort.cuh>

#include "format_util.cuh"
#include "graphrun/engine/device_csr.hpp"

namespace graphrun {

namespace {

using cuda::detail::blocks_for;
using cuda::detail::build_block;
using cuda::detail::check_launch;

// For every entry k: counts[its column] += 1, row_of[k] = its row (the last
// row i with row_ptr[i] <= k, by binary search, so that one long row is
// spread over many threads), entry[k] = k (what the sort carries).
__global__ void count_columns(offset_t nnz, vertex_t n_rows, const offset_t* __restrict__ row_ptr,
                              const vertex_t* __restrict__ col_idx, offset_t* counts,
                              vertex_t* __restrict__ row_of, offset_t* __restrict__ entry) {
  for (offset_t k = blockIdx.x * offset_t{blockDim.x} + threadIdx.x; k < nnz;
       k += offset_t{gridDim.x} * blockDim.x) {
    vertex_t lo = 0, hi = n_rows;  // row_ptr[lo] <= k < row_ptr[hi]
    while (hi - lo > 1) {
      const vertex_t mid = lo + (hi - lo) / 2;
      if (row_ptr[mid] <= k)
        lo = mid;
      else
        hi = mid;
    }
    row_of[k] = lo;
    entry[k] = k;
    atomicAdd(reinterpret_cast<unsigned long long*>(counts + col_idx[k]), 1ull);
  }
}

// The transpose's column k is the row of the k-th entry in column order;
// its value, that entry's.
template <class T>
__global__ void gather_entries(offset_t nnz, const offset_t* __restrict__ order,
                               const vertex_t* __restrict__ row_of, const T* __restrict__ values,
                               vertex_t* __restrict__ col_out, T* __restrict__ values_out) {
  for (offset_t k = blockIdx.x * offset_t{blockDim.x} + threadIdx.x; k < nnz;
       k += offset_t{gridDim.x} * blockDim.x) {
    const offset_t e = order[k];
    col_out[k] = row_of[e];
    if (values) values_out[k] = values[e];
  }
}

}  // namespace

template <class T>
DeviceCsr<T> device_transpose(const DeviceCsr<T>& a, CUstream_st* stream) {
  const offset_t nnz = a.nnz();
  const vertex_t n_rows = a.n_rows(), n_cols = a.n_cols();
#if CUB_VERSION < 200600
  // CUB before 2.6 counts a sort's items in an int.
  if (nnz > offset_t{0x7fffffff}) throw SizeError("device transpose: more than 2^31 - 1 entries");
#endif
  DeviceArray<offset_t> row_ptr(static_cast<std::size_t>(n_cols) + 1);
  DeviceArray<offset_t> counts(static_cast<std::size_t>(n_cols) + 1);
  GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(counts.data(), 0, counts.size() * sizeof(offset_t), stream));
  DeviceArray<vertex_t> col_idx(static_cast<std::size_t>(nnz));
  DeviceArray<T> values(a.is_pattern() ? 0 : static_cast<std::size_t>(nnz));
  if (nnz > 0) {
    DeviceArray<vertex_t> row_of(static_cast<std::size_t>(nnz));
    DeviceArray<offset_t> entry(static_cast<std::size_t>(nnz)),
        order(static_cast<std::size_t>(nnz));
    DeviceArray<vertex_t> sorted_cols(static_cast<std::size_t>(nnz));
    count_columns<<<blocks_for(nnz), build_block, 0, stream>>>(nnz, n_rows, a.row_ptr().data(),
                                                               a.col_idx().data(), counts.data(),
                                                               row_of.data(), entry.data());
    check_launch();
    // Only the bits a column index can have: fewer radix passes.
    const int end_bit =
        std::max(1, static_cast<int>(std::bit_width(static_cast<std::uint32_t>(n_cols))));
    std::size_t bytes = 0;
    GRAPHRUN_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, a.col_idx().data(),
                                                        sorted_cols.data(), entry.data(),
                                                        order.data(), nnz, 0, end_bit, stream));
    DeviceBuffer tmp(bytes);
    GRAPHRUN_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(tmp.data(), bytes, a.col_idx().data(),
                                                        sorted_cols.data(), entry.data(),
                                                        order.data(), nnz, 0, end_bit, stream));
    gather_entries<T><<<blocks_for(nnz), build_block, 0, stream>>>(
        nnz, order.data(), row_of.data(), a.is_pattern() ? nullptr : a.values().data(),
        col_idx.data(), values.data());
    check_launch();
  }
  cuda::detail::exclusive_sum(counts.data(), row_ptr.data(), offset_t{n_cols} + 1, stream);
  // The temporaries are freed when this returns: finish with them first.
  GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
  return DeviceCsr<T>(n_cols, n_rows, std::move(row_ptr), std::move(col_idx), std::move(values));
}

template DeviceCsr<float> device_transpose(const DeviceCsr<float>&, CUstream_st*);
template DeviceCsr<double> device_transpose(const DeviceCsr<double>&, CUstream_st*);

}  // namespace graphrun
