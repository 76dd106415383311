// cuSPARSE's CSR SpMV, the GPU anchor of the SpMV and PageRank benchmarks.
#include <cusparse.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "anchors/cuda/cusparse_spmv.hpp"
#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/error.hpp"

namespace graphrun::anchors {

namespace {

void check(cusparseStatus_t s, const char* call) {
  if (s != CUSPARSE_STATUS_SUCCESS)
    throw DeviceError(std::string(call) + " failed: " + cusparseGetErrorString(s));
}
#define GRAPHRUN_CUSPARSE(call) check((call), #call)

}  // namespace

struct CusparseSpmv::Impl {
  cusparseHandle_t handle = nullptr;
  cusparseSpMatDescr_t mat = nullptr;
  cusparseDnVecDescr_t vx = nullptr, vy = nullptr;
  DeviceArray<std::int32_t> row_ptr32;
  DeviceArray<std::int64_t> col_idx64;
  DeviceArray<double> ones;
  DeviceBuffer buffer;
  double alpha = 1.0, beta = 0.0;

  ~Impl() {
    if (vx) cusparseDestroyDnVec(vx);
    if (vy) cusparseDestroyDnVec(vy);
    if (mat) cusparseDestroySpMat(mat);
    if (handle) cusparseDestroy(handle);
  }
};

CusparseSpmv::CusparseSpmv(const DeviceCsr<double>& a, const double* x, double* y)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  GRAPHRUN_CUSPARSE(cusparseCreate(&m.handle));
  const offset_t nnz = a.nnz();
  const double* values = a.values().data();
  if (a.is_pattern()) {  // cuSPARSE has no pattern matrices: explicit ones
    m.ones = DeviceArray<double>(std::vector<double>(static_cast<std::size_t>(nnz), 1.0));
    values = m.ones.data();
  }
  void* rows = const_cast<offset_t*>(a.row_ptr().data());
  void* cols = const_cast<vertex_t*>(a.col_idx().data());
  cusparseIndexType_t index = CUSPARSE_INDEX_64I;
  if (nnz <= offset_t{0x7fffffff}) {
    // 32-bit offsets and columns, cuSPARSE's common case.
    const std::vector<offset_t> rp = a.row_ptr().download();
    m.row_ptr32 = DeviceArray<std::int32_t>(std::vector<std::int32_t>(rp.begin(), rp.end()));
    rows = m.row_ptr32.data();
    index = CUSPARSE_INDEX_32I;
  } else {
    const std::vector<vertex_t> ci = a.col_idx().download();
    m.col_idx64 = DeviceArray<std::int64_t>(std::vector<std::int64_t>(ci.begin(), ci.end()));
    cols = m.col_idx64.data();
  }
  GRAPHRUN_CUSPARSE(cusparseCreateCsr(&m.mat, a.n_rows(), a.n_cols(), nnz, rows, cols,
                                      const_cast<double*>(values), index, index,
                                      CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  GRAPHRUN_CUSPARSE(cusparseCreateDnVec(&m.vx, a.n_cols(), const_cast<double*>(x), CUDA_R_64F));
  GRAPHRUN_CUSPARSE(cusparseCreateDnVec(&m.vy, a.n_rows(), y, CUDA_R_64F));
  std::size_t bytes = 0;
  GRAPHRUN_CUSPARSE(cusparseSpMV_bufferSize(m.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &m.alpha,
                                            m.mat, m.vx, &m.beta, m.vy, CUDA_R_64F,
                                            CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
  m.buffer = DeviceBuffer(bytes);
#if CUDART_VERSION >= 12050
  // Analysis that later calls reuse (cuSPARSE 12.4+), outside the timing.
  GRAPHRUN_CUSPARSE(cusparseSpMV_preprocess(m.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &m.alpha,
                                            m.mat, m.vx, &m.beta, m.vy, CUDA_R_64F,
                                            CUSPARSE_SPMV_ALG_DEFAULT, m.buffer.data()));
#endif
  GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());
}

CusparseSpmv::~CusparseSpmv() = default;

void CusparseSpmv::run(cudaStream_t stream) {
  Impl& m = *impl_;
  GRAPHRUN_CUSPARSE(cusparseSetStream(m.handle, stream));
  GRAPHRUN_CUSPARSE(cusparseSpMV(m.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &m.alpha, m.mat, m.vx,
                                 &m.beta, m.vy, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT,
                                 m.buffer.data()));
}

}  // namespace graphrun::anchors
