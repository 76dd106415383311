// The GPU half of `graphrun bench spgemm`: C = A·A (or A·Aᵀ) by graphrun's
// cuda::spgemm beside cuSPARSE's cusparseSpGEMM (CUSPARSE_SPGEMM_DEFAULT).
//
// Both sides are timed from nothing on the device but the inputs to a
// finished, sorted C: for cuSPARSE the whole workEstimation / compute / copy
// sequence with its buffer-size queries, its two work buffers and C; for
// graphrun the whole call. cuSPARSE's buffers and C come from the same warm
// stream-ordered pool (cudaMallocAsync on the device's default pool, release
// threshold raised) that graphrun's workspace comes from, so neither side
// pays cudaMalloc inside the timed region. Times are CUDA events on one
// stream around each product, medians of alternating runs after one warm-up
// of each; GFLOP/s counts 2 flops per intermediate product. cuSPARSE's
// generic SpGEMM takes 32-bit indices only: where A or C has 2^31 entries or
// more its cells say so.
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "graphrun/engine/device_csr.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/kernels/cuda/spgemm.hpp"
#include "spgemm_cuda.hpp"

namespace graphrun::cli::bench {

namespace {

void cuda_ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    cudaGetLastError();
    throw DeviceError(std::string(what) + " failed: " + cudaGetErrorString(e));
  }
}

void cusparse_ok(cusparseStatus_t s, const char* what) {
  if (s != CUSPARSE_STATUS_SUCCESS)
    throw DeviceError(std::string(what) + " failed: " + cusparseGetErrorString(s));
}

cudaMemPool_t warm_default_pool() {
  int device = 0;
  cuda_ok(cudaGetDevice(&device), "cudaGetDevice");
  cudaMemPool_t pool;
  cuda_ok(cudaDeviceGetDefaultMemPool(&pool, device), "cudaDeviceGetDefaultMemPool");
  std::uint64_t keep = ~std::uint64_t{0};
  cuda_ok(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep),
          "cudaMemPoolSetAttribute");
  return pool;
}

// A stream-ordered allocation from the default pool.
class PoolPtr {
 public:
  PoolPtr(std::size_t bytes, cudaStream_t s) : s_(s) {
    if (bytes) cuda_ok(cudaMallocAsync(&p_, bytes, s), "cudaMallocAsync");
  }
  ~PoolPtr() {
    if (p_) cudaFreeAsync(p_, s_);
  }
  PoolPtr(const PoolPtr&) = delete;
  PoolPtr& operator=(const PoolPtr&) = delete;
  void* get() const { return p_; }

 private:
  void* p_ = nullptr;
  cudaStream_t s_;
};

class Stream {
 public:
  Stream() { cuda_ok(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking), "cudaStreamCreate"); }
  ~Stream() { cudaStreamDestroy(s_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_;
};

// Milliseconds between two events recorded on `s` around fn().
template <class Fn>
double event_ms(cudaStream_t s, Fn&& fn) {
  cudaEvent_t a, b;
  cuda_ok(cudaEventCreate(&a), "cudaEventCreate");
  cuda_ok(cudaEventCreate(&b), "cudaEventCreate");
  cuda_ok(cudaEventRecord(a, s), "cudaEventRecord");
  fn();
  cuda_ok(cudaEventRecord(b, s), "cudaEventRecord");
  cuda_ok(cudaEventSynchronize(b), "cudaEventSynchronize");
  float ms = 0;
  cuda_ok(cudaEventElapsedTime(&ms, a, b), "cudaEventElapsedTime");
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return ms;
}

// A matrix as cuSPARSE's SpGEMM takes it: 32-bit offsets and columns,
// values (ones for a pattern).
class CusparseCsr {
 public:
  CusparseCsr(const Csr<double>& a) : rows_(a.n_rows()), cols_(a.n_cols()), nnz_(a.nnz()) {
    std::vector<std::int32_t> ptr(a.row_ptr().begin(), a.row_ptr().end());
    std::vector<double> val = a.is_pattern() ? std::vector<double>(a.nnz(), 1.0) : a.values();
    cuda_ok(cudaMalloc(&ptr_, ptr.size() * sizeof(std::int32_t)), "cudaMalloc");
    cuda_ok(cudaMalloc(&col_, std::max<std::size_t>(1, a.col_idx().size()) * sizeof(std::int32_t)),
            "cudaMalloc");
    cuda_ok(cudaMalloc(&val_, std::max<std::size_t>(1, val.size()) * sizeof(double)), "cudaMalloc");
    cuda_ok(cudaMemcpy(ptr_, ptr.data(), ptr.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice),
            "cudaMemcpy");
    cuda_ok(cudaMemcpy(col_, a.col_idx().data(), a.col_idx().size() * sizeof(std::int32_t),
                       cudaMemcpyHostToDevice),
            "cudaMemcpy");
    cuda_ok(cudaMemcpy(val_, val.data(), val.size() * sizeof(double), cudaMemcpyHostToDevice),
            "cudaMemcpy");
    cusparse_ok(cusparseCreateCsr(&desc_, rows_, cols_, nnz_, ptr_, col_, val_, CUSPARSE_INDEX_32I,
                                  CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
                "cusparseCreateCsr");
  }
  ~CusparseCsr() {
    cusparseDestroySpMat(desc_);
    cudaFree(ptr_);
    cudaFree(col_);
    cudaFree(val_);
  }
  CusparseCsr(const CusparseCsr&) = delete;
  CusparseCsr& operator=(const CusparseCsr&) = delete;
  cusparseSpMatDescr_t desc() const { return desc_; }
  std::int64_t rows() const { return rows_; }
  std::int64_t cols() const { return cols_; }

 private:
  std::int64_t rows_, cols_, nnz_;
  void* ptr_ = nullptr;
  void* col_ = nullptr;
  void* val_ = nullptr;
  cusparseSpMatDescr_t desc_ = nullptr;
};

// C = A·B by the documented cusparseSpGEMM sequence, everything it needs
// allocated from the pool inside; returns nnz(C).
std::int64_t cusparse_spgemm(cusparseHandle_t h, const CusparseCsr& a, const CusparseCsr& b,
                             cudaStream_t s) {
  const double alpha = 1.0, beta = 0.0;
  const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  const auto alg = CUSPARSE_SPGEMM_DEFAULT;
  PoolPtr c_ptr(static_cast<std::size_t>(a.rows() + 1) * sizeof(std::int32_t), s);
  cusparseSpMatDescr_t c = nullptr;
  cusparseSpGEMMDescr_t d = nullptr;
  cusparse_ok(cusparseCreateCsr(&c, a.rows(), b.cols(), 0, c_ptr.get(), nullptr, nullptr,
                                CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                CUDA_R_64F),
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
  cusparse_ok(cusparseSpGEMM_workEstimation(h, op, op, &alpha, a.desc(), b.desc(), &beta, c,
                                            CUDA_R_64F, alg, d, &bytes1, nullptr),
              "cusparseSpGEMM_workEstimation");
  PoolPtr buf1(bytes1, s);
  cusparse_ok(cusparseSpGEMM_workEstimation(h, op, op, &alpha, a.desc(), b.desc(), &beta, c,
                                            CUDA_R_64F, alg, d, &bytes1, buf1.get()),
              "cusparseSpGEMM_workEstimation");
  cusparse_ok(cusparseSpGEMM_compute(h, op, op, &alpha, a.desc(), b.desc(), &beta, c, CUDA_R_64F,
                                     alg, d, &bytes2, nullptr),
              "cusparseSpGEMM_compute");
  PoolPtr buf2(bytes2, s);
  cusparse_ok(cusparseSpGEMM_compute(h, op, op, &alpha, a.desc(), b.desc(), &beta, c, CUDA_R_64F,
                                     alg, d, &bytes2, buf2.get()),
              "cusparseSpGEMM_compute");
  std::int64_t rows = 0, cols = 0, nnz = 0;
  cusparse_ok(cusparseSpMatGetSize(c, &rows, &cols, &nnz), "cusparseSpMatGetSize");
  PoolPtr c_col(static_cast<std::size_t>(nnz) * sizeof(std::int32_t), s);
  PoolPtr c_val(static_cast<std::size_t>(nnz) * sizeof(double), s);
  cusparse_ok(cusparseCsrSetPointers(c, c_ptr.get(), c_col.get(), c_val.get()),
              "cusparseCsrSetPointers");
  cusparse_ok(
      cusparseSpGEMM_copy(h, op, op, &alpha, a.desc(), b.desc(), &beta, c, CUDA_R_64F, alg, d),
      "cusparseSpGEMM_copy");
  return nnz;
}

// Running geometric mean of the speed-ups over the graphs benchmarked so far
// (the driver calls once per graph; the last row's value is the suite's).
struct GeoMean {
  double log_sum = 0;
  int count = 0;
};
GeoMean& geo_mean() {
  static GeoMean g;
  return g;
}

}  // namespace

std::vector<std::string> spgemm_cuda_columns() {
  return {"graph",       "n",           "nnz(A)",         "products",     "nnz(C)",
          "ours ms",     "cuSPARSE ms", "speed-up",       "ours GFLOP/s", "cuSPARSE GFLOP/s",
          "analysis",    "symbolic",    "numeric",        "sort",         "chunks",
          "bitmap rows", "nnz agree",   "geo-mean so far"};
}

void bench_spgemm_cuda(const BenchGraph& g, const SpgemmBenchOptions& o, Table& table) {
  const Csr<double>& a = g.graph.adj();
  const Csr<double>& b = o.transpose_b ? g.graph.transpose() : a;
  const int reps = std::max(1, o.reps);
  warm_default_pool();
  Stream stream;
  const cudaStream_t s = stream.get();

  const DeviceCsr<double> da(a);
  const DeviceCsr<double> db_own = o.transpose_b ? DeviceCsr<double>(b) : DeviceCsr<double>();
  const DeviceCsr<double>& db = o.transpose_b ? db_own : da;
  // C is freed inside the timed region, as cuSPARSE's is.
  auto ours = [&](cuda::SpgemmStats* stats) {
    offset_t nnz = 0;
    const double ms = event_ms(s, [&] {
      const DeviceCsr<double> c = cuda::spgemm<PlusTimes<double>>(da, db, o.spgemm, stats, s);
      nnz = c.nnz();
    });
    return std::pair{ms, nnz};
  };

  const bool fits_32 = a.nnz() < std::numeric_limits<std::int32_t>::max() &&
                       b.nnz() < std::numeric_limits<std::int32_t>::max();
  ours(nullptr);  // warm-up: the first call of a process also loads the kernels
  cuda::SpgemmStats stats;
  const auto [split_ms, nnz_c] = ours(&stats);  // the phase split, from a warm call
  (void)split_ms;
  const bool anchor = fits_32 && nnz_c < std::numeric_limits<std::int32_t>::max();

  std::string anchor_note;
  cusparseHandle_t h = nullptr;
  std::unique_ptr<CusparseCsr> ca, cb;
  std::int64_t cs_nnz = -1;
  if (anchor) {
    cusparse_ok(cusparseCreate(&h), "cusparseCreate");
    cusparse_ok(cusparseSetStream(h, s), "cusparseSetStream");
    ca = std::make_unique<CusparseCsr>(a);
    if (o.transpose_b) cb = std::make_unique<CusparseCsr>(b);
    try {
      cs_nnz = cusparse_spgemm(h, *ca, cb ? *cb : *ca, s);  // warm-up
    } catch (const DeviceError& e) {
      anchor_note = e.what();
    }
  } else {
    anchor_note = "beyond 32-bit indices";
  }

  std::vector<double> t_ours, t_cs;
  for (int r = 0; r < reps; ++r) {
    t_ours.push_back(ours(nullptr).first);
    if (anchor && anchor_note.empty())
      t_cs.push_back(event_ms(s, [&] { cusparse_spgemm(h, *ca, cb ? *cb : *ca, s); }));
  }
  if (h) cusparseDestroy(h);
  cuda_ok(cudaStreamSynchronize(s), "cudaStreamSynchronize");

  const double ms = median(t_ours), cs_ms = median(t_cs);
  const double flops = 2.0 * static_cast<double>(stats.intermediate_products);
  auto gflops = [&](double t) { return t > 0 ? fixed(flops / t / 1e6, 2) : std::string("-"); };
  std::string speedup = "-", agree = "-";
  GeoMean& gm = geo_mean();
  if (cs_ms > 0 && ms > 0) {
    speedup = fixed(cs_ms / ms, 2) + "x";
    gm.log_sum += std::log(cs_ms / ms);
    ++gm.count;
  }
  if (cs_nnz >= 0) agree = cs_nnz == nnz_c ? "yes" : "NO (" + std::to_string(cs_nnz) + ")";
  if (!anchor_note.empty()) agree = "cuSPARSE: " + anchor_note;
  table.row({g.name, std::to_string(a.n_rows()), std::to_string(a.nnz()),
             std::to_string(stats.intermediate_products), std::to_string(nnz_c), fixed(ms, 3),
             cs_ms > 0 ? fixed(cs_ms, 3) : "-", speedup, gflops(ms), gflops(cs_ms),
             fixed(stats.analysis_ms, 3), fixed(stats.symbolic_ms, 3), fixed(stats.numeric_ms, 3),
             fixed(stats.sort_ms, 3), std::to_string(stats.chunks),
             std::to_string(stats.dense_rows), agree,
             gm.count ? fixed(std::exp(gm.log_sum / gm.count), 2) + "x" : "-"});
}

}  // namespace graphrun::cli::bench
