// graphrun experiment mcl: Markov clustering with expansion by graphrun's
// SpGEMM against expansion by cuSPARSE's (GPU, the rest of the loop
// shared), or graphrun's MCL against the mcl program (CPU, mcl -te 2).
#include "graphrun/algorithms/mcl.hpp"

#include <memory>
#include <string>
#include <vector>

#include "anchors/mcl_program.hpp"
#include "bench/cuda/spgemm_cuda.hpp"
#include "cuda/gpu_runs.hpp"
#include "experiment.hpp"
#include "graphrun/algorithms/cluster_compare.hpp"
#include "graphrun/engine/error.hpp"

namespace graphrun::cli::experiment {

namespace {

std::string ms(double seconds) { return bench::fixed(seconds * 1e3, 1); }

// "ARI / NMI" of a clustering against the communities planted in a
// generated graph (gen:lfr); "-" for a graph without them.
std::string against_planted(const bench::BenchGraph& bg, const std::vector<vertex_t>& cluster) {
  if (bg.planted.empty()) return "-";
  return format("%.4f / %.4f", adjusted_rand_index(cluster, bg.planted),
                normalized_mutual_information(cluster, bg.planted));
}

// The row of a graph MCL did not take: its name and size, `why` in the
// column before the last (where the clusterings are compared), "-" elsewhere.
std::vector<std::string> skipped_row(const bench::Table& table, const bench::BenchGraph& bg,
                                     const char* why) {
  std::vector<std::string> row(table.columns().size(), "-");
  row[0] = bg.name;
  row[1] = std::to_string(bg.graph.n_vertices());
  row[2] = std::to_string(bg.graph.n_edges());
  row[row.size() - 2] = std::string("skipped: ") + why;
  return row;
}

void run_gpu(ExperimentOptions& o, const MclOptions& options) {
  if (!cuda_backend_built())
    throw ArgumentError("experiment mcl --device cuda: this build has no CUDA backend");
  CommonOptions common;
  common.device = "cuda";
  Context ctx = make_context(common, "mcl");
  // web-Google's stand-in for MCL is an LFR graph of its size, with communities
  // for the flow to find (R-MAT has none: its columns fill up to -S).
  default_inputs(o, {"gen:grid:1183x1183", "gen:lfr:875713:0.3:12:100"});
  bench::Table table({"graph", "vertices", "edges", "iterations", "clusters", "cuSPARSE ms/iter",
                      "graphrun ms/iter", "speed-up/iter", "cuSPARSE total ms", "graphrun total ms",
                      "expansion share", "same clusters", "vs planted: ARI / NMI"},
                     o.graphs.csv);
  // The published MCL iteration speed-up (58.4% less time: 2.40x).
  SpeedUps speed_ups(2.40, "cuSPARSE");
  bench::for_each_graph(o.graphs, [&](const bench::BenchGraph& bg) {
    const Graph& g = bg.graph;
    if (g.n_vertices() == 0) return;
    MclPair p;
    try {
      p = mcl_both_cuda(ctx, g, options, o.tune);
    } catch (const ArgumentError&) {
      throw;  // a bad --tune: the command's error, not the graph's
    } catch (const Error& e) {
      // A graph MCL does not take (negative weights), or one too large for
      // graphrun's own loop: a row that says so, and on to the next.
      table.row(skipped_row(table, bg, e.what()));
      return;
    }
    if (!p.anchor_error.empty()) {
      // cuSPARSE runs out of resources on the largest products: say so in
      // the table, with graphrun's figures, and go on.
      const double ours_it =
          (p.ours.phases.expansion + p.ours.phases.pruning) / std::max(p.ours.iterations, 1);
      table.row({bg.name, std::to_string(g.n_vertices()), std::to_string(g.n_edges()),
                 std::to_string(p.ours.iterations), std::to_string(p.ours.n_clusters), "fails",
                 ms(ours_it), "-", "fails", ms(p.ours.seconds), "-", "cuSPARSE: " + p.anchor_error,
                 against_planted(bg, p.ours.cluster)});
      speed_ups.anchor_failed(bg.name, g.n_edges(), "per iteration");
      return;
    }
    // Per iteration: the loop alone (expansion, pruning, inflation), setup
    // and interpretation left out; the two runs make the same iterations
    // when their clusters agree.
    const double ours_loop = p.ours.phases.expansion + p.ours.phases.pruning;
    const double anchor_loop = p.anchor.phases.expansion + p.anchor.phases.pruning;
    const double ours_it = ours_loop / std::max(p.ours.iterations, 1);
    const double anchor_it = anchor_loop / std::max(p.anchor.iterations, 1);
    const double speed_up = ours_it > 0 ? anchor_it / ours_it : 0;
    const double ari = adjusted_rand_index(p.ours.cluster, p.anchor.cluster);
    table.row({bg.name, std::to_string(g.n_vertices()), std::to_string(g.n_edges()),
               p.ours.iterations == p.anchor.iterations
                   ? std::to_string(p.ours.iterations)
                   : format("%d vs %d", p.anchor.iterations, p.ours.iterations),
               std::to_string(p.ours.n_clusters), ms(anchor_it), ms(ours_it),
               bench::fixed(speed_up, 2) + "x", ms(p.anchor.seconds), ms(p.ours.seconds),
               format("%.0f%% vs %.0f%%", 100 * p.anchor.phases.expansion / anchor_loop,
                      100 * p.ours.phases.expansion / ours_loop),
               same_clustering(p.ours.cluster, p.anchor.cluster) ? "yes" : format("ARI %.4f", ari),
               against_planted(bg, p.ours.cluster)});
    speed_ups.add(bg.name, g.n_edges(), "per iteration", speed_up);
  });
  table.finish();
  speed_ups.finish(o, "MCL iteration on the GPU: expansion by graphrun vs by cuSPARSE");
}

void run_cpu(ExperimentOptions& o, const MclOptions& options) {
  CommonOptions common;
  common.threads = o.graphs.threads > 0 ? o.graphs.threads : 2;
  Context ctx = make_context(common, "mcl");
  if (!anchors::mcl_program_available())
    throw ArgumentError(
        "experiment mcl on the CPU runs the mcl program, which was not found on "
        "PATH (Debian: apt-get install mcl)");
  default_inputs(o, {});
  bench::Table table({"graph", "vertices", "edges", "iterations", "clusters (graphrun/mcl)",
                      "mcl -te 2 ms", "graphrun ms", "speed-up", "graphrun cluster ms", "ARI",
                      "vs planted: ARI / NMI (graphrun; mcl)"},
                     o.graphs.csv);
  SpeedUps speed_ups(1.5, "mcl");
  bench::for_each_graph(o.graphs, [&](const bench::BenchGraph& bg) {
    const Graph& g = bg.graph;
    if (g.n_vertices() == 0) return;
    // Ours: load + cluster, as the mcl process reads its input and clusters.
    MclResult r;
    try {
      r = graphrun::mcl(ctx, g, options);
    } catch (const ArgumentError& e) {
      table.row(skipped_row(table, bg, e.what()));
      return;
    }
    const double ours = bg.load_seconds + r.seconds;
    std::vector<std::string> labels(static_cast<std::size_t>(g.n_vertices()));
    for (vertex_t v = 0; v < g.n_vertices(); ++v) labels[v] = g.label(v);
    anchors::MclProgramOptions mo;
    mo.inflation = options.inflation;
    mo.threads = common.threads;
    const anchors::MclProgramResult m = anchors::run_mcl_program(g.adj(), labels, mo);
    const double speed_up = ours > 0 ? m.seconds / ours : 0;
    table.row({bg.name, std::to_string(g.n_vertices()), std::to_string(g.n_edges()),
               std::to_string(r.iterations), format("%d / %d", r.n_clusters, m.n_clusters),
               ms(m.seconds), ms(ours), bench::fixed(speed_up, 2) + "x", ms(r.seconds),
               bench::fixed(adjusted_rand_index(r.cluster, m.cluster), 4),
               bg.planted.empty()
                   ? "-"
                   : against_planted(bg, r.cluster) + "; " + against_planted(bg, m.cluster)});
    speed_ups.add(bg.name, g.n_edges(), "graphrun vs mcl -te 2", speed_up);
  });
  table.finish();
  speed_ups.finish(o, "MCL on the CPU: graphrun vs the mcl program (-te 2)");
}

}  // namespace

Command add_mcl(CLI::App& experiment) {
  auto o = std::make_shared<ExperimentOptions>();
  CLI::App* sub = experiment.add_subcommand(
      "mcl",
      "Markov clustering: expansion by graphrun against cuSPARSE (GPU) or against mcl (CPU)\n"
      "--device cuda: graphrun's MCL twice on the GPU, expanding with graphrun's SpGEMM and\n"
      "with cuSPARSE's, pruning, inflation and interpretation shared; time per iteration\n"
      "and in total, and whether the clusters are the same. --device cpu (default):\n"
      "graphrun's MCL (load + cluster) against the mcl program (mcl -te THREADS, its whole\n"
      "run), same parameters, with the adjusted Rand index of the two clusterings.");
  bench::add_bench_options(*sub, o->graphs);
  sub->add_option("-I,--inflation", o->inflation, "Inflation (mcl's -I)")
      ->check(real_in(1, true, 1e6, false, "an inflation > 1"))
      ->capture_default_str();
  sub->add_option("--max-iter", o->max_iter,
                  "Stop MCL after N iterations (0 = at convergence); for the largest graphs")
      ->check(int_at_least(0, "an iteration count >= 0"));
  add_experiment_options(*sub, *o);
  sub->add_option("--tune", o->tune,
                  std::string(bench::kSpgemmTuneHelp) + "; --device cuda only, for graphrun's side")
      ->type_name("KEY=N")
      ->allow_extra_args(false);  // one KEY=N a --tune: inputs may follow
  return {sub, [o] {
            if (!o->tune.empty() && parse_device(o->graphs.device) != Device::cuda)
              throw ArgumentError("experiment mcl: --tune tunes the GPU SpGEMM; add --device cuda");
            MclOptions options;
            options.inflation = o->inflation;
            if (o->max_iter > 0) options.max_iterations = o->max_iter;
            if (parse_device(o->graphs.device) == Device::cuda)
              run_gpu(*o, options);
            else
              run_cpu(*o, options);
          }};
}

}  // namespace graphrun::cli::experiment
