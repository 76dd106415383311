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
#include "cuda/pagerank_cuda.hpp"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/vertex_order.hpp"

namespace graphrun::cli::bench {

namespace {

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
    const PageRankOptions o = fixed_iterations(a.iters, a.gather);
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
  // One comma-separated word, not a list of words: a list option would take the
  // inputs that follow it as more orderings.
  sub->add_option_function<std::string>(
         "--reorder",
         [args](const std::string& list) {
           args->orderings.clear();
           for (std::size_t at = 0; at <= list.size();) {
             const std::size_t comma = std::min(list.find(',', at), list.size());
             args->orderings.push_back(parse_reorder(list.substr(at, comma - at)));
             at = comma + 1;
           }
         },
         "GPU: the vertex orderings to run, comma-separated (none, degree, hubsort, dbg, rcm,\n"
         "rabbit, auto); a row for each. The first is the baseline of the break-even count: the\n"
         "iterations an ordering needs to repay its cost. Default: none,auto")
      ->type_name("LIST");
  sub->add_option_function<std::string>(
         "--gather",
         [args](const std::string& name) {
           args->gather = pagerank_gather_named(name).value_or(PageRankGather::float64);
         },
         "How graphrun's iterations read x: double (the default, as the anchors do) or\n"
         "float (a float copy gathered, as pagerank --gather float; sums and ranks stay\n"
         "double); auto is double here, the tolerance of a fixed count being tiny")
      ->check(CLI::IsMember({"auto", "float", "double"}))
      ->type_name("P");
  sub->add_option_function<std::string>(
         "--format", [args](const std::string& name) { args->format = parse_spmv_format(name); },
         "GPU: the SpMV format of graphrun's iterations (" + spmv_format_names() +
             "); auto, the default, is the chooser's pick, as in graphrun pagerank")
      ->type_name("F");
  sub->footer(
      "\nEXAMPLES:\n"
      "  graphrun bench pagerank gen:rmat:22 --undirected --device cuda\n"
      "  graphrun bench pagerank gen:uniform:4000000:16 --device cuda --gather float\n"
      "  graphrun bench pagerank --suite datasets --threads 2\n");
  return {sub, [args, sub] {
            const Device device = parse_device(args->common.device);
            if (device == Device::cpu && sub->count("--reorder") > 0)
              throw ArgumentError(
                  "--reorder compares vertex orderings on the GPU; use it with --device cuda");
            if (device == Device::cpu && args->format != SpmvFormat::automatic)
              throw ArgumentError(
                  "--format picks the GPU iterations' SpMV format; the CPU runs CSR; use it with "
                  "--device cuda");
            if (device == Device::cuda) {
              if (!cuda_backend_built())
                throw ArgumentError("this build of graphrun has no CUDA backend; use --device cpu");
              if (cuda_device_count() == 0)
                throw ArgumentError("--device cuda: no CUDA device found; use --device cpu");
              run_pagerank_cuda(*args);
            } else {
              run_cpu(*args);
            }
          }};
}

}  // namespace graphrun::cli::bench
