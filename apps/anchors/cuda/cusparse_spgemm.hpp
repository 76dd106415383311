// cuSPARSE's SpGEMM on graphrun's device matrices, the GPU anchor of the
// SpGEMM benchmark and of the experiments: C = A·B by cusparseSpGEMM
// (CUSPARSE_SPGEMM_DEFAULT), the documented workEstimation / compute / copy
// sequence with its buffer-size queries.
//
// cuSPARSE's generic SpGEMM takes 32-bit indices only, so its operands carry
// 32-bit copies of the row pointers (narrowed on the device, O(rows)), and C
// comes out with 32-bit row pointers; a matrix with 2^31 entries or more is
// a DeviceError. Two forms:
//   - on prepared operands (CusparseSpgemmOperand, made once): the product
//     alone, as `graphrun bench spgemm` times it;
//   - on DeviceCsr (64-bit row pointers) on both sides: the narrowing of A's
//     and B's row pointers and the widening of C's happen inside the call
//     and so inside the anchor's time, as the experiments time it.
// Everything the product allocates (work buffers, C) comes from the device's
// stream-ordered pool on `stream`, as graphrun's SpGEMM does. C's columns
// come out sorted within each row. CUDA builds only.
#pragma once

#include <cuda_runtime_api.h>
#include <cusparse.h>

#include <cstdint>

#include "graphrun/engine/device_csr.hpp"

namespace graphrun::anchors {

// One cuSPARSE handle for the calling thread's products (RAII).
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

// m as cuSPARSE's SpGEMM takes it: a descriptor over m's columns and values
// with 32-bit row pointers (a narrowed copy made on `stream`, kept by the
// object). m must carry values and outlive the operand. T: float or double.
template <class T>
class CusparseSpgemmOperand {
 public:
  CusparseSpgemmOperand(const DeviceCsr<T>& m, cudaStream_t stream);
  ~CusparseSpgemmOperand();
  CusparseSpgemmOperand(const CusparseSpgemmOperand&) = delete;
  CusparseSpgemmOperand& operator=(const CusparseSpgemmOperand&) = delete;
  cusparseSpMatDescr_t get() const noexcept { return d_; }
  vertex_t n_rows() const noexcept { return rows_; }
  vertex_t n_cols() const noexcept { return cols_; }

 private:
  vertex_t rows_, cols_;
  DeviceArray<std::int32_t> ptr_;
  cusparseSpMatDescr_t d_ = nullptr;
};

// C as cuSPARSE leaves it, with 32-bit row pointers.
template <class T>
struct CusparseProduct {
  vertex_t n_rows = 0, n_cols = 0;
  offset_t nnz = 0;
  DeviceArray<std::int32_t> row_ptr;
  DeviceArray<vertex_t> col_idx;
  DeviceArray<T> values;
};

// C = A·B over (+, ×) in T on prepared operands.
template <class T>
CusparseProduct<T> cusparse_spgemm(const CusparseHandle& h, const CusparseSpgemmOperand<T>& a,
                                   const CusparseSpgemmOperand<T>& b, cudaStream_t stream);

// C = A·B over (+, ×) in T (float or double); A and B must carry values.
template <class T>
DeviceCsr<T> cusparse_spgemm(const CusparseHandle& h, const DeviceCsr<T>& a, const DeviceCsr<T>& b,
                             cudaStream_t stream);

}  // namespace graphrun::anchors
