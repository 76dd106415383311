// graphrun bench pagerank: milliseconds per PageRank iteration, beside its
// anchor, on every input in one run.
//
//   --device cuda: graphrun's GPU iteration beside one SpMV of the same
//     operator (same matrix, same format) on the same vectors: the goal is
//     an iteration within 1.3x of one SpMV, i.e. the fused update and the
//     residual read-back cost under a third of the SpMV; the floor, the
//     bytes an iteration must move over the measured device copy bandwidth;
//     and the anchor, the same iteration over cusparseSpMV (with cuSPARSE's
//     SpMV alone beside ours).
//   --reorder LIST: a row per vertex ordering (GPU), with what it cost, the
//     iterations it needs to repay that, and cuSPARSE's iteration on the
//     renumbered matrix too, so that the ordering's share of a gain shows.
//   --device cpu: graphrun's CPU iteration beside SuiteSparse:GraphBLAS
//     running LAGraph's PageRank loop (LAGr_PageRank, "GAP" variant) where
//     the build has GraphBLAS.
// Both run unweighted PageRank in double precision for exactly --iters
// iterations; the L1 distance to the other side's ranks is printed as a
// check that they computed the same function (GPU: graphrun's and the
// cuSPARSE iteration's, each against the CPU).
#include "graphrun/algorithms/pagerank.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "anchors/graphblas.hpp"
#include "bench.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/vertex_order.hpp"

#if defined(GRAPHRUN_HAVE_CUDA)
#include <cuda_runtime_api.h>

#include "anchors/cuda/cusparse_pagerank.hpp"
#include "anchors/cuda/cusparse_spmv.hpp"
#include "bench/cuda/gpu_timing.hpp"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/device_csr.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/kernels/cuda/bandwidth.hpp"
#include "graphrun/kernels/cuda/spmv.hpp"
#endif

namespace graphrun::cli::bench {

namespace {

struct PageRankBenchOptions {
  BenchOptions common;
  int iters = 20;
  std::vector<Reorder> orderings = {Reorder::none, Reorder::automatic};
};

double l1(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return std::numeric_limits<double>::infinity();
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += std::abs(a[i] - b[i]);
  return s;
}

PageRankOptions fixed_iterations(int iters) {
  PageRankOptions o;
  o.tol = std::numeric_limits<double>::min();  // never met: run exactly `iters`
  o.max_iter = iters;
  o.use_weights = false;
  return o;
}

// ---------------------------------------------------------------- GraphBLAS

struct GraphBlasPageRank {
  std::vector<double> rank;
  double seconds = 0;
};

#if defined(GRAPHRUN_HAVE_GRAPHBLAS)

bool graphblas_available() { return true; }

// LAGr_PageRank's loop ("GAP" variant: dangling mass redistributed), in FP64
// and without its convergence exit, so that exactly `iters` iterations are
// timed. The matrix import and vector set-up are outside the timing.
GraphBlasPageRank graphblas_pagerank(const Graph& g, int iters, double damping, int threads) {
  anchors::grb_init(threads);
  const auto n = static_cast<GrB_Index>(g.n_vertices());
  GrB_Matrix at = anchors::grb_matrix(g.directed() ? g.transpose() : g.adj(), /*ones=*/true);
  // d = out-degree / damping, present only for vertices with out-edges;
  // sinks: the vertices with none.
  std::vector<GrB_Index> di, sinks;
  std::vector<double> dx;
  for (vertex_t v = 0; v < g.n_vertices(); ++v) {
    const auto deg = g.adj().row_length(v);
    if (deg > 0) {
      di.push_back(static_cast<GrB_Index>(v));
      dx.push_back(static_cast<double>(deg) / damping);
    } else {
      sinks.push_back(static_cast<GrB_Index>(v));
    }
  }
  GrB_Vector d, r, t, w, sink_vals;
  GRAPHRUN_GRB(GrB_Vector_new(&d, GrB_FP64, n));
  GRAPHRUN_GRB(GrB_Vector_build_FP64(d, di.data(), dx.data(), di.size(), GrB_PLUS_FP64));
  GRAPHRUN_GRB(GrB_Vector_new(&r, GrB_FP64, n));
  GRAPHRUN_GRB(GrB_Vector_new(&t, GrB_FP64, n));
  GRAPHRUN_GRB(GrB_Vector_new(&w, GrB_FP64, n));
  GRAPHRUN_GRB(GrB_Vector_new(&sink_vals, GrB_FP64, sinks.size()));
  GRAPHRUN_GRB(GrB_Vector_assign_FP64(r, nullptr, nullptr, 1.0 / static_cast<double>(n), GrB_ALL, n,
                                      nullptr));
  GRAPHRUN_GRB(GrB_Matrix_wait(at, GrB_MATERIALIZE));
  const double teleport = (1 - damping) / static_cast<double>(n);
  Stopwatch sw;
  for (int k = 0; k < iters; ++k) {
    std::swap(t, r);  // t: the previous ranks
    double ssum = 0;
    if (!sinks.empty()) {
      GRAPHRUN_GRB(
          GrB_Vector_extract(sink_vals, nullptr, nullptr, t, sinks.data(), sinks.size(), nullptr));
      GRAPHRUN_GRB(
          GrB_Vector_reduce_FP64(&ssum, nullptr, GrB_PLUS_MONOID_FP64, sink_vals, nullptr));
      ssum *= damping / static_cast<double>(n);
    }
    GRAPHRUN_GRB(GrB_Vector_assign_FP64(r, nullptr, nullptr, teleport + ssum, GrB_ALL, n, nullptr));
    GRAPHRUN_GRB(GrB_Vector_eWiseMult_BinaryOp(w, nullptr, nullptr, GrB_DIV_FP64, t, d, nullptr));
    GRAPHRUN_GRB(GrB_mxv(r, nullptr, GrB_PLUS_FP64, GxB_PLUS_SECOND_FP64, at, w, nullptr));
    GRAPHRUN_GRB(GrB_Vector_assign(t, nullptr, GrB_MINUS_FP64, r, GrB_ALL, n, nullptr));
    GRAPHRUN_GRB(GrB_Vector_apply(t, nullptr, nullptr, GrB_ABS_FP64, t, nullptr));
    double rdiff = 0;
    GRAPHRUN_GRB(GrB_Vector_reduce_FP64(&rdiff, nullptr, GrB_PLUS_MONOID_FP64, t, nullptr));
  }
  GraphBlasPageRank out;
  out.seconds = sw.seconds();
  out.rank.assign(n, 0.0);
  std::vector<GrB_Index> ri(n);
  std::vector<double> rx(n);
  GrB_Index nv = n;
  GRAPHRUN_GRB(GrB_Vector_extractTuples_FP64(ri.data(), rx.data(), &nv, r));
  for (GrB_Index k = 0; k < nv; ++k) out.rank[ri[k]] = rx[k];
  GrB_Matrix_free(&at);
  GrB_Vector_free(&d);
  GrB_Vector_free(&r);
  GrB_Vector_free(&t);
  GrB_Vector_free(&w);
  GrB_Vector_free(&sink_vals);
  return out;
}

#else

bool graphblas_available() { return false; }
GraphBlasPageRank graphblas_pagerank(const Graph&, int, double, int) { return {}; }

#endif  // GRAPHRUN_HAVE_GRAPHBLAS

// ---------------------------------------------------------------- drivers

#if defined(GRAPHRUN_HAVE_CUDA)

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
SpmvTimes spmv_ms(const Graph& g, SpmvFormat format, int reps) {
  const Csr<double>& t = g.directed() ? g.transpose() : g.adj();
  DeviceCsr<double> at(t.n_rows(), t.n_cols(),
                       DeviceArray<offset_t>{std::span<const offset_t>(t.row_ptr())},
                       DeviceArray<vertex_t>{std::span<const vertex_t>(t.col_idx())},
                       DeviceArray<double>());  // a pattern, as unweighted PageRank uses
  const cuda::SpmvOperator<double> op(at, format);
  std::vector<double> ones(static_cast<std::size_t>(g.n_vertices()), 1.0);
  DeviceArray<double> x{std::span<const double>(ones)}, y(ones.size());
  SpmvTimes out;
  out.ours = gpu_median_ms(
      reps, [&](cudaStream_t s) { op.apply<PlusTimes<double>>(x.data(), y.data(), {}, s); });
  anchors::CusparseSpmv anchor(at, x.data(), y.data());
  out.cusparse = gpu_median_ms(reps, [&](cudaStream_t s) { anchor.run(s); });
  return out;
}

// The renumbered copy of g (ids 0 .. n-1) that the GPU iterates over under
// `order`, built on the host: what the anchor and the lone SpMV run on to
// show how much of a gain is the ordering's and how much the kernels'.
Graph renumbered(const Graph& g, const std::vector<vertex_t>& order) {
  return Graph(permute(g.adj(), order), {}, g.directed(), g.weighted());
}

void run_gpu(const PageRankBenchOptions& a) {
  Context gpu(Device::cuda);
  Context cpu(Device::cpu, a.common.threads);
  const int reps = a.common.reps > 0 ? a.common.reps : 5;
  const double bw = cuda::measured_copy_bandwidth() * 1e9;  // bytes per second
  std::printf(
      "GPU PageRank: median of %d runs of %d iterations, unweighted, double precision (ms per "
      "iteration: the iterations' time over their count, as the command line runs them), under "
      "each vertex ordering; cuSPARSE's iteration on the input order and on graphrun's; device "
      "copy bandwidth %.0f GB/s\n\n",
      reps, a.iters, bw / 1e9);
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
    PageRankOptions o = fixed_iterations(a.iters);
    const PageRankResult want = pagerank(cpu, g, o);
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
      if (how != Reorder::none) copy = renumbered(g, vertex_order(g.adj().view(), how));
      const Graph& ran = how != Reorder::none ? copy : g;
      const SpmvTimes one_spmv = spmv_ms(ran, r.format, std::max(reps, 10));
      double renumbered_anchor_ms = anchor_ms;
      if (how != Reorder::none) {
        std::vector<double> unused, at;
        for (int rep = 0; rep < reps; ++rep)
          at.push_back(anchors::cusparse_pagerank_ms(ran, a.iters, o.damping, &unused));
        renumbered_anchor_ms = median(at);
      }
      // Bytes an iteration must move: Aᵀ's row_ptr and col_idx, x gathered
      // at least once, y written; the update reads y, r, 1/outw and writes
      // r', x.
      const double n = g.n_vertices(), e = static_cast<double>(g.n_edges());
      const double floor_ms = (8 * (n + 1) + 4 * e + 8 * n + 8 * n + 40 * n) / bw * 1e3;
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

#endif  // GRAPHRUN_HAVE_CUDA

void run_cpu(const PageRankBenchOptions& a) {
  Context cpu(Device::cpu, a.common.threads);
  const int reps = a.common.reps > 0 ? a.common.reps : 5;
  const bool anchor = graphblas_available();
  std::printf(
      "CPU PageRank: %d threads, median of %d runs of %d iterations, unweighted, double "
      "precision%s\n\n",
      cpu.threads(), reps, a.iters,
      anchor ? "; beside GraphBLAS (LAGraph's PageRank loop)"
             : "; this build has no GraphBLAS to compare with");
  Table table({"graph", "vertices", "edges", "graphrun ms/iter", "GraphBLAS ms/iter",
               "GraphBLAS / graphrun", "L1(graphrun, GraphBLAS)"},
              a.common.csv);
  ClassSummary summary({{"GraphBLAS / graphrun", true}});
  for_each_graph(a.common, [&](const BenchGraph& bg) {
    const Graph& g = bg.graph;
    (void)g.transpose();  // both sides get the transpose outside the timing
    const PageRankOptions o = fixed_iterations(a.iters);
    PageRankResult ours;
    GraphBlasPageRank theirs;
    std::vector<double> ours_t, theirs_t;
    pagerank(cpu, g, o);  // warm-up
    if (anchor) graphblas_pagerank(g, 2, o.damping, cpu.threads());
    // Alternate the two, so that a slow spell of the machine hits both.
    for (int rep = 0; rep < reps; ++rep) {
      ours = pagerank(cpu, g, o);
      ours_t.push_back(ours.seconds * 1e3 / ours.iterations);
      if (anchor) {
        theirs = graphblas_pagerank(g, a.iters, o.damping, cpu.threads());
        theirs_t.push_back(theirs.seconds * 1e3 / a.iters);
      }
    }
    const double ours_ms = median(ours_t);
    const double theirs_ms = anchor ? median(theirs_t) : 0;
    table.row({bg.name, std::to_string(g.n_vertices()), std::to_string(g.n_edges()),
               fixed(ours_ms, 3), anchor ? fixed(theirs_ms, 3) : "-",
               anchor ? fixed(theirs_ms / ours_ms, 2) : "-",
               anchor ? format("%.1e", l1(ours.rank, theirs.rank)) : "-"});
    if (anchor) summary.add(g.n_edges(), {theirs_ms / ours_ms});
  });
  table.finish();
  summary.print();
}

}  // namespace

Command add_bench_pagerank(CLI::App& bench) {
  auto args = std::make_shared<PageRankBenchOptions>();
  CLI::App* sub = bench.add_subcommand(
      "pagerank",
      "Milliseconds per PageRank iteration: on the GPU beside one SpMV of the same operator\n"
      "and the memory floor; on the CPU beside SuiteSparse:GraphBLAS (LAGraph's loop)");
  add_bench_options(*sub, args->common);
  sub->add_option("--iters", args->iters, "Iterations per run (>= 2)")
      ->check(int_at_least(2, "an iteration count >= 2"))
      ->capture_default_str()
      ->type_name("K");
  sub->add_option_function<std::vector<std::string>>(
         "--reorder",
         [args](const std::vector<std::string>& names) {
           args->orderings.clear();
           for (const auto& name : names) args->orderings.push_back(parse_reorder(name));
         },
         "GPU: the vertex orderings to run, comma-separated (none, degree, hubsort, dbg, rcm,\n"
         "auto); a row for each. The first is the baseline of the break-even count: the\n"
         "iterations an ordering needs to repay its cost. Default: none,auto")
      ->delimiter(',')
      ->type_name("LIST");
  sub->footer(
      "\nEXAMPLES:\n"
      "  graphrun bench pagerank gen:rmat:22 --undirected --device cuda\n"
      "  graphrun bench pagerank --suite datasets --threads 2\n");
  return {sub, [args, sub] {
            const Device device = parse_device(args->common.device);
            if (device == Device::cpu && sub->count("--reorder") > 0)
              throw ArgumentError(
                  "--reorder compares vertex orderings on the GPU; use it with --device cuda");
            if (device == Device::cuda) {
#if defined(GRAPHRUN_HAVE_CUDA)
              if (cuda_device_count() == 0)
                throw ArgumentError("--device cuda: no CUDA device found; use --device cpu");
              run_gpu(*args);
#else
              throw ArgumentError(
                  "this build of graphrun has no CUDA backend; use --device cpu");
#endif
            } else {
              run_cpu(*args);
            }
          }};
}

}  // namespace graphrun::cli::bench
