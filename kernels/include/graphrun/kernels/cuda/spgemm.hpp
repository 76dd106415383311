// SpGEMM on the GPU: C = A ⊕.⊗ B by the hash-based multi-phase algorithm
// (row analysis, grouping by intermediate products, symbolic, numeric).
//
//   DeviceCsr<double> a(host_a), b(host_b);
//   cuda::SpgemmStats stats;
//   DeviceCsr<double> c = cuda::spgemm<PlusTimes<double>>(a, b, &stats);
//
// C has sorted, unique columns per row. Inputs are device-resident; the
// result is too. Memory: one workspace per call from a stream-ordered pool;
// rows are processed in chunks when tables or C do not fit; a product that
// cannot be done throws DeviceError saying why (never a wrong or empty C).
// CUDA builds only.
#pragma once

#include <cstdint>

#include "graphrun/engine/device_csr.hpp"

#if defined(GRAPHRUN_HAVE_CUDA)
#include <cuda_runtime_api.h>

namespace graphrun::cuda {

struct SpgemmStats {
  std::int64_t intermediate_products = 0;  // Σ_i IP(i)
  std::int64_t nnz_c = 0;
  int chunks = 1;
  double analysis_ms = 0, symbolic_ms = 0, numeric_ms = 0, sort_ms = 0;
};

template <class S, class T>
DeviceCsr<typename S::value_type> spgemm(const DeviceCsr<T>& a, const DeviceCsr<T>& b,
                                         SpgemmStats* stats = nullptr,
                                         cudaStream_t stream = nullptr);

}  // namespace graphrun::cuda
#endif  // GRAPHRUN_HAVE_CUDA
