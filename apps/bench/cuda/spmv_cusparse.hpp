// The GPU side of `graphrun bench spmv`: cuSPARSE's CSR SpMV as the anchor,
// and timing by CUDA events. CUDA builds only.
#pragma once

#if defined(GRAPHRUN_HAVE_CUDA)
#include <cuda_runtime_api.h>

#include <functional>
#include <memory>

#include "graphrun/engine/device_csr.hpp"

namespace graphrun::cli::bench {

// The median over `reps` calls (after one warm-up) of the GPU time of
// fn(stream), each call bracketed by CUDA events on a stream of its own.
double gpu_median_ms(int reps, const std::function<void(cudaStream_t)>& fn);

// y = A x by cusparseSpMV (CSR, double, the default algorithm). The handle,
// descriptors, index copies (32-bit when nnz fits, as cuSPARSE prefers), the
// all-ones values of a pattern matrix and the external buffer are made here,
// outside any timed loop; run() is the SpMV alone.
class CusparseSpmv {
 public:
  CusparseSpmv(const DeviceCsr<double>& a, const double* x, double* y);
  ~CusparseSpmv();
  CusparseSpmv(const CusparseSpmv&) = delete;
  CusparseSpmv& operator=(const CusparseSpmv&) = delete;
  void run(cudaStream_t stream);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace graphrun::cli::bench
#endif  // GRAPHRUN_HAVE_CUDA
