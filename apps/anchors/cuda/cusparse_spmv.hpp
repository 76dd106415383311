// cuSPARSE's CSR SpMV, the GPU anchor of `graphrun bench spmv` and of the
// cuSPARSE PageRank (cusparse_pagerank.hpp). CUDA builds only.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>

#include "graphrun/engine/device_csr.hpp"

namespace graphrun::anchors {

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

}  // namespace graphrun::anchors
