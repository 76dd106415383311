// graphrun mcl: Markov clustering (algorithms/mcl.hpp), written as the mcl
// program writes clusters with --abc.
#include <memory>

#include "common.hpp"
#include "graphrun/algorithms/cluster_compare.hpp"
#include "graphrun/algorithms/mcl.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/io/labels.hpp"
#include "graphrun/io/write.hpp"
#include "progress.hpp"

namespace graphrun::cli {

namespace {

struct MclArgs {
  CommonOptions common;
  MclOptions mcl;
  std::string output = "-";
  std::string truth;  // --truth FILE: clusters known in advance, to compare with
  std::string reorder = "none";
};

int run_mcl(MclArgs& a) {
  Context ctx = make_context(a.common, "mcl", DeviceCheck::at_load);
  check_output_path(a.output);
  // MCL clusters the undirected graph, and merges repeated edges (in either
  // direction) with the larger weight, as mcl reads its input.
  a.common.undirected = true;
  a.common.duplicates = Duplicates::max;
  a.common.non_negative_weights = true;
  a.common.negative_weight_hint = "Markov clustering needs weights >= 0 (they are flow)";
  const Loaded in = load_input(a.common, DeviceCheck::at_load);
  const Graph& g = in.graph;
  // Read before the clustering, so that a bad file fails fast.
  io::VertexLabels truth;
  if (!a.truth.empty()) truth = io::read_vertex_labels(a.truth, g, a.common.input);

  MclOptions options = a.mcl;
  options.reorder = parse_reorder(a.reorder);
  ProgressBar bar("mcl", !a.common.quiet);
  StepProgress step;
  options.progress = &step;
  bar.watch(&step, [&ctx](int it, double f) {
    // The GPU reports whole iterations only.
    return ctx.device() == Device::cuda
               ? format("iteration %d under way", it)
               : format("iteration %d: %.0f%% of columns expanded", it, 100 * f);
  });
  options.on_iteration = [&](const IterationInfo& it) {
    // The chaos falls towards the 1e-4 limit roughly geometrically.
    bar.update(-1.0, [&] {
      return format("iteration %d, chaos %.2e, %lld entries", it.iteration, it.residual,
                    static_cast<long long>(it.nnz));
    });
    return true;
  };
  const MclResult r = graphrun::mcl(ctx, g, options);
  bar.finish();

  Stopwatch write_time;
  {
    io::OutputFile out(a.output);
    {
      TextWriter w(out.stream());
      for (const auto& members : cluster_lists(r)) {
        for (std::size_t i = 0; i < members.size(); ++i) {
          if (i) w.put('\t');
          put_vertex(w, g, members[i]);
        }
        w.put('\n');
      }
    }
    out.commit();
  }
  if (a.output == "-") check_stdout();
  const double write_seconds = write_time.seconds();

  const std::string where = ctx.device() == Device::cuda ? std::string("cuda")
                                                         : format("cpu, %d thread%s", ctx.threads(),
                                                                  ctx.threads() == 1 ? "" : "s");
  // On the CPU each expanded column is pruned and inflated as it comes out
  // of the SpGEMM: one pass, one time.
  const std::string loop =
      ctx.device() == Device::cuda
          ? format(
                "expansion %.3f s, pruning+inflation %.3f s%s", r.phases.expansion,
                r.phases.pruning,
                r.max_blocks > 1 ? format(" (up to %d column blocks)", r.max_blocks).c_str() : "")
          : format("expansion+pruning+inflation %.3f s", r.phases.expansion);
  const std::string ordering =
      r.reorder == Reorder::none
          ? std::string()
          : format("ordering %s%s %.3f s, ", std::string(to_string(r.reorder)).c_str(),
                   options.reorder == Reorder::automatic ? " (auto)" : "", r.phases.reorder);
  print_summary(
      a.common,
      format("mcl: %s, -I %.2f: %d cluster%s in %d iteration%s (%s, chaos %.2g), %s; %s, "
             "%ssetup %.3f s, interpretation %.3f s, cluster %.3f s; %lld products, largest "
             "iterand %lld entries; load %.3f s, write %.3f s",
             graph_size(g).c_str(), a.mcl.inflation, r.n_clusters, r.n_clusters == 1 ? "" : "s",
             r.iterations, r.iterations == 1 ? "" : "s",
             r.converged ? "converged" : "NOT converged", r.chaos, where.c_str(), loop.c_str(),
             ordering.c_str(), r.phases.setup, r.phases.interpret, r.seconds,
             static_cast<long long>(r.products), static_cast<long long>(r.max_nnz), in.seconds,
             write_seconds));
  if (!a.truth.empty() && !a.common.quiet)
    std::fprintf(stderr, "mcl: against %s (%zu cluster%s): ARI %.4f, NMI %.4f\n", a.truth.c_str(),
                 truth.names.size(), truth.names.size() == 1 ? "" : "s",
                 adjusted_rand_index(r.cluster, truth.labels),
                 normalized_mutual_information(r.cluster, truth.labels));
  return convergence_status(
      r.converged, a.common.quiet, "mcl",
      format("the chaos %.2g after %d iterations is above 1e-4", r.chaos, r.iterations),
      "clusters written are read off the last iterand");
}

}  // namespace

Command add_mcl(CLI::App& root) {
  auto args = std::make_shared<MclArgs>();
  CLI::App* sub = root.add_subcommand(
      "mcl",
      "Markov clustering (MCL, van Dongen), with the mcl program's algorithm and defaults\n"
      "Simulates flow on the undirected graph: self loops are added (each vertex's largest\n"
      "edge weight), columns are normalized, then expansion (M = M*M, graphrun's SpGEMM),\n"
      "pruning (entries below 1/P dropped, at most S kept per column, recovery up to R\n"
      "entries while less than pct % of the mass survives) and inflation (entries to the\n"
      "power I, renormalized) repeat until the flow stops changing. Clusters are read off\n"
      "the limit: attractors and the vertices that flow to them. Larger -I gives smaller\n"
      "clusters (1.4 coarse, 2 default, 4-6 fine).");
  add_common_options(*sub, args->common);
  sub->add_option("-I,--inflation", args->mcl.inflation, "Inflation power (> 1)")
      ->check(real_in(1, true, 1e6, false, "an inflation > 1"))
      ->capture_default_str()
      ->type_name("R");
  // mcl's integer parameters, under mcl's own letters and with its defaults.
  const struct {
    const char* flags;
    int MclOptions::*value;
    const char* help;
    CLI::Validator check;
    const char* type;
  } parameters[] = {
      {"-P,--prune", &MclOptions::prune_number,
       "Prune number: entries below 1/P are dropped after expansion",
       int_at_least(1, "a prune number >= 1"), "N"},
      {"-S,--select", &MclOptions::select_number,
       "Selection number: keep the S largest entries of a column (0 = no selection)",
       int_at_least(0, "a selection number >= 0"), "N"},
      {"-R,--recover", &MclOptions::recover_number,
       "Recovery number: a column pruned too hard gets back up to R entries (0 = no recovery)",
       int_at_least(0, "a recovery number >= 0"), "N"},
      {"--pct", &MclOptions::recover_percent,
       "Recovery percentage: recover when less than pct % of a column's mass is kept",
       CLI::Range(0, 100), "PCT"},
      {"--max-iter", &MclOptions::max_iterations,
       "Stop after this many iterations (mcl's -L), reading clusters off the iterand",
       int_at_least(1, "an iteration count >= 1"), "N"},
  };
  for (const auto& p : parameters)
    sub->add_option(p.flags, args->mcl.*p.value, p.help)
        ->check(p.check)
        ->capture_default_str()
        ->type_name(p.type);
  sub->add_option("-o,--output", args->output, "Write the clusters here; default stdout")
      ->check(output_path())
      ->type_name("FILE");
  sub->add_option("--reorder", args->reorder,
                  "Renumber the vertices before clustering, so that an expansion's columns\n"
                  "read together lie together: none (default), auto (rabbit where the ids are\n"
                  "scattered), rabbit (communities side by side), rcm, degree, hubsort or dbg.\n"
                  "Clusters and output stay by input vertex (see ORDERING)")
      ->check(CLI::Validator(
          [](std::string& name) {
            try {
              parse_reorder(name);  // the names vertex_order.hpp knows
              return std::string();
            } catch (const ArgumentError& e) {
              return std::string(e.what());
            }
          },
          ""))
      ->capture_default_str()
      ->type_name("ORDER");
  sub->add_option("--truth", args->truth,
                  "Compare the clusters with known ones: 'ID<TAB>CLUSTER' lines, every vertex\n"
                  "once (ground-truth communities; graphrun-generate lfr --communities writes\n"
                  "them). The adjusted Rand index and the normalized mutual information go to\n"
                  "stderr")
      ->type_name("FILE");
  sub->footer(
      std::string(
          "OUTPUT:\n"
          "  One cluster per line, its vertices tab-separated as the input names them, the\n"
          "  largest cluster first (equal sizes: the one with the earlier vertex first),\n"
          "  vertices in input order within a cluster: 'mcl FILE --abc' writes the same.\n"
          "  A summary (iterations, clusters, time per phase) goes to stderr.\n"
          "THE GRAPH:\n"
          "  MCL clusters the undirected graph: every edge counts in both directions, and\n"
          "  repeated edges keep their largest weight; self loops in the input are replaced\n"
          "  by mcl's. Weights must be >= 0 (a weight of 0 removes the edge). With --abc,\n"
          "  vertices are named by any strings and numbered in order of first appearance,\n"
          "  exactly as mcl numbers them, so the output equals mcl's line for line.\n"
          "DEVICE:\n"
          "  --device cuda runs the whole loop on the GPU (values in single precision, as\n"
          "  mcl's); the clusters equal --device cpu's up to rounding at a pruning threshold.\n"
          "  Where an expanded iterand would not fit in the GPU's memory (or in\n"
          "  --max-device-memory), each expansion runs in column blocks, each pruned before\n"
          "  the next is expanded; the summary says how many. The clusters do not change.\n"
          "ORDERING:\n"
          "  --reorder rabbit numbers each community's vertices together (Rabbit Order),\n"
          "  so that an expansion, which reads the columns of a column's neighbours, finds\n"
          "  them near each other in memory: on graphs numbered without regard to their\n"
          "  communities this saves cache misses (1.3-1.4x faster on the CPU on such\n"
          "  graphs). The limit is numbered back before clusters are read off; only\n"
          "  the order of floating-point sums changes, so clusters equal an unordered run's\n"
          "  up to rounding at a pruning threshold. The ordering's time is in the summary.\n"
          "  --reorder auto takes rabbit where an edge's two ids lie far apart (median\n"
          "  |i - j| / n above 0.15, as for ids unrelated to the graph) and none where the\n"
          "  ids already follow it (a crawl order), where rabbit cost 10-15% on the CPU.\n") +
      input_help(Duplicates::max) + exit_status_help +
      "\nEXAMPLES:\n"
      "  graphrun mcl network.txt -I 2 -o clusters.txt\n"
      "  graphrun mcl proteins.abc --abc -I 1.4      # the same clusters as mcl proteins.abc "
      "--abc -I 1.4\n"
      "  graphrun-generate lfr 100000 --mu 0.3 -o lfr.txt --communities lfr.truth\n"
      "  graphrun mcl lfr.txt --truth lfr.truth\n");
  return {sub, [args] { return run_mcl(*args); }};
}

}  // namespace graphrun::cli
