// The merge-path partition of CSR (Merrill & Garland, SC'16) on the device.
//
// SpMV over CSR merges two sorted lists: the row ends row_ptr[1..n] and the
// entry indices 0..nnz-1. Consuming an entry adds it to the current row;
// consuming a row end closes the row. The merged list has n_rows + nnz
// items; cutting it into shares of equal length gives every thread block the
// same work whatever the row lengths (one row of a million entries is spread
// over many blocks). Share p starts at diagonal p * share_length, at the
// coordinate (row, entry) with row + entry = diagonal found by binary search
// along the diagonal (graphrun::merge_path_search, the same search the CPU
// partition uses, in engine/formats/merge_path.hpp):
//
//   start_row[p], start_entry[p]   p = 0 .. shares; start `shares` is (n_rows, nnz)
//
// A row split between shares is finished by a carry-out fix-up. The view is
// the host's MergePathView, over device pointers. Included by CUDA sources
// only.
#pragma once

#include <cuda_runtime_api.h>

#include "graphrun/engine/array_bytes.hpp"
#include "graphrun/engine/device_csr.hpp"
#include "graphrun/engine/formats/merge_path.hpp"

namespace graphrun::cuda {

struct DeviceMergePath {
  vertex_t shares = 0;
  offset_t share_length = 0;
  DeviceArray<vertex_t> start_row;
  DeviceArray<offset_t> start_entry;

  // The partition of `a`, the device CSR it was built from.
  template <class T>
  MergePathView<T> view(const CsrView<T>& a) const noexcept {
    return {a, shares, share_length, start_row.data(), start_entry.data()};
  }
  std::size_t bytes() const noexcept { return bytes_of(start_row, start_entry); }
};

// Shares of `share_length` merge items each (the last may be shorter).
template <class T>
DeviceMergePath build_merge_path(const DeviceCsr<T>& a, offset_t share_length,
                                 cudaStream_t stream = nullptr);

}  // namespace graphrun::cuda
