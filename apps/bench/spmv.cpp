// graphrun bench spmv: every SpMV format side by side on every input.
//
// GPU (--device cuda): per graph, each format of cuda::SpmvOperator and
// cuSPARSE's cusparseSpMV on the same CSR (double values, PlusTimes), times as
// medians of CUDA-event-timed calls. The table gives each format's time as a
// speed-up over cuSPARSE (> 1: faster), then the chooser's pick
// (choose_spmv_format(analyze(A), Device::cuda)) with its time, effective
// bandwidth and share of the measured copy bandwidth, and the fastest
// format, and csr-warp's best sub-warp width. Effective bandwidth counts the bytes an SpMV must
// move once: values (weighted graphs), column indices, row pointers, x and y. Every format's y is
// checked against cuSPARSE's.
//
// --reorder ORDER (GPU): the formats run on the matrix renumbered by a vertex
// ordering (engine/vertex_order.hpp); the anchor stays cuSPARSE on the input
// order, with cuSPARSE on the renumbered matrix beside it, so a speed-up
// shows how much is the ordering's and how much the kernels'.
//
// CPU (--device cpu): the CPU fast paths (CSR, merge-path) and the chooser's
// pick, with effective bandwidth, beside SuiteSparse:GraphBLAS's GrB_mxv
// (plus-times, FP64) where the build has GraphBLAS. Ratio columns are
// speed-ups: the other's time over the pick's (> 1: the pick is faster).
#include "graphrun/kernels/spmv.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "anchors/graphblas.hpp"
#include "bench.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/row_stats.hpp"
#include "graphrun/engine/spmv_format.hpp"
#include "graphrun/engine/vertex_order.hpp"

#if defined(GRAPHRUN_HAVE_CUDA)
#include "anchors/cuda/cusparse_spmv.hpp"
#include "bench/cuda/gpu_timing.hpp"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/kernels/cuda/bandwidth.hpp"
#include "graphrun/kernels/cuda/spmv.hpp"
#endif

namespace graphrun::cli::bench {

namespace {

// Bytes an SpMV must move at least once (see the header comment).
double spmv_bytes(const Csr<double>& a) {
  return double(a.nnz()) * (sizeof(vertex_t) + (a.is_pattern() ? 0 : sizeof(double))) +
         double(a.n_rows() + 1) * sizeof(offset_t) + double(a.n_cols()) * sizeof(double) +
         double(a.n_rows()) * sizeof(double);
}

double gbs(double bytes, double ms) { return bytes / (ms * 1e-3) / 1e9; }

// The chooser's pick and the fastest format against the anchor, per size class.
[[maybe_unused]] ClassSummary speedups(const char* anchor) {
  return ClassSummary(
      {{std::string("pick / ") + anchor, true}, {std::string("fastest / ") + anchor, true}});
}

std::string shape_cells(const RowStats& s) { return fixed(s.mean, 1) + " / " + fixed(s.cv, 2); }

#if defined(GRAPHRUN_HAVE_CUDA)
void run_cuda(const BenchOptions& o, Reorder reorder) {
  if (cuda_device_count() == 0)
    throw ArgumentError("--device cuda: no CUDA device found; use --device cpu");
  const int reps = o.reps > 0 ? o.reps : 50;
  const double copy = cuda::measured_copy_bandwidth();
  std::printf(
      "SpMV y = A x on the GPU (double, PlusTimes): speed-up of each format over cuSPARSE "
      "cusparseSpMV (CSR, default algorithm); medians of %d event-timed calls. Measured copy "
      "bandwidth %.0f GB/s.%s\n\n",
      reps, copy,
      reorder == Reorder::none
          ? ""
          : format(" graphrun's formats run on the matrix renumbered by --reorder %s; "
                   "cuSPARSE on the input order (the anchor) and on the renumbered matrix.",
                   std::string(to_string(reorder)).c_str())
                .c_str());
  std::vector<std::string> columns = {"graph", "rows", "nnz", "mean / cv", "cuSPARSE ms"};
  if (reorder != Reorder::none) {
    columns.emplace_back("ordering");
    columns.emplace_back("cuSPARSE renumbered ms");
  }
  for (SpmvFormat f : all_spmv_formats()) columns.emplace_back(to_string(f));
  for (const char* c :
       {"best csr width", "pick", "pick ms", "pick GB/s", "% copy", "pick / cuSPARSE", "fastest"})
    columns.emplace_back(c);
  Table table(columns, o.csv);
  ClassSummary summary = speedups("cuSPARSE");
  for_each_graph(o, [&](const BenchGraph& bg) {
    const Csr<double>& input = bg.graph.adj();
    std::vector<double> xh(input.n_cols());
    for (std::size_t i = 0; i < xh.size(); ++i) xh[i] = 1.0 + double(i % 7) / 8;
    // The anchor on the input order: y, the reference every format is held to.
    double anchor_ms = 0;
    std::vector<double> want;
    {
      const DeviceCsr<double> d(input);
      DeviceArray<double> x{std::span<const double>(xh)}, y(input.n_rows());
      anchors::CusparseSpmv anchor(d, x.data(), y.data());
      anchor_ms = gpu_median_ms(reps, [&](cudaStream_t s) { anchor.run(s); });
      want = y.download();
    }
    // Renumbered: B = P A Pᵀ, x and the reference y gathered the same way.
    Reorder how = reorder;
    if (how == Reorder::automatic) how = choose_reorder(analyze(input.view()));
    Csr<double> renumbered;
    if (how != Reorder::none) {
      const std::vector<vertex_t> order = vertex_order(input.view(), how);
      renumbered = permute(input, order);
      xh = gather(std::span<const double>(xh), order);
      want = gather(std::span<const double>(want), order);
    }
    const Csr<double>& a = how != Reorder::none ? renumbered : input;
    const RowStats stats = analyze(a.view());
    const SpmvFormat pick = choose_spmv_format(stats, Device::cuda);
    const DeviceCsr<double> d(a);
    DeviceArray<double> x{std::span<const double>(xh)}, y(a.n_rows());
    std::vector<std::string> cells = {bg.name, std::to_string(a.n_rows()), std::to_string(a.nnz()),
                                      shape_cells(stats), fixed(anchor_ms, 4)};
    if (reorder != Reorder::none) {
      anchors::CusparseSpmv anchor(d, x.data(), y.data());
      cells.push_back(std::string(to_string(how)));
      cells.push_back(fixed(gpu_median_ms(reps, [&](cudaStream_t s) { anchor.run(s); }), 4));
    }
    double pick_ms = std::numeric_limits<double>::quiet_NaN(), best_ms = pick_ms;
    SpmvFormat best = pick, used = pick;
    for (SpmvFormat f : all_spmv_formats()) {
      std::unique_ptr<cuda::SpmvOperator<double>> op;
      try {
        op = std::make_unique<cuda::SpmvOperator<double>>(d, f);
      } catch (const FormatError&) {
        cells.emplace_back("refused");
        continue;
      }
      const double ms = gpu_median_ms(
          reps, [&](cudaStream_t s) { op->apply<PlusTimes<double>>(x.data(), y.data(), {}, s); });
      // The same y as cuSPARSE, up to the order of additions.
      const std::vector<double> got = y.download();
      bool same = true;
      for (std::size_t i = 0; i < got.size() && same; ++i)
        same = std::abs(got[i] - want[i]) <= 1e-9 * (std::abs(want[i]) + 1.0);
      cells.push_back(fixed(anchor_ms / ms, 2) + (same ? "" : " (WRONG)") +
                      (f == SpmvFormat::csr_warp ? format(" w%d", op->threads_per_row()) : ""));
      if (!(ms >= best_ms)) {
        best_ms = ms;
        best = f;
      }
      if (f == pick) pick_ms = ms;
    }
    // csr-warp at every sub-warp width: the data behind its width rule.
    int best_width = 0;
    double best_width_ms = std::numeric_limits<double>::infinity();
    for (int w : {2, 4, 8, 16, 32}) {
      const cuda::SpmvOperator<double> op(d, SpmvFormat::csr_warp, w);
      const double ms = gpu_median_ms(
          reps, [&](cudaStream_t s) { op.apply<PlusTimes<double>>(x.data(), y.data(), {}, s); });
      if (ms < best_width_ms) {
        best_width_ms = ms;
        best_width = w;
      }
    }
    if (std::isnan(pick_ms)) {  // the pick refused the matrix: `auto` falls back
      used = cuda::SpmvOperator<double>(d, SpmvFormat::automatic).format();
      pick_ms = gpu_median_ms(reps, [&](cudaStream_t s) {
        cuda::SpmvOperator<double> op(d, used);
        op.apply<PlusTimes<double>>(x.data(), y.data(), {}, s);
      });
    }
    const double bw = gbs(spmv_bytes(a), pick_ms);
    cells.push_back(format("w%d %.2f", best_width, anchor_ms / best_width_ms));
    cells.push_back(std::string(to_string(used)));
    cells.push_back(fixed(pick_ms, 4));
    cells.push_back(fixed(bw, 0));
    cells.push_back(fixed(100 * bw / copy, 0));
    cells.push_back(fixed(anchor_ms / pick_ms, 2));
    cells.push_back(std::string(to_string(best)) + " " + fixed(anchor_ms / best_ms, 2));
    summary.add(a.nnz(), {anchor_ms / pick_ms, anchor_ms / best_ms});
    table.row(cells);
  });
  table.finish();
  summary.print();
}
#endif

#if defined(GRAPHRUN_HAVE_GRAPHBLAS)
// The median time of GrB_mxv(y, A, x) with x all ones; the import of A and
// the set-up of the vectors are outside the timing.
double graphblas_spmv_ms(const Csr<double>& a, int reps, int threads) {
  anchors::grb_init(threads);
  const auto rows = static_cast<GrB_Index>(a.n_rows());
  const auto cols = static_cast<GrB_Index>(a.n_cols());
  GrB_Matrix m = anchors::grb_matrix(a);
  GrB_Vector x = nullptr, y = nullptr;
  GRAPHRUN_GRB(GrB_Vector_new(&x, GrB_FP64, cols));
  GRAPHRUN_GRB(GrB_Vector_new(&y, GrB_FP64, rows));
  GRAPHRUN_GRB(GrB_Vector_assign_FP64(x, nullptr, nullptr, 1.0, GrB_ALL, cols, nullptr));
  GRAPHRUN_GRB(GrB_Matrix_wait(m, GrB_MATERIALIZE));
  GRAPHRUN_GRB(GrB_Vector_wait(x, GrB_MATERIALIZE));
  const double ms = median_ms(reps, [&] {
    GRAPHRUN_GRB(GrB_mxv(y, nullptr, nullptr, GrB_PLUS_TIMES_SEMIRING_FP64, m, x, nullptr));
    GRAPHRUN_GRB(GrB_Vector_wait(y, GrB_MATERIALIZE));
  });
  GrB_Vector_free(&y);
  GrB_Vector_free(&x);
  GrB_Matrix_free(&m);
  return ms;
}
#endif

void run_cpu(const BenchOptions& o) {
  Context ctx(Device::cpu, o.threads);
  const int reps = o.reps > 0 ? o.reps : 20;
  std::printf(
      "SpMV y = A x on the CPU (%d threads, double, PlusTimes): medians of %d runs, effective "
      "bandwidth over the bytes an SpMV must move.\n\n",
      ctx.threads(), reps);
  std::vector<std::string> columns = {"graph",  "rows",      "nnz",           "mean / cv",
                                      "csr ms", "csr GB/s",  "merge-path ms", "merge-path GB/s",
                                      "pick",   "pick / csr"};
#if defined(GRAPHRUN_HAVE_GRAPHBLAS)
  columns.emplace_back("GraphBLAS ms");
  columns.emplace_back("pick / GraphBLAS");
  ClassSummary summary = speedups("GraphBLAS");
#endif
  Table table(columns, o.csv);
  for_each_graph(o, [&](const BenchGraph& bg) {
    const Csr<double>& a = bg.graph.adj();
    const RowStats stats = analyze(a.view());
    const SpmvFormat pick = choose_spmv_format(stats, Device::cpu);
    const std::vector<double> x(a.n_cols(), 1.0);
    std::vector<double> y(a.n_rows());
    auto time = [&](SpmvFormat f) {
      return median_ms(reps,
                       [&] { spmv<PlusTimes<double>>(ctx, f, a.view(), x.data(), y.data()); });
    };
    const double csr_ms = time(SpmvFormat::csr_warp);
    const double merge_ms = time(SpmvFormat::merge_path);
    const double pick_ms = pick == SpmvFormat::merge_path ? merge_ms
                           : pick == SpmvFormat::csr_warp || pick == SpmvFormat::csr_thread
                               ? csr_ms
                               : time(pick);
    const double bytes = spmv_bytes(a);
    std::vector<std::string> cells = {bg.name,
                                      std::to_string(a.n_rows()),
                                      std::to_string(a.nnz()),
                                      shape_cells(stats),
                                      fixed(csr_ms, 3),
                                      fixed(gbs(bytes, csr_ms), 1),
                                      fixed(merge_ms, 3),
                                      fixed(gbs(bytes, merge_ms), 1),
                                      std::string(to_string(pick)),
                                      fixed(csr_ms / pick_ms, 2)};
#if defined(GRAPHRUN_HAVE_GRAPHBLAS)
    const double grb_ms = graphblas_spmv_ms(a, reps, ctx.threads());
    cells.push_back(fixed(grb_ms, 3));
    cells.push_back(fixed(grb_ms / pick_ms, 2));
    summary.add(a.nnz(), {grb_ms / pick_ms, grb_ms / std::min(csr_ms, merge_ms)});
#endif
    table.row(cells);
  });
  table.finish();
#if defined(GRAPHRUN_HAVE_GRAPHBLAS)
  summary.print();
#endif
}

}  // namespace

Command add_bench_spmv(CLI::App& bench) {
  struct Args {
    BenchOptions common;
    std::string reorder = "none";
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub = bench.add_subcommand(
      "spmv",
      "SpMV formats side by side: on the GPU every format of the CUDA kernel family beside\n"
      "cuSPARSE (speed-ups, the chooser's pick, effective bandwidth and its share of the\n"
      "measured copy bandwidth); on the CPU the CSR and merge-path kernels");
  add_bench_options(*sub, args->common);
  sub->add_option("--reorder", args->reorder,
                  "GPU: run graphrun's formats on each matrix renumbered by this vertex\n"
                  "ordering (none, degree, hubsort, dbg, rcm, auto), cuSPARSE on the input\n"
                  "order and on the renumbered matrix")
      ->capture_default_str()
      ->type_name("ORDER");
  sub->footer(
      "\nEXAMPLE:\n"
      "  graphrun bench spmv --suite DIR --device cuda\n"
      "  graphrun bench spmv gen:rmat:22 --device cuda --reorder degree\n");
  return {sub, [args] {
            const Device device = parse_device(args->common.device);
            const Reorder reorder = parse_reorder(args->reorder);
            if (device == Device::cpu) {
              if (reorder != Reorder::none)
                throw ArgumentError(
                    "--reorder renumbers the matrix for the GPU formats; use it with --device "
                    "cuda");
              run_cpu(args->common);
              return;
            }
#if defined(GRAPHRUN_HAVE_CUDA)
            run_cuda(args->common, reorder);
#else
            throw ArgumentError("this build of graphrun has no CUDA backend; use --device cpu");
#endif
          }};
}

}  // namespace graphrun::cli::bench
