// JDS (jagged diagonal storage) on the device:
//
//   perm[r]        the row stored r-th: rows by decreasing length, stable
//                  (ties keep row order); rows of length 0 come last
//   n_diag         the longest row
//   jd_ptr[d]      start of diagonal d (n_diag + 1 offsets); diagonal d holds
//                  entry d of permuted rows 0 .. count_d - 1, where count_d =
//                  jd_ptr[d+1] - jd_ptr[d] = the number of rows longer than d
//   col_idx[jd_ptr[d] + r], values[jd_ptr[d] + r]   entry d of row perm[r]
//
// Thread r walks its row down the diagonals; neighbouring threads read
// neighbouring words, and sorting by length keeps a warp's rows alike. Rows
// are sorted by a CUB radix sort on the device. values empty for a pattern
// matrix. The view is the host's JdsView (engine/formats/jds.hpp) with a
// 32-bit diagonal count, over device pointers. Included by CUDA sources only.
#pragma once

#include <cuda_runtime_api.h>

#include "graphrun/engine/array_bytes.hpp"
#include "graphrun/engine/cuda/device_layout.hpp"
#include "graphrun/engine/device_csr.hpp"
#include "graphrun/engine/formats/jds.hpp"

namespace graphrun::cuda {

template <class T>
struct DeviceJds : DeviceLayout<T> {
  vertex_t n_diag = 0;
  DeviceArray<vertex_t> perm;
  DeviceArray<offset_t> jd_ptr;
  DeviceArray<vertex_t> col_idx;

  offset_t nnz() const noexcept { return static_cast<offset_t>(col_idx.size()); }
  JdsView<T, vertex_t> view() const noexcept {
    return {this->n_rows, this->n_cols,  nnz(),          n_diag,
            perm.data(),  jd_ptr.data(), col_idx.data(), data_or_null(this->values)};
  }
  std::size_t bytes() const noexcept { return bytes_of(perm, col_idx, jd_ptr, this->values); }
};

template <class T>
DeviceJds<T> build_jds(const DeviceCsr<T>& a, cudaStream_t stream = nullptr);

}  // namespace graphrun::cuda
