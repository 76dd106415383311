// See cusparse_spgemm.hpp.
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "anchors/cuda/cusparse_spgemm.hpp"
#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/engine/error.hpp"

namespace graphrun::anchors {

namespace {

void cusparse_ok(cusparseStatus_t s, const char* what) {
  if (s != CUSPARSE_STATUS_SUCCESS)
    throw DeviceError(std::string(what) + " failed: " + cusparseGetErrorString(s));
}

__global__ void narrow(std::int64_t n, const offset_t* in, std::int32_t* out) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x)
    out[i] = static_cast<std::int32_t>(in[i]);
}

__global__ void widen(std::int64_t n, const std::int32_t* in, offset_t* out) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x)
    out[i] = in[i];
}

unsigned blocks(std::int64_t n) {
  return static_cast<unsigned>(std::min<std::int64_t>((n + 255) / 256 + 1, 4096));
}

void check_32bit(offset_t nnz, const char* which) {
  if (nnz > std::numeric_limits<std::int32_t>::max())
    throw DeviceError(std::string("cuSPARSE SpGEMM: ") + which + " has " + std::to_string(nnz) +
                      " entries; its generic SpGEMM takes 32-bit indices only");
}

template <class T>
constexpr cudaDataType value_type() {
  return std::is_same_v<T, float> ? CUDA_R_32F : CUDA_R_64F;
}

}  // namespace

CusparseHandle::CusparseHandle() { cusparse_ok(cusparseCreate(&h_), "cusparseCreate"); }
CusparseHandle::~CusparseHandle() { cusparseDestroy(h_); }

template <class T>
CusparseSpgemmOperand<T>::CusparseSpgemmOperand(const DeviceCsr<T>& m, cudaStream_t s)
    : rows_(m.n_rows()), cols_(m.n_cols()), ptr_(static_cast<std::size_t>(m.n_rows()) + 1, s) {
  check_32bit(m.nnz(), "an input");
  if (m.is_pattern()) throw ArgumentError("cuSPARSE SpGEMM: the inputs need values");
  narrow<<<blocks(m.n_rows() + 1), 256, 0, s>>>(m.n_rows() + 1, m.row_ptr().data(), ptr_.data());
  GRAPHRUN_CUDA_CHECK(cudaGetLastError());
  cusparse_ok(cusparseCreateCsr(&d_, m.n_rows(), m.n_cols(), m.nnz(), ptr_.data(),
                                const_cast<vertex_t*>(m.col_idx().data()),
                                const_cast<T*>(m.values().data()), CUSPARSE_INDEX_32I,
                                CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, value_type<T>()),
              "cusparseCreateCsr");
}

template <class T>
CusparseSpgemmOperand<T>::~CusparseSpgemmOperand() {
  cusparseDestroySpMat(d_);
}

template <class T>
CusparseProduct<T> cusparse_spgemm(const CusparseHandle& handle, const CusparseSpgemmOperand<T>& a,
                                   const CusparseSpgemmOperand<T>& b, cudaStream_t s) {
  cusparseHandle_t h = handle.get();
  cusparse_ok(cusparseSetStream(h, s), "cusparseSetStream");
  const T alpha = 1, beta = 0;
  const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  const auto alg = CUSPARSE_SPGEMM_DEFAULT;
  const auto type = value_type<T>();
  CusparseProduct<T> out;
  out.n_rows = a.n_rows();
  out.n_cols = b.n_cols();
  out.row_ptr = DeviceArray<std::int32_t>(static_cast<std::size_t>(a.n_rows()) + 1, s);
  cusparseSpMatDescr_t c = nullptr;
  cusparseSpGEMMDescr_t d = nullptr;
  cusparse_ok(
      cusparseCreateCsr(&c, a.n_rows(), b.n_cols(), 0, out.row_ptr.data(), nullptr, nullptr,
                        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, type),
      "cusparseCreateCsr(C)");
  struct Guard {
    cusparseSpMatDescr_t& c;
    cusparseSpGEMMDescr_t& d;
    ~Guard() {
      if (d) cusparseSpGEMM_destroyDescr(d);
      if (c) cusparseDestroySpMat(c);
    }
  } guard{c, d};
  cusparse_ok(cusparseSpGEMM_createDescr(&d), "cusparseSpGEMM_createDescr");
  std::size_t bytes1 = 0, bytes2 = 0;
  cusparse_ok(cusparseSpGEMM_workEstimation(h, op, op, &alpha, a.get(), b.get(), &beta, c, type,
                                            alg, d, &bytes1, nullptr),
              "cusparseSpGEMM_workEstimation");
  DeviceBuffer buf1(bytes1, s);
  cusparse_ok(cusparseSpGEMM_workEstimation(h, op, op, &alpha, a.get(), b.get(), &beta, c, type,
                                            alg, d, &bytes1, buf1.data()),
              "cusparseSpGEMM_workEstimation");
  cusparse_ok(cusparseSpGEMM_compute(h, op, op, &alpha, a.get(), b.get(), &beta, c, type, alg, d,
                                     &bytes2, nullptr),
              "cusparseSpGEMM_compute");
  DeviceBuffer buf2(bytes2, s);
  cusparse_ok(cusparseSpGEMM_compute(h, op, op, &alpha, a.get(), b.get(), &beta, c, type, alg, d,
                                     &bytes2, buf2.data()),
              "cusparseSpGEMM_compute");
  std::int64_t rows = 0, cols = 0, nnz = 0;
  cusparse_ok(cusparseSpMatGetSize(c, &rows, &cols, &nnz), "cusparseSpMatGetSize");
  check_32bit(nnz, "the product");
  out.nnz = nnz;
  out.col_idx = DeviceArray<vertex_t>(static_cast<std::size_t>(nnz), s);
  out.values = DeviceArray<T>(static_cast<std::size_t>(nnz), s);
  cusparse_ok(cusparseCsrSetPointers(c, out.row_ptr.data(), out.col_idx.data(), out.values.data()),
              "cusparseCsrSetPointers");
  cusparse_ok(cusparseSpGEMM_copy(h, op, op, &alpha, a.get(), b.get(), &beta, c, type, alg, d),
              "cusparseSpGEMM_copy");
  return out;
}

template <class T>
DeviceCsr<T> cusparse_spgemm(const CusparseHandle& handle, const DeviceCsr<T>& a,
                             const DeviceCsr<T>& b, cudaStream_t s) {
  const CusparseSpgemmOperand<T> da(a, s), db(b, s);
  CusparseProduct<T> c = cusparse_spgemm(handle, da, db, s);
  DeviceArray<offset_t> c_ptr(static_cast<std::size_t>(a.n_rows()) + 1, s);
  widen<<<blocks(a.n_rows() + 1), 256, 0, s>>>(a.n_rows() + 1, c.row_ptr.data(), c_ptr.data());
  GRAPHRUN_CUDA_CHECK(cudaGetLastError());
  return DeviceCsr<T>(a.n_rows(), b.n_cols(), std::move(c_ptr), std::move(c.col_idx),
                      std::move(c.values));
}

template class CusparseSpgemmOperand<float>;
template class CusparseSpgemmOperand<double>;
template CusparseProduct<float> cusparse_spgemm<float>(const CusparseHandle&,
                                                       const CusparseSpgemmOperand<float>&,
                                                       const CusparseSpgemmOperand<float>&,
                                                       cudaStream_t);
template CusparseProduct<double> cusparse_spgemm<double>(const CusparseHandle&,
                                                         const CusparseSpgemmOperand<double>&,
                                                         const CusparseSpgemmOperand<double>&,
                                                         cudaStream_t);
template DeviceCsr<float> cusparse_spgemm<float>(const CusparseHandle&, const DeviceCsr<float>&,
                                                 const DeviceCsr<float>&, cudaStream_t);
template DeviceCsr<double> cusparse_spgemm<double>(const CusparseHandle&, const DeviceCsr<double>&,
                                                   const DeviceCsr<double>&, cudaStream_t);

}  // namespace graphrun::anchors
