// ELLPACK on the device, built from a DeviceCsr on the device:
//
//   width = the longest row (or the width asked for, see build_ell_part)
//   col_idx[j * n_rows + i], values[j * n_rows + i]   entry j of row i
//
// Column-major so that thread i reading entry j of its row and thread i+1
// reading entry j of theirs touch neighbouring words. Padding slots hold
// column -1 and value 0; a row's entries come first, so a kernel may stop at
// the first -1. values empty for a pattern matrix. The view is the host's
// EllView (engine/formats/ell.hpp) with a 32-bit width, over device pointers.
//
// build_ell refuses (FormatError) a matrix whose padding would exceed
// ell_max_fill (engine/formats/ell.hpp, shared with the host ELL) times its
// entries (one long row would pad every other row to
// its length), or whose width * n_rows overflows (SizeError). Included by
// CUDA sources only.
#pragma once

#include <cuda_runtime_api.h>

#include "graphrun/engine/array_bytes.hpp"
#include "graphrun/engine/cuda/device_layout.hpp"
#include "graphrun/engine/device_csr.hpp"
#include "graphrun/engine/formats/ell.hpp"
#include "graphrun/engine/row_stats.hpp"

namespace graphrun::cuda {

template <class T>
struct DeviceEll : DeviceLayout<T> {
  vertex_t width = 0;
  DeviceArray<vertex_t> col_idx;

  EllView<T, vertex_t> view() const noexcept {
    return {this->n_rows, this->n_cols, width, col_idx.data(), data_or_null(this->values)};
  }
  std::size_t bytes() const noexcept { return bytes_of(col_idx, this->values); }
};

// The whole matrix; `stats` = analyze() of the same matrix (its max_length
// is the width). FormatError past ell_max_fill.
template <class T>
DeviceEll<T> build_ell(const DeviceCsr<T>& a, const RowStats& stats, cudaStream_t stream = nullptr);

// The first `width` entries of every row (no padding limit: HYB's part).
template <class T>
DeviceEll<T> build_ell_part(const DeviceCsr<T>& a, vertex_t width, cudaStream_t stream = nullptr);

}  // namespace graphrun::cuda
