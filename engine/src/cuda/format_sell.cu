// SELL-32-σ from CSR on the device (engine/cuda/sell.hpp): keys (window,
// decreasing length) sorted stably by a CUB radix sort, each slice's slots
// from its first sorted row (with column parts, its longest in each part,
// each row's part found by a binary search in its sorted columns), a CUB
// scan for the slices' offsets, the fill limit checked before anything is
// allocated for the slots, then a thread per (part, position) writing its
// row down its slice (consecutive lanes, consecutive slots).
#include <bit>
#include <cstdint>
#include <cub/device/device_radix_sort.cuh>

#include "format_util.cuh"
#include "graphrun/engine/cuda/sell.hpp"

namespace graphrun::cuda {

namespace {

constexpr std::uint64_t kLengthBits = 32;
constexpr std::uint64_t kLengthMask = (std::uint64_t{1} << kLengthBits) - 1;

// key(i) = (window of i, longest first): window << 32 | ~length (a length
// past 2^32 - 1, possible only with repeated entries, sorts as that).
__global__ void sell_keys(const offset_t* __restrict__ row_ptr, vertex_t n_rows, vertex_t window,
                          std::uint64_t* __restrict__ key, vertex_t* __restrict__ ids) {
  const offset_t i = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  if (i >= n_rows) return;
  const auto len = static_cast<std::uint64_t>(row_ptr[i + 1] - row_ptr[i]);
  const std::uint64_t clamped = len < kLengthMask ? len : kLengthMask;
  key[i] = (static_cast<std::uint64_t>(i / window) << kLengthBits) | (kLengthMask - clamped);
  ids[i] = static_cast<vertex_t>(i);
}

// slots[p n_slices + s] = 32 × the longest of slice s's rows in part p (with
// one part, its first row); slots[parts n_slices] = 0.
__global__ void slice_slots(const offset_t* __restrict__ row_ptr,
                            const vertex_t* __restrict__ col_idx, const vertex_t* __restrict__ perm,
                            vertex_t n_rows, vertex_t n_cols, vertex_t n_slices, vertex_t parts,
                            offset_t* __restrict__ slots) {
  const offset_t t = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  const offset_t total = offset_t{n_slices} * parts;
  if (t > total) return;
  if (t == total) {
    slots[t] = 0;
    return;
  }
  const auto p = static_cast<vertex_t>(t / n_slices);
  const offset_t s = t % n_slices;
  offset_t width = 0;
  if (parts == 1) {
    const vertex_t i = perm[s * sell_chunk];
    width = row_ptr[i + 1] - row_ptr[i];
  } else {
    const offset_t end = min(offset_t{n_rows}, (s + 1) * sell_chunk);
    for (offset_t r = s * sell_chunk; r < end; ++r) {
      const vertex_t i = perm[r];
      width = max(width, sell_part_entry(row_ptr, col_idx, n_cols, parts, i, p + 1) -
                             sell_part_entry(row_ptr, col_idx, n_cols, parts, i, p));
    }
  }
  slots[t] = offset_t{sell_chunk} * width;
}

// out[0] = the slots of the whole layout, out[1] = the last slice's widths
// summed over the parts (check_sell_fits' two figures).
__global__ void sell_extent(const offset_t* __restrict__ slice_ptr, vertex_t n_slices,
                            vertex_t parts, offset_t* __restrict__ out) {
  offset_t last = 0;
  for (vertex_t p = 0; p < parts; ++p) {
    const offset_t end = offset_t{p + 1} * n_slices;
    last += (slice_ptr[end] - slice_ptr[end - 1]) / sell_chunk;
  }
  out[0] = slice_ptr[offset_t{n_slices} * parts];
  out[1] = last;
}

// A thread per (part, position): the position's row's entries of that part
// written down its slice.
template <class T>
__global__ void fill_sell(const offset_t* __restrict__ row_ptr,
                          const vertex_t* __restrict__ col_idx, const T* __restrict__ values,
                          vertex_t n_rows, vertex_t n_cols, vertex_t n_slices, vertex_t parts,
                          const vertex_t* __restrict__ perm, const offset_t* __restrict__ slice_ptr,
                          vertex_t* __restrict__ col_out, T* __restrict__ val_out) {
  const offset_t t = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  const offset_t positions = offset_t{n_slices} * sell_chunk;
  if (t >= positions * parts) return;
  const auto p = static_cast<vertex_t>(t / positions);
  const offset_t r = t % positions;
  const offset_t s = offset_t{p} * n_slices + r / sell_chunk;
  const offset_t base = slice_ptr[s] + r % sell_chunk;
  const offset_t width = (slice_ptr[s + 1] - slice_ptr[s]) / sell_chunk;
  offset_t begin = 0, len = 0;
  if (r < n_rows) {
    const vertex_t i = perm[r];
    begin = sell_part_entry(row_ptr, col_idx, n_cols, parts, i, p);
    len = sell_part_entry(row_ptr, col_idx, n_cols, parts, i, p + 1) - begin;
  }
  for (offset_t j = 0; j < width; ++j) {
    const offset_t slot = base + j * sell_chunk;
    col_out[slot] = j < len ? col_idx[begin + j] : vertex_t{-1};
    if (val_out) val_out[slot] = j < len ? values[begin + j] : T(0);
  }
}

}  // namespace

template <class T>
DeviceSell<T> build_sell(const DeviceCsr<T>& a, vertex_t window, vertex_t parts,
                         cudaStream_t stream) {
  check_sell_window(window);
  check_sell_parts(parts);
  DeviceSell<T> m;
  const vertex_t n = a.n_rows();
  m.n_rows = n;
  m.n_cols = a.n_cols();
  m.nnz = a.nnz();
  m.n_parts = parts;
  const vertex_t n_slices = sell_slices(n);
  const offset_t part_slices = offset_t{n_slices} * parts;
  m.slice_ptr = DeviceArray<offset_t>(static_cast<std::size_t>(part_slices) + 1);
  if (n == 0) {
    GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(m.slice_ptr.data(), 0, sizeof(offset_t), stream));
    GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
    return m;
  }
  m.perm = DeviceArray<vertex_t>(n);
  {
    DeviceArray<std::uint64_t> key(n), sorted_key(n);
    DeviceArray<vertex_t> ids(n);
    sell_keys<<<detail::blocks_for(n), detail::build_block, 0, stream>>>(
        a.row_ptr().data(), n, window, key.data(), ids.data());
    detail::check_launch();
    const auto windows = static_cast<unsigned>((offset_t(n) + window - 1) / window);
    const int end_bit = static_cast<int>(kLengthBits) + static_cast<int>(std::bit_width(windows));
    std::size_t bytes = 0;
    GRAPHRUN_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, key.data(),
                                                        sorted_key.data(), ids.data(),
                                                        m.perm.data(), n, 0, end_bit, stream));
    DeviceBuffer tmp(bytes);
    GRAPHRUN_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(tmp.data(), bytes, key.data(),
                                                        sorted_key.data(), ids.data(),
                                                        m.perm.data(), n, 0, end_bit, stream));
  }
  {
    DeviceArray<offset_t> slots(static_cast<std::size_t>(part_slices) + 1);
    slice_slots<<<detail::blocks_for(part_slices + 1), detail::build_block, 0, stream>>>(
        a.row_ptr().data(), a.col_idx().data(), m.perm.data(), n, a.n_cols(), n_slices, parts,
        slots.data());
    detail::check_launch();
    detail::exclusive_sum(slots.data(), m.slice_ptr.data(), part_slices + 1, stream);
  }
  DeviceArray<offset_t> extent(2);
  sell_extent<<<1, 1, 0, stream>>>(m.slice_ptr.data(), n_slices, parts, extent.data());
  detail::check_launch();
  offset_t ends[2];  // the slots, the last slice's widths
  GRAPHRUN_CUDA_CHECK(
      cudaMemcpyAsync(ends, extent.data(), sizeof ends, cudaMemcpyDeviceToHost, stream));
  GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
  const offset_t total = ends[0];
  check_sell_fits(total, ends[1], n, a.nnz());
  m.col_idx = DeviceArray<vertex_t>(static_cast<std::size_t>(total));
  if (!a.is_pattern()) m.values = DeviceArray<T>(static_cast<std::size_t>(total));
  fill_sell<<<detail::blocks_for(part_slices * sell_chunk), detail::build_block, 0, stream>>>(
      a.row_ptr().data(), a.col_idx().data(), a.is_pattern() ? nullptr : a.values().data(), n,
      a.n_cols(), n_slices, parts, m.perm.data(), m.slice_ptr.data(), m.col_idx.data(),
      a.is_pattern() ? nullptr : m.values.data());
  detail::check_launch();
  GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
  return m;
}

std::int64_t l2_cache_bytes() {
  int device = 0, bytes = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&bytes, cudaDevAttrL2CacheSize, device) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return bytes;
}

template DeviceSell<float> build_sell(const DeviceCsr<float>&, vertex_t, vertex_t, cudaStream_t);
template DeviceSell<double> build_sell(const DeviceCsr<double>&, vertex_t, vertex_t, cudaStream_t);

}  // namespace graphrun::cuda
