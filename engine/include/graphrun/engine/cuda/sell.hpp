// SELL-32-σ on the device (engine/formats/sell.hpp has the layout): the
// rows sorted by decreasing length within windows of σ positions by one
// stable CUB radix sort on (window, length), each slice of 32
// positions padded to its longest row (in each column part), the slices'
// offsets by a CUB scan, then each position's row written down its slice's
// columns. The
// view is the host's SellView over device pointers; FormatError past
// ell_max_fill slots per entry, as on the host. Included by CUDA sources only.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "graphrun/engine/array_bytes.hpp"
#include "graphrun/engine/cuda/device_layout.hpp"
#include "graphrun/engine/device_csr.hpp"
#include "graphrun/engine/formats/sell.hpp"

namespace graphrun::cuda {

template <class T>
struct DeviceSell : DeviceLayout<T> {
  offset_t nnz = 0;
  vertex_t n_parts = 1;  // column parts
  DeviceArray<vertex_t> perm;
  DeviceArray<offset_t> slice_ptr;
  DeviceArray<vertex_t> col_idx;

  vertex_t n_slices() const noexcept {
    return slice_ptr.size() == 0
               ? 0
               : static_cast<vertex_t>((slice_ptr.size() - 1) / static_cast<std::size_t>(n_parts));
  }
  SellView<T> view() const noexcept {
    return {this->n_rows,
            this->n_cols,
            nnz,
            n_slices(),
            perm.data(),
            slice_ptr.data(),
            col_idx.data(),
            data_or_null(this->values),
            n_parts};
  }
  std::size_t bytes() const noexcept { return bytes_of(perm, slice_ptr, col_idx, this->values); }
};

// σ = `window`: a positive multiple of sell_chunk (ArgumentError
// otherwise); the format's own rule is sell_window(analyze(a)). `parts`
// column parts (>= 1), the same arrays as the host's Sell::from_csr; the
// format's own rule is sell_column_parts with l2_cache_bytes().
template <class T>
DeviceSell<T> build_sell(const DeviceCsr<T>& a, vertex_t window, vertex_t parts = 1,
                         cudaStream_t stream = nullptr);

// The current device's L2 in bytes (0 where it cannot be asked).
std::int64_t l2_cache_bytes();

}  // namespace graphrun::cuda
