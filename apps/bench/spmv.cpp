// graphrun bench spmv: every SpMV format side by side on every input.
//
// GPU (--device cuda): per graph, each format of cuda::SpmvOperator and
// cuSPARSE's cusparseSpMV on the same CSR (double values, PlusTimes), times as
// medians of CUDA-event-timed calls. The table gives each format's time as a
// speed-up over cuSPARSE (> 1: faster), then the chooser's pick
// (choose_spmv_format(analyze(A), Device::cuda)) with its time, effective
// bandwidth and share of the measured copy bandwidth, and the fastest
// format, and csr-warp's best sub-warp width. SELL's cell says "pP" where its rule split the
// columns into P parts (x past a third of the L2), and "sell, 1 part" times the same SELL unsplit
// beside it. Effective
// bandwidth counts the bytes an SpMV must move once: values (weighted graphs), column indices, row
// pointers, x and y. Every format's y is checked against cuSPARSE's.
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
#include "cuda/spmv_cuda.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/row_stats.hpp"
#include "graphrun/engine/spmv_format.hpp"
#include "graphrun/engine/vertex_order.hpp"
#include "spmv_figures.hpp"

namespace graphrun::cli::bench {

namespace {

#if defined(GRAPHRUN_HAVE_GRAPHBLAS)
// The median time of GrB_mxv(y, A, x) with graphrun's x; the import of A
// and the set-up of the vectors are outside the timing.
double graphblas_spmv_ms(const Csr<double>& a, const std::vector<double>& xs, int reps,
                         int threads) {
  anchors::grb_init(threads);
  const auto rows = static_cast<GrB_Index>(a.n_rows());
  const auto cols = static_cast<GrB_Index>(a.n_cols());
  GrB_Matrix m = anchors::grb_matrix(a);
  GrB_Vector x = nullptr, y = nullptr;
  GRAPHRUN_GRB(GrB_Vector_new(&x, GrB_FP64, cols));
  GRAPHRUN_GRB(GrB_Vector_new(&y, GrB_FP64, rows));
  std::vector<GrB_Index> xi(xs.size());
  for (std::size_t j = 0; j < xi.size(); ++j) xi[j] = j;
  GRAPHRUN_GRB(GrB_Vector_build_FP64(x, xi.data(), xs.data(), cols, GrB_PLUS_FP64));
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

void run_cpu(const BenchOptions& o, bool weighted) {
  Context ctx(Device::cpu, o.threads);
  const int reps = o.reps > 0 ? o.reps : 20;
  std::printf(
      "SpMV y = A x on the CPU (%d threads, double, PlusTimes): medians of %d runs, effective "
      "bandwidth over the bytes an SpMV must move.%s\n\n",
      ctx.threads(), reps,
      weighted ? " Every entry valued (--weighted): both sides read A's values." : "");
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
    const Csr<double> valued = weighted ? with_entry_values(bg.graph.adj()) : Csr<double>();
    const Csr<double>& a = weighted ? valued : bg.graph.adj();
    const RowStats stats = analyze(a.view());
    const SpmvFormat pick = choose_spmv_format(stats, Device::cpu);
    // Distinct values (1 + (j mod 97) / 97): an x of all ones is stored by
    // GraphBLAS as one value for every entry ("iso"), and its mxv then
    // reads no x at all, only A: SuiteSparse:GraphBLAS 7.4 took 15 ms
    // where graphrun took 27 on gapbs -g 20 with it, against 27 ms on -u 20
    // (streaming A's values), a comparison of different work.
    std::vector<double> x(a.n_cols());
    for (std::size_t j = 0; j < x.size(); ++j) x[j] = 1.0 + static_cast<double>(j % 97) / 97.0;
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
    // The CPU has one CSR kernel, whatever the chooser's name for it (csr-warp).
    const std::string pick_name = pick == SpmvFormat::merge_path ? "merge-path" : "csr";
    std::vector<std::string> cells = {bg.name,
                                      std::to_string(a.n_rows()),
                                      std::to_string(a.nnz()),
                                      shape_cells(stats),
                                      fixed(csr_ms, 3),
                                      fixed(gbs(bytes, csr_ms), 1),
                                      fixed(merge_ms, 3),
                                      fixed(gbs(bytes, merge_ms), 1),
                                      pick_name,
                                      fixed(csr_ms / pick_ms, 2)};
#if defined(GRAPHRUN_HAVE_GRAPHBLAS)
    const double grb_ms = graphblas_spmv_ms(a, x, reps, ctx.threads());
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
    bool weighted = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub = bench.add_subcommand(
      "spmv",
      "SpMV formats side by side: on the GPU every format of the CUDA kernel family beside\n"
      "cuSPARSE (speed-ups, the chooser's pick, effective bandwidth and its share of the\n"
      "measured copy bandwidth); on the CPU the CSR and merge-path kernels");
  add_bench_options(*sub, args->common);
  sub->add_option(
         "--reorder", args->reorder,
         "GPU: run graphrun's formats on each matrix renumbered by this vertex\n"
         "ordering (none, degree, hubsort, dbg, rcm, rabbit, auto), cuSPARSE on the input\n"
         "order and on the renumbered matrix")
      ->capture_default_str()
      ->type_name("ORDER");
  sub->add_flag("--weighted", args->weighted,
                "Give every entry of an unweighted graph a value (1 + ((i + j) mod 89) / 89), so\n"
                "that graphrun's formats read values as the anchor does (an unweighted graph\n"
                "lets them skip values while cuSPARSE and GraphBLAS read ones); a weighted\n"
                "graph keeps its own");
  sub->footer(
      "\nEXAMPLE:\n"
      "  graphrun bench spmv --suite DIR --device cuda\n"
      "  graphrun bench spmv gen:rmat:22 --device cuda --reorder degree\n"
      "  graphrun bench spmv gen:uniform:4194304:16 --device cuda --weighted\n");
  return {sub, [args] {
            const Device device = parse_device(args->common.device);
            const Reorder reorder = parse_reorder(args->reorder);
            if (device == Device::cpu) {
              if (reorder != Reorder::none)
                throw ArgumentError(
                    "--reorder renumbers the matrix for the GPU formats; use it with --device "
                    "cuda");
              run_cpu(args->common, args->weighted);
              return;
            }
            if (!cuda_backend_built())
              throw ArgumentError("this build of graphrun has no CUDA backend; use --device cpu");
            run_spmv_cuda(args->common, reorder, args->weighted);
          }};
}

}  // namespace graphrun::cli::bench
