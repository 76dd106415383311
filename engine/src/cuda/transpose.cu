// Aᵀ of a device CSR, built on the device: the transpose PageRank and BFS
// pull through, without building it on the host and uploading it (at 10⁸
// edges and more, the host transpose and its upload were most of a GPU run's
// set-up).
//
// A stable radix sort of the entries by column (CUB) puts each column's
// entries in entry order, which is row order: the transpose's rows come out
// with sorted columns, as Csr<T>::transpose gives them, and the result is the
// same array for array, whatever the order of the columns within A's rows.
// What the sort carries is the entry's row (a pattern matrix: the sorted
// values are the transpose's columns, nothing to gather) or, with values,
// the entry's index (32 bits where nnz allows), from which a gather takes
// the row and the value. The row of every entry is written by the warp that
// holds its row, not searched for entry by entry; the row pointers come from
// where each column's run begins in the sorted columns, so nothing is
// counted with atomics (a hub column's counter was a hot spot).
//
// Memory: the sort ping-pongs between two key and two value arrays, one of
// them the result's columns: 16 bytes per entry with the result for a
// pattern matrix; with values, 24 bytes per entry and the values (32 with a
// 64-bit entry index). The count-sort-gather this replaced took 36 bytes per
// entry besides the result, and twice the time (R-MAT 23 on the H200:
// ~12 ms, now ~7).
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cub/device/device_radix_sort.cuh>
#include <limits>
#include <utility>

#include "format_util.cuh"
#include "graphrun/engine/cuda/step_trace.hpp"
#include "graphrun/engine/device_csr.hpp"
#include "graphrun/engine/first_at_least.hpp"

namespace graphrun {

namespace {

using cuda::detail::blocks_for;
using cuda::detail::build_block;
using cuda::detail::check_launch;

template <class E>
__global__ void entry_indices(offset_t nnz, E* __restrict__ out) {
  for (offset_t k = blockIdx.x * offset_t{blockDim.x} + threadIdx.x; k < nnz;
       k += offset_t{gridDim.x} * blockDim.x)
    out[k] = static_cast<E>(k);
}

// row_ptr[c] = the first k with sorted[k] >= c, for c = 0..n_cols, in two
// steps (row_ptr was filled with kUnset): the entry that begins a column's
// run writes its pointer, and those of up to kGapFill empty columns just
// before it (the last entry, of the empty columns after it); then every
// column left unset, one inside a longer gap, searches for its place. No
// thread walks a long gap of empty columns alone, and only the columns in
// long gaps search (R-MAT 23: 2.3 million empty columns of 4.6 million;
// the second pass takes 16 us on the H200).
constexpr offset_t kUnset = ~offset_t{0};
constexpr vertex_t kGapFill = 64;

// The entry k of column c (the entry before it of column `before`).
__device__ __forceinline__ void mark_entry(offset_t k, vertex_t c, vertex_t before, offset_t nnz,
                                           vertex_t n_cols, offset_t* __restrict__ row_ptr) {
  if (before != c) {
    row_ptr[c] = k;
    for (vertex_t q = c - 1; q > before && q >= c - kGapFill; --q) row_ptr[q] = k;
  }
  if (k == nnz - 1)
    for (offset_t q = offset_t{c} + 1; q <= offset_t{n_cols} && q <= offset_t{c} + kGapFill; ++q)
      row_ptr[q] = nnz;
}

// Four entries a thread, read as one int4 (one entry a thread took 0.46 ms
// over R-MAT 23's 131M entries on the H200, four take 0.21 ms). `sorted` is
// a device allocation, aligned for int4.
__global__ void mark_column_starts(offset_t nnz, vertex_t n_cols,
                                   const vertex_t* __restrict__ sorted,
                                   offset_t* __restrict__ row_ptr) {
  const offset_t groups = nnz / 4;
  const auto* quads = reinterpret_cast<const int4*>(sorted);
  const offset_t first = blockIdx.x * offset_t{blockDim.x} + threadIdx.x;
  for (offset_t g = first; g < groups; g += offset_t{gridDim.x} * blockDim.x) {
    const int4 v = quads[g];
    const offset_t k = 4 * g;
    mark_entry(k, v.x, k == 0 ? vertex_t{-1} : sorted[k - 1], nnz, n_cols, row_ptr);
    mark_entry(k + 1, v.y, v.x, nnz, n_cols, row_ptr);
    mark_entry(k + 2, v.z, v.y, nnz, n_cols, row_ptr);
    mark_entry(k + 3, v.w, v.z, nnz, n_cols, row_ptr);
  }
  if (first < nnz % 4) {  // the last nnz % 4 entries
    const offset_t k = 4 * groups + first;
    mark_entry(k, sorted[k], k == 0 ? vertex_t{-1} : sorted[k - 1], nnz, n_cols, row_ptr);
  }
}

__global__ void fill_empty_columns(offset_t nnz, vertex_t n_cols,
                                   const vertex_t* __restrict__ sorted,
                                   offset_t* __restrict__ row_ptr) {
  for (offset_t c = blockIdx.x * offset_t{blockDim.x} + threadIdx.x; c <= offset_t{n_cols};
       c += offset_t{gridDim.x} * blockDim.x)
    if (row_ptr[c] == kUnset) row_ptr[c] = first_at_least(sorted, offset_t{0}, nnz, c);
}

// The transpose's column k is the row of the k-th entry in column order;
// its value, that entry's.
template <class T, class E>
__global__ void gather_entries(offset_t nnz, const E* __restrict__ order,
                               const vertex_t* __restrict__ row_of, const T* __restrict__ values,
                               vertex_t* __restrict__ col_out, T* __restrict__ values_out) {
  for (offset_t k = blockIdx.x * offset_t{blockDim.x} + threadIdx.x; k < nnz;
       k += offset_t{gridDim.x} * blockDim.x) {
    const offset_t e = order[k];
    col_out[k] = row_of[e];
    values_out[k] = values[e];
  }
}

// Stable sort of (column, carried) pairs by column, ping-ponging between
// the two buffers of each; returns which buffer (0 or 1) holds the result.
template <class V>
int sort_by_column(offset_t nnz, vertex_t n_cols, vertex_t* keys[2], V* vals[2],
                   cudaStream_t stream) {
  // Only the bits a column index can have: fewer radix passes.
  const int end_bit =
      std::max(1, static_cast<int>(std::bit_width(static_cast<std::uint32_t>(n_cols))));
  cub::DoubleBuffer<vertex_t> dk(keys[0], keys[1]);
  cub::DoubleBuffer<V> dv(vals[0], vals[1]);
  std::size_t bytes = 0;
  GRAPHRUN_CUDA_CHECK(
      cub::DeviceRadixSort::SortPairs(nullptr, bytes, dk, dv, nnz, 0, end_bit, stream));
  DeviceBuffer tmp(bytes);
  GRAPHRUN_CUDA_CHECK(
      cub::DeviceRadixSort::SortPairs(tmp.data(), bytes, dk, dv, nnz, 0, end_bit, stream));
  // Keys and values travel together: both end in the same buffer.
  return dk.selector;
}

template <class T, class E>
void transpose_valued(const DeviceCsr<T>& a, DeviceArray<vertex_t>& sorted_cols,
                      DeviceArray<vertex_t>& col_out, DeviceArray<T>& values_out,
                      cudaStream_t stream) {
  const offset_t nnz = a.nnz();
  DeviceArray<vertex_t> other_keys(static_cast<std::size_t>(nnz));
  DeviceArray<E> entry(static_cast<std::size_t>(nnz)), other_entry(static_cast<std::size_t>(nnz));
  GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(sorted_cols.data(), a.col_idx().data(),
                                      sizeof(vertex_t) * nnz, cudaMemcpyDeviceToDevice, stream));
  entry_indices<E><<<blocks_for(nnz), build_block, 0, stream>>>(nnz, entry.data());
  check_launch();
  vertex_t* keys[2] = {sorted_cols.data(), other_keys.data()};
  E* vals[2] = {entry.data(), other_entry.data()};
  const int at = sort_by_column<E>(nnz, a.n_cols(), keys, vals, stream);
  if (at == 1) std::swap(sorted_cols, other_keys);
  // The rows of the entries, into the key buffer the sort left free.
  cuda::detail::launch_expand_rows(a.n_rows(), a.row_ptr().data(), other_keys.data(), stream);
  gather_entries<T, E><<<blocks_for(nnz), build_block, 0, stream>>>(
      nnz, vals[at], other_keys.data(), a.values().data(), col_out.data(), values_out.data());
  check_launch();
}

}  // namespace

template <class T>
DeviceCsr<T> device_transpose(const DeviceCsr<T>& a, CUstream_st* stream,
                              DeviceArray<vertex_t>* row_of_entry) {
  const offset_t nnz = a.nnz();
  const vertex_t n_cols = a.n_cols();
#if CUB_VERSION < 200600
  // CUB before 2.6 counts a sort's items in an int.
  if (nnz > offset_t{0x7fffffff}) throw SizeError("device transpose: more than 2^31 - 1 entries");
#endif
  DeviceArray<offset_t> row_ptr(static_cast<std::size_t>(n_cols) + 1);
  DeviceArray<vertex_t> col_idx(static_cast<std::size_t>(nnz));
  DeviceArray<T> values(a.is_pattern() ? 0 : static_cast<std::size_t>(nnz));
  if (nnz == 0) {
    GRAPHRUN_CUDA_CHECK(
        cudaMemsetAsync(row_ptr.data(), 0, sizeof(offset_t) * row_ptr.size(), stream));
    if (row_of_entry != nullptr) *row_of_entry = DeviceArray<vertex_t>();
  } else {
    cuda::StepTrace trace("transpose");  // with GRAPHRUN_TRACE, the pattern transpose's parts
    DeviceArray<vertex_t> sorted_cols(static_cast<std::size_t>(nnz));
    if (a.is_pattern()) {
      // The sort carries each entry's row: the sorted values are the
      // transpose's columns. A's columns are copied into the first key
      // buffer (the sort writes over both).
      DeviceArray<vertex_t> other_keys(static_cast<std::size_t>(nnz));
      DeviceArray<vertex_t> rows(static_cast<std::size_t>(nnz));
      trace.step("buffers");
      cuda::detail::launch_expand_rows(a.n_rows(), a.row_ptr().data(), rows.data(), stream);
      GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(sorted_cols.data(), a.col_idx().data(),
                                          sizeof(vertex_t) * nnz, cudaMemcpyDeviceToDevice,
                                          stream));
      trace.step("rows and columns");
      vertex_t* keys[2] = {sorted_cols.data(), other_keys.data()};
      vertex_t* vals[2] = {rows.data(), col_idx.data()};
      const int at = sort_by_column<vertex_t>(nnz, n_cols, keys, vals, stream);
      trace.step("sort");
      if (at == 1) {
        std::swap(sorted_cols, other_keys);
      } else {
        std::swap(col_idx, rows);
      }
    } else if (nnz <= offset_t{std::numeric_limits<std::uint32_t>::max()}) {
      transpose_valued<T, std::uint32_t>(a, sorted_cols, col_idx, values, stream);
    } else {
      transpose_valued<T, offset_t>(a, sorted_cols, col_idx, values, stream);
    }
    GRAPHRUN_CUDA_CHECK(
        cudaMemsetAsync(row_ptr.data(), 0xff, sizeof(offset_t) * row_ptr.size(), stream));
    static_assert(sizeof(int4) == 4 * sizeof(vertex_t));
    mark_column_starts<<<blocks_for(nnz / 4 + 1), build_block, 0, stream>>>(
        nnz, n_cols, sorted_cols.data(), row_ptr.data());
    check_launch();
    fill_empty_columns<<<blocks_for(offset_t{n_cols} + 1), build_block, 0, stream>>>(
        nnz, n_cols, sorted_cols.data(), row_ptr.data());
    check_launch();
    // The temporaries are freed when this returns: finish with them first.
    GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
    trace.step("row pointers");
    // The sorted columns of A are the rows of Aᵀ's entries.
    if (row_of_entry != nullptr) *row_of_entry = std::move(sorted_cols);
  }
  return DeviceCsr<T>(n_cols, a.n_rows(), std::move(row_ptr), std::move(col_idx),
                      std::move(values));
}

template DeviceCsr<float> device_transpose(const DeviceCsr<float>&, CUstream_st*,
                                           DeviceArray<vertex_t>*);
template DeviceCsr<double> device_transpose(const DeviceCsr<double>&, CUstream_st*,
                                            DeviceArray<vertex_t>*);

}  // namespace graphrun
