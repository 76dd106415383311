// COO on the device, built from a DeviceCsr on the device (no host round trip
// of the entries):
//
//   row_idx[k], col_idx[k], values[k]   k = 0 .. nnz-1, sorted by (row, col)
//   values empty for a pattern matrix (all entries 1)
//
// The row ids are the "row expansion" of row_ptr: entry k of row i gets i.
// coo_tail() keeps only each row's entries past the first `skip` ones; HYB
// stores that remainder (skip = its ELL width). The view is the host's
// CooView (engine/formats/coo_format.hpp), over device pointers. Included by
// CUDA sources only.
#pragma once

#include <cuda_runtime_api.h>

#include "graphrun/engine/array_bytes.hpp"
#include "graphrun/engine/cuda/device_layout.hpp"
#include "graphrun/engine/device_csr.hpp"
#include "graphrun/engine/formats/coo_format.hpp"

namespace graphrun::cuda {

template <class T>
struct DeviceCoo : DeviceLayout<T> {
  DeviceArray<vertex_t> row_idx;
  DeviceArray<vertex_t> col_idx;
  // The rows with no entry, ascending (build_coo only; empty for a tail).
  DeviceArray<vertex_t> empty_rows;

  offset_t nnz() const noexcept { return static_cast<offset_t>(col_idx.size()); }
  CooView<T> view() const noexcept {
    return {this->n_rows,
            this->n_cols,
            nnz(),
            row_idx.data(),
            col_idx.data(),
            data_or_null(this->values),
            empty_rows.data(),
            static_cast<vertex_t>(empty_rows.size())};
  }
  std::size_t bytes() const noexcept {
    return bytes_of(row_idx, col_idx, empty_rows, this->values);
  }
};

// Every entry of `a`, and the list of its empty rows.
template <class T>
DeviceCoo<T> build_coo(const DeviceCsr<T>& a, cudaStream_t stream = nullptr);

// COO over a device CSR's own columns and values: only the row of every
// entry and the empty rows are stored, and view() borrows the rest from the
// CSR it was built from (which must outlive it). The SpMV operator's COO
// format: copying 131M columns (and values) to sit beside the same arrays
// in the CSR cost R-MAT 23's PageRank set-up ~1 ms and 0.5-1.5 GB.
struct DeviceCooRows {
  DeviceArray<vertex_t> row_idx;
  DeviceArray<vertex_t> empty_rows;

  offset_t nnz() const noexcept { return static_cast<offset_t>(row_idx.size()); }
  template <class T>
  CooView<T> view(const CsrView<T>& a) const noexcept {
    return {a.n_rows,
            a.n_cols,
            a.nnz,
            row_idx.data(),
            a.col_idx,
            a.values,
            empty_rows.data(),
            static_cast<vertex_t>(empty_rows.size())};
  }
  std::size_t bytes() const noexcept { return bytes_of(row_idx, empty_rows); }
};

// The rows of a's entries and its empty rows. `row_of_entry`, when not
// empty, is the row of each entry already at hand (device_transpose hands
// its sorted keys over: they are exactly that), taken instead of written;
// its size must be a.nnz().
template <class T>
DeviceCooRows build_coo_rows(const DeviceCsr<T>& a, DeviceArray<vertex_t> row_of_entry = {},
                             cudaStream_t stream = nullptr);

// The entries of each row past its first `skip` (skip >= 0).
template <class T>
DeviceCoo<T> coo_tail(const DeviceCsr<T>& a, offset_t skip, cudaStream_t stream = nullptr);

}  // namespace graphrun::cuda
