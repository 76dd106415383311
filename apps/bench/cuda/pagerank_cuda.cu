// The GPU half of `graphrun bench pagerank` (pagerank_cuda.hpp): graphrun's
// iteration beside one SpMV of the same operator, the floor, and the same
// iteration over cuSPARSE, per graph and vertex ordering.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "anchors/cuda/cusparse_pagerank.hpp"
#include "anchors/cuda/cusparse_spmv.hpp"
#include "bench/cuda/pagerank_cuda.hpp"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/device_csr.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/engine/spmv_format.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/engine/vertex_order.hpp"
#include "graphrun/kernels/cuda/bandwidth.hpp"
#include "graphrun/kernels/cuda/gpu_timing.hpp"
#include "graphrun/kernels/cuda/spmv.hpp"

namespace graphrun::cli::bench {

namespace {

// Milliseconds per iteration of one pagerank() call as the command line
// makes it (no callback: iterations queued in batches, the stopping rule
// checked on the device): the iterations' seconds (compute_seconds, without
// the upload, the set-up and the download of the ranks) over their count.
double ms_per_iteration(Context& ctx, const Graph& g, const PageRankOptions& o,
                        PageRankResult* out) {
  *out = pagerank(ctx, g, o);
  return out->compute_seconds * 1e3 / std::max(1, out->iterations);
}

struct SpmvTimes {
  double ours = 0;      // graphrun's operator, the format PageRank used
  double cusparse = 0;  // cusparseSpMV on the same matrix
};

// Milliseconds of one y = Aᵀ x (GPU time, CUDA events, median of `reps`).
// The format built and applied as PageRank's: its rows' order, and x
// gathered in float where PageRank's is (which also sizes SELL's column
// parts); cuSPARSE's in double.
SpmvTimes spmv_ms(const Graph& g, SpmvFormat format, int reps, RowOrder rows, int gather_bytes) {
  const Csr<double>& t = g.directed() ? g.transpose() : g.adj();
  DeviceCsr<double> at(t.n_rows(), t.n_cols(),
                       DeviceArray<offset_t>{std::span<const offset_t>(t.row_ptr())},
                       DeviceArray<vertex_t>{std::span<const vertex_t>(t.col_idx())},
                       DeviceArray<double>());  // a pattern, as unweighted PageRank uses
  const cuda::SpmvOperator<double> op(at, format, 0, {}, rows, cuda::SpmvLayoutHints{gather_bytes});
  std::vector<double> ones(static_cast<std::size_t>(g.n_vertices()), 1.0);
  DeviceArray<double> x{std::span<const double>(ones)}, y(ones.size());
  SpmvTimes out;
  if (gather_bytes == static_cast<int>(sizeof(float))) {
    const std::vector<float> ones_f(ones.size(), 1.0f);
    const DeviceArray<float> xf{std::span<const float>(ones_f)};
    out.ours = cuda::gpu_median_ms(reps, [&](cudaStream_t s) {
      op.apply<PlusTimes<double>, float>(xf.data(), y.data(), {}, s);
    });
  } else {
    out.ours = cuda::gpu_median_ms(
        reps, [&](cudaStream_t s) { op.apply<PlusTimes<double>>(x.data(), y.data(), {}, s); });
  }
  anchors::CusparseSpmv anchor(at, x.data(), y.data());
  out.cusparse = cuda::gpu_median_ms(reps, [&](cudaStream_t s) { anchor.run(s); });
  return out;
}

// The renumbered copy of g (ids 0 .. n-1) that the GPU iterates over under
// `order`, built on the host: what the anchor and the lone SpMV run on to
// show how much of a gain is the ordering's and how much the kernels'.
Graph renumbered(const Graph& g, const std::vector<vertex_t>& order) {
  return Graph(permute(g.adj(), order), {}, g.directed(), g.weighted());
}

}  // namespace

void run_pagerank_cuda(const PageRankBenchOptions& a) {
  Context gpu(Device::cuda);
  Context cpu(Device::cpu, a.common.threads);
  const int reps = a.common.reps > 0 ? a.common.reps : 5;
  const double bw = cuda::measured_copy_bandwidth() * 1e9;  // bytes per second
  std::printf(
      "GPU PageRank: median of %d runs of %d iterations, unweighted, double precision, x "
      "gathered in %s by graphrun (ms per iteration: the iterations' time over their count, as "
      "the command line runs them), under each vertex ordering; cuSPARSE's iteration (double) on "
      "the input order and on graphrun's; device copy bandwidth %.0f GB/s\n\n",
      reps, a.iters, a.gather == PageRankGather::float32 ? "float" : "double", bw / 1e9);
  Table table({"graph", "vertices", "edges", "ordering", "format", "iteration ms", "SpMV ms",
               "iteration / SpMV", "floor ms", "iteration / floor", "ordering ms",
               "break-even iterations", "cuSPARSE SpMV ms", "cuSPARSE iteration ms",
               "cuSPARSE / graphrun", "cuSPARSE renumbered ms", "L1 to CPU (graphrun / cuSPARSE)"},
              a.common.csv);
  std::vector<std::pair<std::string, ClassSummary>> summaries;
  for (Reorder how : a.orderings)
    summaries.emplace_back(std::string(to_string(how)),
                           ClassSummary({{"iteration / SpMV", false},
                                         {"iteration / floor", false},
                                         {"cuSPARSE iteration / graphrun", true},
                                         {"cuSPARSE iteration renumbered / graphrun", true}}));
  for_each_graph(a.common, [&](const BenchGraph& bg) {
    const Graph& g = bg.graph;
    PageRankOptions o = fixed_iterations(a.iters, a.gather);
    const PageRankResult want = pagerank(cpu, g, o);
    o.format = a.format;
    std::vector<double> anchor_rank, anchor_t;
    for (int rep = 0; rep < reps; ++rep)
      anchor_t.push_back(anchors::cusparse_pagerank_ms(g, a.iters, o.damping, &anchor_rank));
    const double anchor_ms = median(anchor_t);
    double input_order_ms = 0;  // the first ordering's, for the break-even count
    for (std::size_t m = 0; m < a.orderings.size(); ++m) {
      o.reorder = a.orderings[m];
      PageRankResult r;
      std::vector<double> t, t_order;
      for (int rep = 0; rep < reps; ++rep) {
        t.push_back(ms_per_iteration(gpu, g, o, &r));
        t_order.push_back(r.reorder_seconds * 1e3);
      }
      const double iter_ms = median(t), order_ms = median(t_order);
      if (m == 0) input_order_ms = iter_ms;
      // The matrix the iterations ran on, for the lone SpMV and the anchor.
      const Reorder how = r.reorder;
      Graph copy;
      if (how != Reorder::none)
        copy = renumbered(g, vertex_order(g.adj().view(), how, !g.directed()));
      const Graph& ran = how != Reorder::none ? copy : g;
      const SpmvTimes one_spmv =
          spmv_ms(ran, r.format, std::max(reps, 10), rows_after(how, !g.directed()),
                  static_cast<int>(r.float_gathers ? sizeof(float) : sizeof(double)));
      double renumbered_anchor_ms = anchor_ms;
      if (how != Reorder::none) {
        std::vector<double> unused, at;
        for (int rep = 0; rep < reps; ++rep)
          at.push_back(anchors::cusparse_pagerank_ms(ran, a.iters, o.damping, &unused));
        renumbered_anchor_ms = median(at);
      }
      // Bytes an iteration must move: Aᵀ's row_ptr and col_idx, x gathered
      // at least once, y written; the update reads y, r, 1/outw and writes
      // r', x (x in 4 bytes where it is gathered in float).
      const double n = g.n_vertices(), e = static_cast<double>(g.n_edges());
      const double xb = r.float_gathers ? 4 : 8;
      const double floor_ms = (8 * (n + 1) + 4 * e + xb * n + 8 * n + (32 + xb) * n) / bw * 1e3;
      const double gain = input_order_ms - iter_ms;
      const std::string break_even = m == 0 || how == Reorder::none ? "-"
                                     : gain > 0                     ? fixed(order_ms / gain, 1)
                                                                    : "never";
      std::string name(to_string(how));
      if (a.orderings[m] == Reorder::automatic) name = "auto: " + name;
      table.row({bg.name, std::to_string(g.n_vertices()), std::to_string(g.n_edges()), name,
                 std::string(to_string(r.format)), fixed(iter_ms, 3), fixed(one_spmv.ours, 3),
                 fixed(iter_ms / one_spmv.ours, 2), fixed(floor_ms, 3),
                 fixed(iter_ms / floor_ms, 2), fixed(order_ms, 2), break_even,
                 fixed(one_spmv.cusparse, 3), fixed(anchor_ms, 3), fixed(anchor_ms / iter_ms, 2),
                 fixed(renumbered_anchor_ms, 3),
                 format("%.1e / %.1e", l1(r.rank, want.rank), l1(anchor_rank, want.rank))});
      summaries[m].second.add(g.n_edges(), {iter_ms / one_spmv.ours, iter_ms / floor_ms,
                                            anchor_ms / iter_ms, renumbered_anchor_ms / iter_ms});
    }
  });
  table.finish();
  for (const auto& [name, summary] : summaries) {
    std::printf("\nordering %s:\n", name.c_str());
    summary.print();
  }
}

}  // namespace graphrun::cli::bench
