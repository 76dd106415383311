// Vertex orderings and the renumbering of a matrix, on the device: the same
// arrays as vertex_order() and permute() on the host (vertex_order.cpp),
// without the graph leaving the device.
//
// The degree family is one stable radix sort of the vertices by a key of
// their row length, descending (CUB's radix sort is stable in both
// directions, so ties keep input order, as on the host). rcm is a
// breadth-first search with a sort per level on the host's side of the
// bus: the matrix is copied back for it (see device_vertex_order).
//
// permute gathers each new row from its old row (a warp per row, the
// columns renamed on the way), then sorts every row's columns with CUB's
// segmented sort; a caller that transposes next skips that sort, since a
// transpose sorts its rows anyway.
#include <bit>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include "format_util.cuh"
#include "graphrun/engine/device_csr.hpp"

namespace graphrun {

namespace {

using cuda::detail::blocks_for;
using cuda::detail::build_block;
using cuda::detail::check_launch;

__device__ std::uint32_t degree_key(Reorder how, offset_t degree, double mean) {
  switch (how) {
    case Reorder::degree:
      return static_cast<std::uint32_t>(degree);
    case Reorder::hubsort:
      return static_cast<double>(degree) > mean ? static_cast<std::uint32_t>(degree) : 0u;
    case Reorder::dbg:
      return 64u - static_cast<std::uint32_t>(__clzll(static_cast<long long>(degree)));
    default:
      return 0u;
  }
}

__global__ void degree_keys(vertex_t n, const offset_t* __restrict__ row_ptr, Reorder how,
                            double mean, std::uint32_t* __restrict__ key,
                            vertex_t* __restrict__ id) {
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
    key[v] = degree_key(how, row_ptr[v + 1] - row_ptr[v], mean);
    id[v] = v;
  }
}

// length[i] = length of old row order[i]; position[order[i]] = i.
__global__ void new_rows(vertex_t n, const offset_t* __restrict__ row_ptr,
                         const vertex_t* __restrict__ order, offset_t* __restrict__ length,
                         vertex_t* __restrict__ position) {
  for (vertex_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const vertex_t old = order[i];
    length[i] = row_ptr[old + 1] - row_ptr[old];
    position[old] = i;
  }
}

// A warp per new row: its entries are old row order[i]'s, columns renamed.
template <class T>
__global__ void gather_rows(vertex_t n, const offset_t* __restrict__ row_ptr,
                            const vertex_t* __restrict__ col_idx, const T* __restrict__ values,
                            const vertex_t* __restrict__ order,
                            const vertex_t* __restrict__ position,
                            const offset_t* __restrict__ new_ptr, vertex_t* __restrict__ new_col,
                            T* __restrict__ new_val) {
  const int lane = threadIdx.x % 32;
  const offset_t warps = offset_t{gridDim.x} * blockDim.x / 32;
  for (offset_t i = (offset_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32; i < n; i += warps) {
    const vertex_t old = order[i];
    const offset_t from = row_ptr[old], len = row_ptr[old + 1] - from, to = new_ptr[i];
    for (offset_t k = lane; k < len; k += 32) {
      new_col[to + k] = position[col_idx[from + k]];
      if (values) new_val[to + k] = values[from + k];
    }
  }
}

}  // namespace

template <class T>
DeviceArray<vertex_t> device_vertex_order(const DeviceCsr<T>& a, Reorder how, CUstream_st* stream,
                                          bool symmetric) {
  const vertex_t n = a.n_rows();
  if (a.n_cols() != n) throw ArgumentError("vertex ordering: the matrix is not square");
  if (how == Reorder::automatic)
    throw ArgumentError("vertex ordering: 'auto' must be resolved by choose_reorder() first");
  if (how == Reorder::rcm || how == Reorder::rabbit || how == Reorder::none) {
    // The identity is trivial; rcm's level-by-level sort runs on the host
    // (a device version must handle thousands of levels and components
    // without a round trip each to pay off), and so does rabbit's
    // aggregation, whose merges are sequential here.
    GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
    const Csr<T> host(n, n, a.row_ptr().download(), a.col_idx().download(), std::vector<T>());
    return DeviceArray<vertex_t>(
        std::span<const vertex_t>(vertex_order(host.view(), how, symmetric)));
  }
  DeviceArray<std::uint32_t> key(static_cast<std::size_t>(n)),
      sorted_key(static_cast<std::size_t>(n));
  DeviceArray<vertex_t> id(static_cast<std::size_t>(n)), order(static_cast<std::size_t>(n));
  if (n == 0) return order;
  const double mean = static_cast<double>(a.nnz()) / n;
  degree_keys<<<blocks_for(n), build_block, 0, stream>>>(n, a.row_ptr().data(), how, mean,
                                                         key.data(), id.data());
  check_launch();
  // Only the bits a key can have: fewer radix passes.
  const offset_t top = how == Reorder::dbg ? 64 : a.nnz();
  const int end_bit =
      std::max(1, static_cast<int>(std::bit_width(static_cast<std::uint64_t>(top))));
  const int bits = std::min(end_bit, 32);
  std::size_t bytes = 0;
  GRAPHRUN_CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(
      nullptr, bytes, key.data(), sorted_key.data(), id.data(), order.data(), n, 0, bits, stream));
  DeviceBuffer tmp(bytes);
  GRAPHRUN_CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(tmp.data(), bytes, key.data(),
                                                                sorted_key.data(), id.data(),
                                                                order.data(), n, 0, bits, stream));
  GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));  // the temporaries die here
  return order;
}

template <class T>
DeviceCsr<T> device_permute(const DeviceCsr<T>& a, const DeviceArray<vertex_t>& order,
                            bool sort_columns, CUstream_st* stream) {
  const vertex_t n = a.n_rows();
  if (a.n_cols() != n || order.size() != static_cast<std::size_t>(n))
    throw ArgumentError("permute: the matrix must be square and the ordering one per vertex");
  const offset_t nnz = a.nnz();
  DeviceArray<offset_t> length(static_cast<std::size_t>(n) + 1),
      row_ptr(static_cast<std::size_t>(n) + 1);
  DeviceArray<vertex_t> position(static_cast<std::size_t>(n));
  GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(length.data() + n, 0, sizeof(offset_t), stream));
  if (n > 0) {
    new_rows<<<blocks_for(n), build_block, 0, stream>>>(n, a.row_ptr().data(), order.data(),
                                                        length.data(), position.data());
    check_launch();
  }
  cuda::detail::exclusive_sum(length.data(), row_ptr.data(), offset_t{n} + 1, stream);
  DeviceArray<vertex_t> col(static_cast<std::size_t>(nnz));
  DeviceArray<T> val(a.is_pattern() ? 0 : static_cast<std::size_t>(nnz));
  if (nnz > 0) {
    gather_rows<T><<<blocks_for(offset_t{n} * 32), build_block, 0, stream>>>(
        n, a.row_ptr().data(), a.col_idx().data(), a.is_pattern() ? nullptr : a.values().data(),
        order.data(), position.data(), row_ptr.data(), col.data(), val.data());
    check_launch();
  }
  if (sort_columns && nnz > 0) {
    DeviceArray<vertex_t> sorted_col(static_cast<std::size_t>(nnz));
    DeviceArray<T> sorted_val(val.size());
    std::size_t bytes = 0;
    const offset_t* begin = row_ptr.data();
    const offset_t* end = row_ptr.data() + 1;
    if (a.is_pattern()) {
      GRAPHRUN_CUDA_CHECK(cub::DeviceSegmentedSort::SortKeys(
          nullptr, bytes, col.data(), sorted_col.data(), nnz, n, begin, end, stream));
      DeviceBuffer tmp(bytes);
      GRAPHRUN_CUDA_CHECK(cub::DeviceSegmentedSort::SortKeys(
          tmp.data(), bytes, col.data(), sorted_col.data(), nnz, n, begin, end, stream));
      GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
    } else {
      GRAPHRUN_CUDA_CHECK(cub::DeviceSegmentedSort::SortPairs(
          nullptr, bytes, col.data(), sorted_col.data(), val.data(), sorted_val.data(), nnz, n,
          begin, end, stream));
      DeviceBuffer tmp(bytes);
      GRAPHRUN_CUDA_CHECK(cub::DeviceSegmentedSort::SortPairs(
          tmp.data(), bytes, col.data(), sorted_col.data(), val.data(), sorted_val.data(), nnz, n,
          begin, end, stream));
      GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
    }
    col = std::move(sorted_col);
    val = std::move(sorted_val);
  }
  GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));  // `length` and `position` die here
  return DeviceCsr<T>(n, n, std::move(row_ptr), std::move(col), std::move(val));
}

template DeviceArray<vertex_t> device_vertex_order(const DeviceCsr<float>&, Reorder, CUstream_st*,
                                                   bool);
template DeviceArray<vertex_t> device_vertex_order(const DeviceCsr<double>&, Reorder, CUstream_st*,
                                                   bool);
template DeviceCsr<float> device_permute(const DeviceCsr<float>&, const DeviceArray<vertex_t>&,
                                         bool, CUstream_st*);
template DeviceCsr<double> device_permute(const DeviceCsr<double>&, const DeviceArray<vertex_t>&,
                                          bool, CUstream_st*);

}  // namespace graphrun
