// The GPU half of `graphrun bench spmv` (spmv_cuda.hpp; the method is in
// spmv.cpp's header comment): every format of cuda::SpmvOperator beside
// cuSPARSE's cusparseSpMV on the same CSR, one table row per graph.
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "anchors/cuda/cusparse_spmv.hpp"
#include "bench/cuda/spmv_cuda.hpp"
#include "bench/spmv_figures.hpp"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/device_csr.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/row_stats.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/engine/spmv_format.hpp"
#include "graphrun/kernels/cuda/bandwidth.hpp"
#include "graphrun/kernels/cuda/gpu_timing.hpp"
#include "graphrun/kernels/cuda/spmv.hpp"

namespace graphrun::cli::bench {

void run_spmv_cuda(const BenchOptions& o, Reorder reorder, bool weighted) {
  if (cuda_device_count() == 0)
    throw ArgumentError("--device cuda: no CUDA device found; use --device cpu");
  const int reps = o.reps > 0 ? o.reps : 50;
  const double copy = cuda::measured_copy_bandwidth();
  std::printf(
      "SpMV y = A x on the GPU (double, PlusTimes): speed-up of each format over cuSPARSE "
      "cusparseSpMV (CSR, default algorithm); medians of %d event-timed calls. Measured copy "
      "bandwidth %.0f GB/s.%s%s\n\n",
      reps, copy, weighted ? " Every entry valued (--weighted): both sides read A's values." : "",
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
  for (const char* c : {"best csr width", "sell, 1 part", "pick", "pick ms", "pick GB/s", "% copy",
                        "pick / cuSPARSE", "fastest"})
    columns.emplace_back(c);
  Table table(columns, o.csv);
  ClassSummary summary = speedups("cuSPARSE");
  for_each_graph(o, [&](const BenchGraph& bg) {
    const Csr<double> valued = weighted ? with_entry_values(bg.graph.adj()) : Csr<double>();
    const Csr<double>& input = weighted ? valued : bg.graph.adj();
    std::vector<double> xh(input.n_cols());
    for (std::size_t i = 0; i < xh.size(); ++i) xh[i] = 1.0 + double(i % 7) / 8;
    // The anchor on the input order: y, the reference every format is held to.
    double anchor_ms = 0;
    std::vector<double> want;
    {
      const DeviceCsr<double> d(input);
      DeviceArray<double> x{std::span<const double>(xh)}, y(input.n_rows());
      anchors::CusparseSpmv anchor(d, x.data(), y.data());
      anchor_ms = cuda::gpu_median_ms(reps, [&](cudaStream_t s) { anchor.run(s); });
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
    // As PageRank asks: a symmetric matrix renumbered by degree has its rows
    // of like length side by side, which the choice weighs.
    const RowOrder rows = rows_after(how, !bg.graph.directed());
    const SpmvFormat pick = choose_spmv_format(stats, Device::cuda, rows);
    const DeviceCsr<double> d(a);
    DeviceArray<double> x{std::span<const double>(xh)}, y(a.n_rows());
    std::vector<std::string> cells = {bg.name, std::to_string(a.n_rows()), std::to_string(a.nnz()),
                                      shape_cells(stats), fixed(anchor_ms, 4)};
    if (reorder != Reorder::none) {
      anchors::CusparseSpmv anchor(d, x.data(), y.data());
      cells.push_back(std::string(to_string(how)));
      cells.push_back(fixed(cuda::gpu_median_ms(reps, [&](cudaStream_t s) { anchor.run(s); }), 4));
    }
    double pick_ms = std::numeric_limits<double>::quiet_NaN(), best_ms = pick_ms;
    SpmvFormat best = pick, used = pick;
    int sell_parts = 1;  // SELL's column parts under its rule
    for (SpmvFormat f : all_spmv_formats()) {
      std::unique_ptr<cuda::SpmvOperator<double>> op;
      try {
        op = std::make_unique<cuda::SpmvOperator<double>>(d, f);
      } catch (const FormatError&) {
        cells.emplace_back("refused");
        continue;
      }
      const double ms = cuda::gpu_median_ms(
          reps, [&](cudaStream_t s) { op->apply<PlusTimes<double>>(x.data(), y.data(), {}, s); });
      // The same y as cuSPARSE, up to the order of additions.
      const std::vector<double> got = y.download();
      bool same = true;
      for (std::size_t i = 0; i < got.size() && same; ++i)
        same = std::abs(got[i] - want[i]) <= 1e-9 * (std::abs(want[i]) + 1.0);
      cells.push_back(fixed(anchor_ms / ms, 2) + (same ? "" : " (WRONG)") +
                      (f == SpmvFormat::csr_warp ? format(" w%d", op->threads_per_row()) : "") +
                      (op->column_parts() > 1 ? format(" p%d", op->column_parts()) : ""));
      if (f == SpmvFormat::sell) sell_parts = op->column_parts();
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
      const double ms = cuda::gpu_median_ms(
          reps, [&](cudaStream_t s) { op.apply<PlusTimes<double>>(x.data(), y.data(), {}, s); });
      if (ms < best_width_ms) {
        best_width_ms = ms;
        best_width = w;
      }
    }
    if (std::isnan(pick_ms)) {  // the pick refused the matrix: `auto` falls back
      used = cuda::SpmvOperator<double>(d, SpmvFormat::automatic, 0, {}, rows).format();
      pick_ms = cuda::gpu_median_ms(reps, [&](cudaStream_t s) {
        cuda::SpmvOperator<double> op(d, used);
        op.apply<PlusTimes<double>>(x.data(), y.data(), {}, s);
      });
    }
    const double bw = gbs(spmv_bytes(a), pick_ms);
    cells.push_back(format("w%d %.2f", best_width, anchor_ms / best_width_ms));
    // SELL split by its columns: the same SELL in one part beside it.
    if (sell_parts > 1) {
      const cuda::SpmvOperator<double> op(d, SpmvFormat::sell, 0, {}, RowOrder::as_loaded,
                                          cuda::SpmvLayoutHints{0, 1});
      cells.push_back(fixed(anchor_ms / cuda::gpu_median_ms(reps,
                                                            [&](cudaStream_t s) {
                                                              op.apply<PlusTimes<double>>(
                                                                  x.data(), y.data(), {}, s);
                                                            }),
                            2));
    } else {
      cells.emplace_back("-");
    }
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

}  // namespace graphrun::cli::bench
