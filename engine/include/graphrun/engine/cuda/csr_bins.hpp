// csr-bins on the device (engine/formats/csr_bins.hpp): the CSR's rows
// grouped by bin.
//
//   rows[start[b] .. start[b+1])   the rows of bin b, ascending
//
// The bins' bounds stay on the host: the SpMV launches one grid whose
// blocks are cut into a range per bin (kernels/cuda/spmv_csr_bins.cu).
// Built by a stable CUB radix sort of the rows on their 3-bit bin. Included
// by CUDA sources only.
#pragma once

#include <cuda_runtime_api.h>

#include <array>

#include "graphrun/engine/array_bytes.hpp"
#include "graphrun/engine/device_csr.hpp"
#include "graphrun/engine/formats/csr_bins.hpp"

namespace graphrun::cuda {

struct DeviceCsrBins {
  DeviceArray<vertex_t> rows;
  std::array<vertex_t, csr_bin_count + 1> start{};

  vertex_t bin_rows(int b) const noexcept { return start[b + 1] - start[b]; }
  const vertex_t* bin(int b) const noexcept { return rows.data() + start[b]; }
  std::size_t bytes() const noexcept { return bytes_of(rows); }
};

template <class T>
DeviceCsrBins build_csr_bins(const DeviceCsr<T>& a, cudaStream_t stream = nullptr);

}  // namespace graphrun::cuda
