// cuSPARSE's SpGEMM on graphrun's device matrices, the anchor of the
// experiments: C = A·B by cusparseSpGEMM (CUSPARSE_SPGEMM_DEFAULT), with
// A, B and C as DeviceCsr (64-bit row pointers) on both sides of the call.
//
// cuSPARSE's generic SpGEMM takes 32-bit indices only, so the call narrows
// A's and B's row pointers into 32-bit copies and widens C's back, O(rows)
// each, inside the call and so inside the anchor's time; a matrix with 2^31
// entries or more is a DeviceError. Everything it allocates (work buffers,
// C) comes from the device's stream-ordered pool on `stream`, as graphrun's
// SpGEMM does. C's columns come out sorted within each row. CUDA builds only.
#pragma once

#include "graphrun/engine/device_csr.hpp"

#if defined(GRAPHRUN_HAVE_CUDA)
#include <cuda_runtime_api.h>
#include <cusparse.h>

namespace graphrun::anchors {

// One cuSPARSE handle for the calling thread's experiments (RAII).
class CusparseHandle {
 public:
  CusparseHandle();
  ~CusparseHandle();
  CusparseHandle(const CusparseHandle&) = delete;
  CusparseHandle& operator=(const CusparseHandle&) = delete;
  cusparseHandle_t get() const noexcept { return h_; }

 private:
  cusparseHandle_t h_ = nullptr;
};

// C = A·B over (+, ×) in T (float or double); A and B must carry values.
template <class T>
DeviceCsr<T> cusparse_spgemm(const CusparseHandle& h, const DeviceCsr<T>& a, const DeviceCsr<T>& b,
                             cudaStream_t stream);

}  // namespace graphrun::anchors
#endif  // GRAPHRUN_HAVE_CUDA
