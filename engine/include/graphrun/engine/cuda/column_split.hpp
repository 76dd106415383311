// A device CSR cut by columns into two: the entries of columns below `cut`
// and the rest, each a CSR of all the rows (column ids unchanged). csr-bins
// runs the two as a hot part and a cold part where x is past the L2 and the
// columns are numbered hubs first (kernels/cuda/spmv_launch.cuh): the hubs'
// gathers then hit the L2 in a pass of their own instead of sharing it with
// the gathers that miss it anyway. Included by CUDA sources only.
#pragma once

#include <cuda_runtime_api.h>

#include <utility>

#include "graphrun/engine/device_csr.hpp"

namespace graphrun::cuda {

// {a's columns [0, cut), a's columns [cut, n_cols)}: a's columns are sorted
// within each row, so each row's cut is one binary search; a warp per row
// copies. ArgumentError unless 0 <= cut <= n_cols.
template <class T>
std::pair<DeviceCsr<T>, DeviceCsr<T>> split_columns(const DeviceCsr<T>& a, vertex_t cut,
                                                    cudaStream_t stream = nullptr);

}  // namespace graphrun::cuda
