// graphrun bench spgemm: C = A·A (A·Aᵀ with --transpose-b) for every graph,
// graphrun's hash-based multi-phase SpGEMM beside SuiteSparse:GraphBLAS
// GrB_mxm (PLUS_TIMES_FP64, same thread count) on the CPU, or beside
// cuSPARSE on the GPU (bench/cuda/spgemm_cuda.*).
//
// A is the graph's adjacency as loaded, in double (an unweighted graph: all
// ones). Both sides build a sorted CSR C from scratch in the timed region;
// GraphBLAS's C is kept sparse (GxB_SPARSE) and materialized
// (GrB_Matrix_wait), so that it is not left unsorted or pending. The two
// sides alternate rep by rep (a noisy machine slows both alike) and the table
// shows medians; GFLOP/s counts 2 flops per intermediate product. The last
// row is the geometric mean of the speed-ups.
//
// --suite DIR runs every graph file under DIR, then R-MAT scales 16-18 (edge
// factor 16; --rmat-scales changes them): the bench-wide generated suite
// (R-MAT 20 and 22, ...) is far beyond what A·A can do in memory.
#include "graphrun/kernels/spgemm.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "anchors/graphblas.hpp"
#include "bench.hpp"
#include "cuda/spgemm_cuda.hpp"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/stopwatch.hpp"

namespace graphrun::cli::bench {

namespace {

struct SpgemmBenchArgs {
  BenchOptions bench;
  bool transpose_b = false;
  std::vector<int> rmat_scales = {16, 17, 18};  // the generated part of --suite
  std::vector<std::string> tune;                // KEY=VALUE overrides of the GPU tuning
  bool deterministic = false;                   // GPU: SpgemmOptions::deterministic
};

#if defined(GRAPHRUN_HAVE_GRAPHBLAS)

struct GrbMatrix {
  GrB_Matrix m = nullptr;
  GrbMatrix() = default;
  GrbMatrix(const GrbMatrix&) = delete;
  GrbMatrix& operator=(const GrbMatrix&) = delete;
  ~GrbMatrix() {
    if (m) GrB_Matrix_free(&m);
  }
};

// A copy of a as a GraphBLAS matrix, materialized before any timing.
void to_graphblas(const Csr<double>& a, GrbMatrix& out) {
  out.m = anchors::grb_matrix(a);
  anchors::grb_check(GrB_Matrix_wait(out.m, GrB_MATERIALIZE), "GrB_Matrix_wait");
}

// C = A*B by GrB_mxm, C sparse and materialized; returns nvals(C).
GrB_Index graphblas_mxm(const GrbMatrix& a, const GrbMatrix& b, GrB_Index rows, GrB_Index cols) {
  GrbMatrix c;
  anchors::grb_check(GrB_Matrix_new(&c.m, GrB_FP64, rows, cols), "GrB_Matrix_new");
  anchors::grb_check(GxB_Matrix_Option_set(c.m, GxB_SPARSITY_CONTROL, GxB_SPARSE),
                     "GxB_Matrix_Option_set(SPARSITY_CONTROL)");
  anchors::grb_check(
      GrB_mxm(c.m, nullptr, nullptr, GrB_PLUS_TIMES_SEMIRING_FP64, a.m, b.m, nullptr), "GrB_mxm");
  anchors::grb_check(GrB_Matrix_wait(c.m, GrB_MATERIALIZE), "GrB_Matrix_wait");
  GrB_Index nvals = 0;
  anchors::grb_check(GrB_Matrix_nvals(&nvals, c.m), "GrB_Matrix_nvals");
  return nvals;
}

#endif  // GRAPHRUN_HAVE_GRAPHBLAS

void run_cpu(const SpgemmBenchArgs& args, const BenchOptions& inputs) {
  const BenchOptions& o = args.bench;
  const int threads = o.threads > 0 ? o.threads : omp_get_max_threads();
  omp_set_num_threads(threads);
  const int reps = o.reps > 0 ? o.reps : 5;
#if defined(GRAPHRUN_HAVE_GRAPHBLAS)
  anchors::grb_init(threads);
  const bool anchor = true;
#else
  const bool anchor = false;
  std::fprintf(stderr,
               "graphrun: bench spgemm: built without GraphBLAS; only graphrun's times are "
               "shown\n");
#endif
  std::printf("SpGEMM C = A*%s on the CPU, %d threads, double, medians of %d alternating runs\n\n",
              args.transpose_b ? "At" : "A", threads, reps);
  Table table({"graph", "n", "nnz(A)", "products", "nnz(C)", "ours ms", "analysis", "symbolic",
               "numeric+sort", "ours GFLOP/s", "GraphBLAS ms", "GraphBLAS GFLOP/s", "speed-up"},
              o.csv);
  ClassSummary summary({{"GraphBLAS / graphrun", true}});
  for_each_graph(inputs, [&](const BenchGraph& g) {
    const Csr<double>& a = g.graph.adj();
    Csr<double> at;
    if (args.transpose_b) at = a.transpose();
    const Csr<double>& b = args.transpose_b ? at : a;
    Context ctx(Device::cpu, threads);

    SpgemmStats stats;
    auto ours = [&] {
      const Stopwatch t0;
      { const Csr<double> c = spgemm<PlusTimes<double>>(ctx, a.view(), b.view(), &stats); }
      return t0.ms();
    };
    ours();  // warm-up
    const std::int64_t nnz_c = stats.nnz_c;
    const double flops = 2.0 * static_cast<double>(stats.intermediate_products);
    std::vector<double> t_ours, t_analysis, t_symbolic, t_numeric, t_grb;

#if defined(GRAPHRUN_HAVE_GRAPHBLAS)
    GrbMatrix ga, gb_own;
    to_graphblas(a, ga);
    if (args.transpose_b) to_graphblas(b, gb_own);
    const GrbMatrix& gb = args.transpose_b ? gb_own : ga;
    const auto rows = static_cast<GrB_Index>(a.n_rows());
    const auto cols = static_cast<GrB_Index>(b.n_cols());
    const GrB_Index grb_nnz = graphblas_mxm(ga, gb, rows, cols);  // warm-up
    if (static_cast<std::int64_t>(grb_nnz) != nnz_c)
      std::fprintf(stderr, "graphrun: bench spgemm: %s: nnz(C) %lld here, %llu in GraphBLAS\n",
                   g.name.c_str(), static_cast<long long>(nnz_c),
                   static_cast<unsigned long long>(grb_nnz));
#endif
    for (int r = 0; r < reps; ++r) {
      t_ours.push_back(ours());
      t_analysis.push_back(stats.analysis_ms);
      t_symbolic.push_back(stats.symbolic_ms);
      t_numeric.push_back(stats.numeric_ms + stats.sort_ms);
#if defined(GRAPHRUN_HAVE_GRAPHBLAS)
      const Stopwatch t0;
      graphblas_mxm(ga, gb, rows, cols);
      t_grb.push_back(t0.ms());
#endif
    }
    const double ms = median(t_ours);
    const double grb_ms = median(t_grb);
    const auto gflops = [&](double t) { return t > 0 ? fixed(flops / t / 1e6, 2) : "-"; };
    std::string speedup = "-";
    if (anchor && ms > 0 && grb_ms > 0) {
      speedup = fixed(grb_ms / ms, 2) + "x";
      summary.add(a.nnz(), {grb_ms / ms});
    }
    table.row({g.name, std::to_string(a.n_rows()), std::to_string(a.nnz()),
               std::to_string(stats.intermediate_products), std::to_string(nnz_c), fixed(ms, 3),
               fixed(median(t_analysis), 3), fixed(median(t_symbolic), 3),
               fixed(median(t_numeric), 3), gflops(ms), anchor ? fixed(grb_ms, 3) : "-",
               anchor ? gflops(grb_ms) : "-", speedup});
  });
  table.finish();
  summary.print();
}

void run_bench_spgemm(const SpgemmBenchArgs& args) {
  const BenchOptions& o = args.bench;
  BenchOptions inputs = o;
  inputs.generated.clear();
  for (int scale : args.rmat_scales)
    inputs.generated.push_back("gen:rmat:" + std::to_string(scale));
  const Device device = parse_device(o.device);
  if (device == Device::cpu) {
    if (!args.tune.empty()) throw ArgumentError("--tune applies to --device cuda only");
    if (args.deterministic)
      throw ArgumentError("--deterministic applies to --device cuda only (CPU runs are always)");
    run_cpu(args, inputs);
    return;
  }
  if (!cuda_backend_built())
    throw ArgumentError(
        "this build of graphrun has no CUDA backend, so bench spgemm cannot run with --device "
        "cuda; use --device cpu");
  if (cuda_device_count() == 0)
    throw ArgumentError("--device cuda: no CUDA device found (no GPU or no driver)");
  if (o.threads > 0) omp_set_num_threads(o.threads);
  run_spgemm_cuda(inputs, args.transpose_b, args.deterministic, args.tune);
}

}  // namespace

Command add_bench_spgemm(CLI::App& bench) {
  auto args = std::make_shared<SpgemmBenchArgs>();
  CLI::App* sub = bench.add_subcommand(
      "spgemm",
      "SpGEMM C = A*A per graph: graphrun beside GraphBLAS GrB_mxm (CPU) or cuSPARSE (GPU)\n"
      "A is each graph's adjacency in double (ones when unweighted). Prints ms (medians of\n"
      "alternating runs), GFLOP/s at 2 flops per intermediate product, nnz(C), the phase\n"
      "split (analysis, symbolic, numeric with the per-row sort) and the speed-up, then\n"
      "the geometric mean. --suite DIR: every graph under DIR, then gen:rmat:16..18.");
  add_bench_options(*sub, args->bench);
  sub->add_flag("--transpose-b", args->transpose_b, "Multiply by the transpose: C = A*At");
  sub->add_flag("--deterministic", args->deterministic,
                "GPU only: graphrun's SpGEMM sums in a fixed order (bit-identical C run to run);\n"
                "run the suite with and without it to see what that costs");
  sub->add_option("--rmat-scales", args->rmat_scales,
                  "R-MAT scales that --suite adds after the files (A*A of scale 18 holds\n"
                  "~1.3e9 entries: ~16 GB for C alone)")
      ->check(CLI::Range(1, 30))
      ->default_str("16 17 18")
      ->type_name("S...");
  sub->add_option("--tune", args->tune, kSpgemmTuneHelp)
      ->type_name("KEY=N")
      ->allow_extra_args(false);  // one KEY=N a --tune: inputs may follow
  sub->footer(
      "\nEXAMPLES:\n"
      "  graphrun bench spgemm --suite datasets/ --threads 2\n"
      "  graphrun bench spgemm gen:rmat:16 gen:rmat:17 --reps 7\n"
      "  graphrun bench spgemm --suite datasets/ --device cuda\n"
      "  graphrun bench spgemm gen:rmat:16 --device cuda --tune dense-words=4\n");
  return {sub, [args] { run_bench_spgemm(*args); }};
}

}  // namespace graphrun::cli::bench
