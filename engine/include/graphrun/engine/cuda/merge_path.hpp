// The merge-path partition of CSR (Merrill & Garland, SC'16).
//
// SpMV over CSR merges two sorted lists: the row ends row_ptr[1..n] and the
// entry indices 0..nnz-1. Consuming an entry adds it to the current row;
// consuming a row end closes the row. The merged list has n_rows + nnz
// items; cutting it into shares of equal length gives every thread block the
// same work whatever the row lengths (one row of a million entries is spread
// over many blocks). Share p starts at diagonal p * share_items, at the
// coordinate (row, k) with row + k = diagonal found by binary search along
// the diagonal (graphrun::merge_path_search, the same search the CPU
// partition uses, in engine/formats/merge_path.hpp):
//
//   share_row[p], share_k[p]   p = 0 .. shares; share `shares` is (n_rows, nnz)
//
// A row split between shares is finished by a carry-out fix-up. CUDA builds
// only.
#pragma once

#include "graphrun/engine/device_csr.hpp"
#include "graphrun/engine/formats/merge_path.hpp"

#if defined(GRAPHRUN_HAVE_CUDA)
#include <cuda_runtime_api.h>

namespace graphrun::cuda {

struct MergePathView {
  vertex_t shares = 0;
  offset_t share_items = 0;
  const vertex_t* share_row = nullptr;  // shares + 1
  const offset_t* share_k = nullptr;    // shares + 1
};

struct MergePathPartition {
  vertex_t shares = 0;
  offset_t share_items = 0;
  DeviceArray<vertex_t> share_row;
  DeviceArray<offset_t> share_k;

  MergePathView view() const noexcept {
    return {shares, share_items, share_row.data(), share_k.data()};
  }
  std::size_t bytes() const noexcept {
    return share_row.size() * sizeof(vertex_t) + share_k.size() * sizeof(offset_t);
  }
};

// Shares of `share_items` merge items each (the last may be shorter).
template <class T>
MergePathPartition build_merge_path(const DeviceCsr<T>& a, offset_t share_items,
                                    cudaStream_t stream = nullptr);

}  // namespace graphrun::cuda
#endif  // GRAPHRUN_HAVE_CUDA
