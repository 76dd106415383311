// graphrun pagerank: PageRank by power iteration (algorithms/pagerank.hpp).
#include <algorithm>
#include <memory>
#include <numeric>

#include "cli/phase_trace.hpp"
#include "common.hpp"
#include "graphrun/algorithms/pagerank.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/spmv_format.hpp"
#include "graphrun/engine/vertex_order.hpp"
#include "graphrun/io/vertex_values.hpp"
#include "graphrun/io/write.hpp"
#include "kernel_priming.hpp"
#include "progress.hpp"
#include "spmv_format_help.hpp"
#include "vertex_lines.hpp"

namespace graphrun::cli {

namespace {

struct PageRankArgs {
  CommonOptions common;
  double damping = 0.85;
  double tol = 1e-6;
  int max_iter = 100;
  int top = 10;
  bool unweighted = false;
  std::string format = "auto";
  std::string reorder = "auto";
  std::string output;
  std::string start;  // ranks of an earlier run: the warm start
  std::string method = "auto";
  std::string gather = "auto";
  int trials = 1;
};

const char* const reorder_help =
    "Renumber the vertices for locality before iterating: auto, none, degree, hubsort,\n"
    "dbg, rcm or rabbit (see ORDERINGS below). Output is by input id whatever the ordering.\n"
    "auto takes the ordering a .grb cache keeps (graphrun convert --reorder), else keeps\n"
    "the input order: no ordering computed in the run repaid its cost within a run at the\n"
    "default tolerance, on the GPU or the CPU";

std::string format_help() {
  return spmv_format_option_help(
      "SpMV format on the GPU (--device cuda)",
      "auto picks one from the row statistics of the transposed graph\n"
      "(row lengths: mean, spread, longest, empty rows); the CPU always runs CSR");
}

int run_pagerank(PageRankArgs& a) {
  const SpmvFormat spmv_format = parse_spmv_format(a.format);
  const Reorder reorder = parse_reorder(a.reorder);
  PageRankMethod method = PageRankMethod::automatic;
  for (const PageRankMethod m :
       {PageRankMethod::jacobi, PageRankMethod::gauss_seidel, PageRankMethod::chebyshev})
    if (a.method == to_string(m)) method = m;
  // --gather's check admits only the names.
  const PageRankGather gather = pagerank_gather_named(a.gather).value_or(PageRankGather::automatic);
  if (method == PageRankMethod::gauss_seidel && gather == PageRankGather::float32)
    throw ArgumentError(
        "--gather float does not apply to --method gauss-seidel, whose sweep "
        "reads the ranks it has just made in double; leave --gather out");
  // The GPU run's kernels are loaded while the input is read: those of the
  // method it will run, automatic's by --undirected (a symmetric Matrix
  // Market file, undirected without it, then loads Chebyshev's lazily).
  const PageRankMethod primed =
      method == PageRankMethod::automatic
          ? (a.common.undirected ? PageRankMethod::chebyshev : PageRankMethod::jacobi)
          : method;
  Context ctx = make_context(a.common, "pagerank", DeviceCheck::at_load,
                             primed == PageRankMethod::gauss_seidel
                                 ? std::function<void()>{}
                                 : pagerank_priming(0, spmv_format, reorder, primed));
  if (ctx.device() == Device::cuda && method == PageRankMethod::gauss_seidel)
    throw ArgumentError("--method " + a.method +
                        " runs on the CPU; with --device cuda use --method jacobi, chebyshev "
                        "or auto");
  if (ctx.device() == Device::cpu && spmv_format != SpmvFormat::automatic)
    throw ArgumentError("--format " + a.format +
                        " chooses a GPU kernel; with --device cpu PageRank runs the CPU's CSR "
                        "kernel (leave --format out or use --device cuda)");
  if (!a.output.empty()) check_output_path(a.output);

  if (!a.unweighted) {
    a.common.non_negative_weights = true;
    a.common.negative_weight_hint =
        "PageRank needs weights >= 0 (they are transition probabilities); --unweighted "
        "ignores the weights";
  }
  a.common.keep_on_device = true;  // the iterations start from A as loaded
  const Loaded in = [&a] {
    // The priming stops once the input is loaded, or fails to load (the
    // exit then waits only for the run it is in).
    const struct StopPriming {
      ~StopPriming() { stop_priming(); }
    } stop;
    return load_input(a.common, DeviceCheck::at_load);
  }();
  const Graph& g = in.graph;

  PageRankOptions options;
  options.damping = a.damping;
  options.tol = a.tol;
  options.max_iter = a.max_iter;
  options.use_weights = !a.unweighted;
  options.format = spmv_format;
  options.reorder = reorder;
  options.method = method;
  options.gather = gather;
  io::VertexValues start;
  std::string start_note;
  if (!a.start.empty()) {
    start =
        io::read_vertex_values(a.start, g, {.non_negative = true, .graph_name = a.common.input});
    if (std::all_of(start.value.begin(), start.value.end(), [](double x) { return x == 0.0; }))
      throw InputError(a.start,
                       "no vertex of the graph has a rank above 0 in it; nothing to start from");
    options.start = start.value;
    const auto count = [](std::int64_t k, const char* one, const char* many) {
      return format("%lld %s", static_cast<long long>(k), k == 1 ? one : many);
    };
    start_note = format(", start %s", a.start.c_str());
    if (start.missing > 0)
      start_note += " (" + count(start.missing, "vertex", "vertices") + " not in it, started at 0)";
    if (start.unknown > 0)
      start_note +=
          " (" + count(start.unknown, "line", "lines") + " for vertices not in the graph, skipped)";
  }
  // The bar reads what the iteration reports as it goes (StepProgress); no
  // on_iteration callback, which would make the GPU stop for the host after
  // every iteration.
  ProgressBar bar("pagerank", !a.common.quiet);
  StepProgress step;
  options.progress = &step;
  bar.watch(&step, [&ctx, max_iter = a.max_iter, &step](int it, double f) {
    const double l1 = step.residual.load(std::memory_order_relaxed);
    std::string text = format("iteration %d/%d", it, max_iter);
    if (ctx.device() == Device::cpu) text += format(" (%.0f%% of its rows)", 100 * f);
    if (l1 >= 0) text += format(", L1 %.2e", l1);
    return text;
  });
  // --trials: the mean over that many runs, as the GAP reference's -n
  // reports, so that a comparison is not of one cold run.
  const auto trials = run_trials(a.trials, [&] { return pagerank(ctx, g, options); });
  const PageRankResult& r = trials.last;
  const double seconds_rank = trials.seconds;
  bar.finish();
  trace_phase("pagerank done");

  const auto n = static_cast<std::size_t>(g.n_vertices());
  Stopwatch write_time;
  if (!a.output.empty()) {
    // Every vertex in dense id order: ascending input id, or order of first
    // appearance for named (--abc) input.
    ProgressBar wbar("write", !a.common.quiet);
    io::OutputFile out(a.output);
    {
      TextWriter w(out.stream());
      write_vertex_lines(
          w, n,
          [&](TextWriter& line, std::size_t v) {
            put_vertex(line, g, static_cast<vertex_t>(v)).put('\t').put(r.rank[v]).put('\n');
          },
          [&](double f) { wbar.update(f); });
    }
    wbar.finish();
    out.commit();
  }
  if (a.output != "-" && a.top > 0) {
    // The K best: rank descending, ties by dense id (input id ascending, or
    // first appearance for names).
    const std::size_t k = std::min(n, static_cast<std::size_t>(a.top));
    std::vector<vertex_t> order(n);
    std::iota(order.begin(), order.end(), vertex_t{0});
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                      [&](vertex_t x, vertex_t y) {
                        if (r.rank[x] != r.rank[y]) return r.rank[x] > r.rank[y];
                        return x < y;
                      });
    {
      TextWriter w(stdout);
      for (std::size_t i = 0; i < k; ++i)
        put_vertex(w, g, order[i]).put('\t').put(r.rank[order[i]]).put('\n');
    }
    check_stdout();
  }
  const double seconds_write = write_time.seconds();
  trace_phase("output written");

  const std::string where =
      ctx.device() == Device::cuda
          ? format("cuda, SpMV %s", std::string(to_string(r.format)).c_str())
          : format("cpu, %d thread%s", ctx.threads(), ctx.threads() == 1 ? "" : "s");
  // On the GPU, what the iterations cost apart from moving the graph there
  // and preparing it (out-weights, transpose, ordering, format), that
  // preparation also in iterations (what a set-up is worth against the work
  // it serves), and the ranks' way back.
  std::string rank_split;
  if (ctx.device() == Device::cuda) {
    const double per_iteration = r.iterations > 0 ? r.compute_seconds / r.iterations : 0.0;
    const double prepared = r.setup_seconds - r.upload_seconds;
    rank_split = format(" (setup %.3f s: graph onto the device %.3f s, then %.3f s",
                        r.setup_seconds, r.upload_seconds, prepared);
    if (per_iteration > 0) rank_split += format(" = %.1f iterations", prepared / per_iteration);
    rank_split +=
        format("; iterations %.3f s; ranks back %.3f s)", r.compute_seconds, r.finish_seconds);
  }
  // An ordering's cost, in the iterations' own currency.
  std::string ordering;
  if (r.reorder != Reorder::none) {
    // The CPU does not split its time: there, all of it but the ordering's.
    const double iterating =
        r.compute_seconds > 0 ? r.compute_seconds : r.seconds - r.reorder_seconds;
    const double per_iteration = r.iterations > 0 ? iterating / r.iterations : 0.0;
    ordering = format(", ordering %s%s %.3f s", std::string(to_string(r.reorder)).c_str(),
                      r.reorder_stored ? " (stored, renumbering only)" : "", r.reorder_seconds);
    if (per_iteration > 0)
      ordering += format(" (%.1f iterations)", r.reorder_seconds / per_iteration);
  }
  print_summary(a.common,
                format("pagerank: %s, %d iteration%s (%s, L1 %.2g, %s%s)%s, %s%s, load %.3f s, "
                       "rank %.4f s%s%s, write %.3f s",
                       graph_size(g).c_str(), r.iterations, r.iterations == 1 ? "" : "s",
                       r.converged ? "converged" : "NOT converged", r.residual, to_string(r.method),
                       r.float_gathers ? ", x gathered in float" : "", start_note.c_str(),
                       where.c_str(), ordering.c_str(), in.seconds, seconds_rank,
                       trials_note(trials.each).c_str(), rank_split.c_str(), seconds_write));
  return convergence_status(r.converged, a.common.quiet, "pagerank",
                            format("the L1 change %.2g after %d iterations is above --tol %.2g",
                                   r.residual, r.iterations, a.tol),
                            "ranks written are the last iterate");
}

}  // namespace

Command add_pagerank(CLI::App& root) {
  auto args = std::make_shared<PageRankArgs>();
  CLI::App* sub = root.add_subcommand(
      "pagerank",
      "PageRank score of every vertex (power iteration)\n"
      "Computes r = d * (A^T D^-1 r + dangling/n) + (1 - d)/n until the L1 change of r is\n"
      "below --tol, or for --max-iter iterations: damping d, uniform teleport, the rank of\n"
      "vertices without out-edges spread uniformly, ranks sum to 1 (NetworkX's pagerank()).\n"
      "In a weighted graph a vertex's rank flows along out-edges in proportion to weight.");
  add_common_options(*sub, args->common);
  sub->add_option("--damping,-d", args->damping, "Damping factor d, in [0, 1)")
      ->check(real_in(0, false, 1, true, "a damping factor in [0, 1)"))
      ->capture_default_str()
      ->type_name("D");
  sub->add_option("--tol", args->tol,
                  "Stop when the L1 change is below this (> 0). Where EPS >= 9.5e-7 a large graph "
                  "is iterated with x gathered in float (see --gather)")
      ->check(real_in(0, true, 1e300, false, "a tolerance > 0"))
      ->capture_default_str()
      ->type_name("EPS");
  sub->add_option("--max-iter", args->max_iter, "Stop after this many iterations (>= 1)")
      ->check(int_at_least(1, "an iteration count >= 1"))
      ->capture_default_str()
      ->type_name("N");
  sub->add_option("--top,-k", args->top, "Print the K highest-ranked vertices on stdout (0 = none)")
      ->check(int_at_least(0, "a count >= 0"))
      ->capture_default_str()
      ->type_name("K");
  sub->add_flag("--unweighted", args->unweighted,
                "Ignore edge weights: split rank evenly over out-edges");
  sub->add_option("--format", args->format, format_help())->capture_default_str()->type_name("FMT");
  sub->add_option("--reorder", args->reorder, reorder_help)
      ->capture_default_str()
      ->type_name("ORDER");
  sub->add_option("--method", args->method,
                  "jacobi: every rank of an iteration from the ranks of the one before\n"
                  "(NetworkX's iteration). gauss-seidel (CPU only): each thread sweeps its\n"
                  "block of vertices in order, reading the ranks the block already updated\n"
                  "in this sweep; same ranks to about --tol, fewer iterations where\n"
                  "neighbours have nearby ids (web crawls, road networks). chebyshev\n"
                  "(undirected graphs): Jacobi steps accelerated by the Chebyshev recurrence,\n"
                  "a third to a half of Jacobi's iterations on graphs with several components,\n"
                  "roads and meshes. auto, the default: chebyshev on an undirected graph,\n"
                  "jacobi on a directed one (see METHODS)")
      ->check(CLI::IsMember({"auto", "jacobi", "gauss-seidel", "chebyshev"}))
      ->capture_default_str()
      ->type_name("M");
  sub->add_option("--gather", args->gather,
                  "How each iteration's SpMV reads x, the ranks over the out-weights:\n"
                  "float gathers a float copy of it (half the bytes of its scattered reads;\n"
                  "sums and ranks stay double, which then lie up to 3.4e-7 (L1) further from\n"
                  "the fixed point), double reads x itself. auto: float where --tol >= 9.5e-7\n"
                  "and x is large (on the CPU past the caches with scattered reads, on the GPU\n"
                  "from 2^19 vertices), else double. The summary says 'x gathered in float'.\n"
                  "float with --tol below about 1e-7 may stop at --max-iter: the float\n"
                  "copy's rounding keeps the L1 change about there")
      ->check(CLI::IsMember({"auto", "float", "double"}))
      ->capture_default_str()
      ->type_name("P");
  sub->add_option("--output,-o", args->output,
                  "Write the rank of every vertex to OUT ('-' = stdout, then no top-K list)")
      ->check(output_path())
      ->type_name("OUT");
  sub->add_option("--start", args->start,
                  "Start from the ranks in FILE ('ID<TAB>RANK' lines, as --output writes them)\n"
                  "instead of uniform ranks: after the graph changed a little, an earlier\n"
                  "run's ranks converge in a few iterations. Vertices not in FILE start at 0,\n"
                  "lines for vertices the graph no longer has are skipped, the ranks are\n"
                  "scaled to sum 1; the summary counts both")
      ->type_name("FILE");
  add_trials_option(*sub, args->trials);
  sub->footer(
      std::string(
          "OUTPUT:\n"
          "  Tab-separated 'ID<TAB>RANK' lines, IDs as in the input (names with --abc),\n"
          "  ranks with 17 significant digits. stdout gets the top K, by rank descending\n"
          "  (ties by id); --output gets every vertex in ascending id order. With --abc,\n"
          "  'id order' is the order in which names first appear in INPUT. A summary\n"
          "  line (sizes, iterations, residual, method, device and SpMV format, times)\n"
          "  goes to stderr. A run that stops at --max-iter before the L1 change is below\n"
          "  --tol still writes its ranks (the last iterate), says so and exits with\n"
          "  status 3.\n"
          "WEIGHTS:\n"
          "  A weighted graph's weights must be >= 0: the first negative one ends the run\n"
          "  with exit status 2 naming FILE:LINE (--unweighted ignores the weights). A rank\n"
          "  that becomes NaN or infinite (weights summing past the range of a double)\n"
          "  ends it with status 1 naming the iteration; no such rank is ever written.\n"
          "DEVICE:\n"
          "  --device cuda runs the iterations on the GPU (double precision, the graph\n"
          "  uploaded once); ranks equal --device cpu's up to rounding (summation order)\n"
          "  and, where one device gathers x in float and the other not (--gather auto\n"
          "  decides by each device's own rule), up to 3.4e-7 in L1.\n"
          "METHODS (--method):\n"
          "  auto, the default, runs chebyshev on an undirected graph (--undirected, or\n"
          "  a symmetric Matrix Market file) and jacobi on a directed one, on either\n"
          "  device: Chebyshev's recurrence needs real eigenvalues, which only an\n"
          "  undirected graph's iteration matrix is sure to have, and there it needs\n"
          "  fewer iterations where jacobi is slow (see chebyshev below). The summary\n"
          "  line names the method run. jacobi is NetworkX's iteration, the same on\n"
          "  every device and thread count up to rounding: ask for it to reproduce\n"
          "  NetworkX's iterates, not only its fixed point.\n"
          "  gauss-seidel is the block Gauss-Seidel iteration of\n"
          "  the GAP benchmark's PageRank made deterministic: the vertices are cut into\n"
          "  one consecutive block per thread, and within its block a thread reads the\n"
          "  ranks it has already updated. Same fixed point, stopped by the same rule;\n"
          "  the ranks differ from jacobi's by about --tol, and depend on --threads.\n"
          "  chebyshev solves the same linear system as jacobi by Chebyshev\n"
          "  semi-iteration: each step takes the Jacobi step y and moves to\n"
          "  w (y - r_prev) + r_prev. An undirected graph's iteration matrix has real\n"
          "  eigenvalues in [-d, d], and there the error falls by d / (1 + sqrt(1 - d^2))\n"
          "  an iteration (0.557 at d = 0.85) instead of by up to d. It takes Jacobi\n"
          "  steps while those fall faster than that (expanders such as R-MAT graphs),\n"
          "  then accelerates. Stopped by jacobi's rule (the L1 change of a Jacobi\n"
          "  step); the ranks agree with jacobi's to about --tol. A directed graph's\n"
          "  eigenvalues are complex, where it would diverge: refused (exit 2).\n"
          "ORDERINGS (--reorder):\n"
          "  A renumbering of the vertices after which the ranks an iteration gathers lie\n"
          "  closer together in memory. degree: every vertex by degree, descending (the\n"
          "  hubs' ranks stay in cache). hubsort: above-average degrees first, by degree;\n"
          "  the rest in input order. dbg: groups of degree in [2^k, 2^(k+1)), largest\n"
          "  first, each in input order. rcm: reverse Cuthill-McKee, for meshes and road\n"
          "  networks. rabbit: Rabbit Order, communities found by merging each vertex, low\n"
          "  degrees first, into the neighbouring community that raises the modularity\n"
          "  most, numbered so that each community takes consecutive ids: for graphs of\n"
          "  strong communities (seconds per 10^7 edges, on every thread). On the GPU,\n"
          "  degree, hubsort and dbg are computed on the device, rcm and rabbit on the\n"
          "  host, and every ordering is applied there. The cost is in the summary, also\n"
          "  in iterations. Measured gains per iteration: up to ~10% on the GPU (dbg or\n"
          "  degree on R-MAT), repaid after 23-30 iterations; on 2 CPU threads 1.3-1.5x\n"
          "  (dbg or rcm on R-MAT and web graphs, rabbit on a 1M-vertex LFR graph), repaid\n"
          "  after 20-40 iterations of renumbering. So for long runs (--tol 1e-10), or\n"
          "  stored once: `graphrun convert IN OUT.grb --reorder ORDER` keeps an ordering\n"
          "  in the cache, and pagerank on OUT.grb renumbers by it without computing it\n"
          "  (--reorder auto, the default, or the same name; --reorder none ignores it).\n"
          "  On the GPU, `graphrun bench pagerank --device cuda --reorder LIST` measures\n"
          "  the gain and the iterations to break even on your graphs.\n") +
      spmv_formats_section() + input_help() + exit_status_help +
      "\nEXAMPLE:\n"
      "  graphrun pagerank web-Google.txt.gz --top 5 --output ranks.tsv\n"
      "  graphrun pagerank yeast-ppi.abc --abc --undirected --top 5\n"
      "  graphrun pagerank web-Google-v2.txt.gz --start ranks.tsv -o ranks-v2.tsv\n");
  return {sub, [args] { return run_pagerank(*args); }};
}

}  // namespace graphrun::cli
