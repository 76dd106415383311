// The GPU half of `graphrun bench spgemm` (spgemm_cuda.hpp): C = A·A (or A·Aᵀ) by graphrun's
// cuda::spgemm beside cuSPARSE's cusparseSpGEMM (CUSPARSE_SPGEMM_DEFAULT).
//
// Both sides are timed from nothing on the device but the inputs to a
// finished, sorted C: for cuSPARSE the whole workEstimation / compute / copy
// sequence with its buffer-size queries, its two work buffers and C
// (anchors/cuda/cusparse_spgemm.hpp, on operands with 32-bit row pointers
// made once, outside the timed region); for graphrun the whole call. cuSPARSE's buffers and C come
// from the same warm stream-ordered pool (cudaMallocAsync on the device's default pool, release
// threshold raised) that graphrun's workspace comes from, so neither side
// pays cudaMalloc inside the timed region. Times are CUDA events on one
// stream around each product, medians of alternating runs after one warm-up
// of each; GFLOP/s counts 2 flops per intermediate product. cuSPARSE's
// generic SpGEMM takes 32-bit indices only: where A or C has 2^31 entries or
// more its cells say so.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "anchors/cuda/cusparse_spgemm.hpp"
#include "bench/cuda/spgemm_cuda.hpp"
#include "graphrun/engine/device_csr.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/kernels/cuda/spgemm.hpp"

namespace graphrun::cli::bench {

namespace {

struct SpgemmBenchOptions {
  int reps = 5;                // timed repetitions (medians)
  bool transpose_b = false;    // A*Aᵀ instead of A*A
  cuda::SpgemmOptions spgemm;  // ours: tuning overrides (--tune)
};

void cuda_ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    cudaGetLastError();
    throw DeviceError(std::string(what) + " failed: " + cudaGetErrorString(e));
  }
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

// a with values for cuSPARSE, which multiplies values: ones for a pattern;
// a itself (no copy) when it has values.
const DeviceCsr<double>& valued(const DeviceCsr<double>& a, const Csr<double>& host,
                                std::unique_ptr<DeviceCsr<double>>& ones) {
  if (!a.is_pattern()) return a;
  ones = std::make_unique<DeviceCsr<double>>(upload_with_values(host.view()));
  return *ones;
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
  std::optional<anchors::CusparseHandle> h;
  std::unique_ptr<DeviceCsr<double>> a_ones, b_ones;
  std::unique_ptr<anchors::CusparseSpgemmOperand<double>> ca, cb;
  std::int64_t cs_nnz = -1;
  if (anchor) {
    h.emplace();
    ca = std::make_unique<anchors::CusparseSpgemmOperand<double>>(valued(da, a, a_ones), s);
    if (o.transpose_b)
      cb = std::make_unique<anchors::CusparseSpgemmOperand<double>>(valued(db, b, b_ones), s);
    try {
      cs_nnz = anchors::cusparse_spgemm(*h, *ca, cb ? *cb : *ca, s).nnz;  // warm-up
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
      t_cs.push_back(event_ms(s, [&] { anchors::cusparse_spgemm(*h, *ca, cb ? *cb : *ca, s); }));
  }
  h.reset();
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

}  // namespace

cuda::SpgemmOptions parse_spgemm_tune(const std::vector<std::string>& tune, cuda::SpgemmOptions o,
                                      bool stochastic) {
  for (const std::string& kv : tune) {
    const auto eq = kv.find('=');
    const std::string key = kv.substr(0, eq);
    long long value = 0;
    // direct-max-bound=0 turns direct rows off; unit-sums, stage-bitmap,
    // balance-entries, batch-b-loads, spa, lane-analysis and copy-by-slots
    // are 0 or 1; every other N is positive.
    const bool flag = key == "unit-sums" || key == "stage-bitmap" || key == "balance-entries" ||
                      key == "batch-b-loads" || key == "spa" || key == "lane-analysis" ||
                      key == "copy-by-slots";
    try {
      std::size_t used = 0;
      if (eq == std::string::npos) throw std::invalid_argument(kv);
      value = std::stoll(kv.substr(eq + 1), &used);
      const bool zero_ok = key == "direct-max-bound" || flag;
      if (used != kv.size() - eq - 1 || value < (zero_ok ? 0 : 1) || (flag && value > 1))
        throw std::invalid_argument(kv);
    } catch (const std::exception&) {
      throw ArgumentError("--tune " + kv +
                          (flag ? ": expected " + key + "=0 or " + key + "=1"
                                : ": expected KEY=N with N a positive whole number" +
                                      std::string(key == "direct-max-bound" ? " or 0" : "")));
    }
    auto narrow = [&](int& field) {
      if (value > (1 << 30)) throw ArgumentError("--tune " + kv + ": too large");
      field = static_cast<int>(value);
    };
    if (key == "dense-words")
      narrow(o.dense_words_per_entry);
    else if (key == "dense-shared-products")
      narrow(o.dense_shared_max_products_per_entry);
    else if (key == "warp-max-ip")
      o.warp_max_ip = value;
    else if (key == "sort-min-ip")
      o.sort_min_ip = value;
    else if (key == "sort-max-ip")
      o.sort_max_ip = value;
    else if (key == "sort-cols-per-product")
      o.sort_cols_per_product = value;
    else if (key == "direct-max-bound") {
      o.direct_max_bound = value;
      o.direct_rows = value > 0;
    } else if (key == "direct-cols-per-bound")
      o.direct_cols_per_bound = value;
    else if (key == "unit-sums") {
      // Fixed-point sums are right only for products and sums in [0, 2).
      if (!stochastic)
        throw ArgumentError("--tune " + kv +
                            ": unit-sums is for experiment mcl only, whose iterand is stochastic");
      o.unit_sums = value == 1;
    } else if (key == "stage-bitmap")
      o.stage_bitmap_rows = value == 1;
    else if (key == "balance-entries")
      o.balance_entries = value == 1;
    else if (key == "batch-b-loads")
      o.batch_b_loads = value == 1;
    else if (key == "spa")
      o.spa_windows = value == 1;
    else if (key == "spa-max-windows")
      narrow(o.spa_max_windows);
    else if (key == "lane-analysis")
      o.lane_analysis = value == 1;
    else if (key == "copy-by-slots")
      o.copy_by_slots = value == 1;
    else
      throw ArgumentError("--tune " + kv +
                          ": unknown key (dense-words, dense-shared-products, warp-max-ip, "
                          "sort-min-ip, sort-max-ip, sort-cols-per-product, direct-max-bound, "
                          "direct-cols-per-bound, unit-sums, stage-bitmap, balance-entries, "
                          "batch-b-loads, spa, spa-max-windows, lane-analysis, copy-by-slots)");
  }
  return o;
}

void run_spgemm_cuda(const BenchOptions& inputs, bool transpose_b, bool deterministic,
                     const std::vector<std::string>& tune) {
  SpgemmBenchOptions gpu;
  gpu.reps = inputs.reps > 0 ? inputs.reps : 5;
  gpu.transpose_b = transpose_b;
  gpu.spgemm = parse_spgemm_tune(tune);
  gpu.spgemm.deterministic = deterministic;
  Table table(spgemm_cuda_columns(), inputs.csv);
  for_each_graph(inputs, [&](const BenchGraph& g) { bench_spgemm_cuda(g, gpu, table); });
  table.finish();
}

}  // namespace graphrun::cli::bench
