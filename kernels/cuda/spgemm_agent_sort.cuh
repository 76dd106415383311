// The sort step's agent of the GPU SpGEMM: rows whose hash tables live in
// global memory are staged unsorted by numeric_kernel, sorted by a CUB
// segmented sort (the dispatch, spgemm_dispatch.cuh), and copied into C here.
#pragma once

#include <cstdint>

#include "graphrun/engine/types.hpp"

namespace graphrun::cuda::spgemm_detail {

// Number of entries of the j-th row of a list (0 past its end): the input of
// the scan that places the global-memory rows in the staging buffer.
struct ListedRowNnz {
  const vertex_t* rows;
  std::int64_t count;
  const offset_t* c_ptr;
  __host__ __device__ std::int64_t operator()(std::int64_t j) const {
    if (j >= count) return 0;
    const vertex_t r = rows[j];
    return c_ptr[r + 1] - c_ptr[r];
  }
};

// Copies sorted staged rows to their places in C, a block per row.
template <class V>
__global__ void scatter_rows_kernel(const vertex_t* __restrict__ rows, std::int64_t count,
                                    const std::int64_t* __restrict__ stage_off,
                                    const vertex_t* __restrict__ s_col, const V* __restrict__ s_val,
                                    const offset_t* __restrict__ c_ptr,
                                    vertex_t* __restrict__ c_col, V* __restrict__ c_val) {
  for (std::int64_t j = blockIdx.x; j < count; j += gridDim.x) {
    const std::int64_t src = stage_off[j], len = stage_off[j + 1] - src;
    const offset_t dst = c_ptr[rows[j]];
    for (std::int64_t e = threadIdx.x; e < len; e += blockDim.x) {
      c_col[dst + e] = s_col[src + e];
      c_val[dst + e] = s_val[src + e];
    }
  }
}

}  // namespace graphrun::cuda::spgemm_detail
