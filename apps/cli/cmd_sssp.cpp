// graphrun sssp: shortest-path distances from one source vertex
// (algorithms/sssp.hpp).
#include <cmath>
#include <memory>
#include <string>

#include "common.hpp"
#include "graphrun/algorithms/sssp.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/io/write.hpp"
#include "progress.hpp"

namespace graphrun::cli {

namespace {

struct SsspArgs {
  CommonOptions common;
  std::string source;
  double delta = 0;
  std::string method = "delta-stepping";
  int trials = 1;
  std::string output;
};

void run_sssp(SsspArgs a) {
  // The loader refuses a negative weight at its line; a repeated edge keeps
  // its shortest weight.
  a.common.non_negative_weights = true;
  a.common.negative_weight_hint = "shortest paths need weights >= 0";
  a.common.duplicates = Duplicates::min;
  Context ctx = make_context(a.common, "sssp", DeviceCheck::at_load);
  SsspOptions options;
  if (a.method == "bellman-ford")
    options.method = SsspMethod::bellman_ford;
  else if (a.method != "delta-stepping")
    throw ArgumentError("--method: '" + a.method + "' is not delta-stepping or bellman-ford");
  options.delta = a.delta;
  check_source_before_load(a.common, a.source);
  const std::string output = a.output.empty() ? std::string("-") : a.output;
  check_output_path(output);

  const Loaded in = load_input(a.common, DeviceCheck::at_load);
  const Graph& g = in.graph;
  const vertex_t source = find_source(a.common, g, a.source);
  // Both devices start from the host adjacency (the GPU uploads it): have
  // it there now (a cache file may defer it), so that the sssp time is the
  // algorithm's alone.
  g.adj();

  ProgressBar bar("sssp", !a.common.quiet);
  // --trials: the mean over that many runs, as the GAP reference's -n.
  const auto trials = run_trials(a.trials, [&] { return sssp(ctx, g, source, options); });
  const auto& r = trials.last;
  const double seconds_sssp = trials.seconds;
  bar.finish();

  const double seconds_write =
      write_vertex_output(output, static_cast<std::size_t>(g.n_vertices()), !a.common.quiet,
                          [&](TextWriter& line, std::size_t v) {
                            put_vertex(line, g, static_cast<vertex_t>(v)).put('\t');
                            const double d = r.distance[v];
                            if (std::isfinite(d))
                              line.put(d);
                            else
                              line.put("inf");
                            line.put('\n');
                          });

  const std::string where = where_it_ran(ctx, trials.on_device, trials.on_device_median);
  const std::string how =
      options.method == SsspMethod::bellman_ford
          ? format("bellman-ford, %d sweep%s", r.iterations, r.iterations == 1 ? "" : "s")
          : format("delta-stepping, delta %g, %d round%s", r.delta, r.iterations,
                   r.iterations == 1 ? "" : "s");
  print_summary(
      a.common,
      format("sssp: %s, source %s, reached %lld, farthest %.17g, %s, %lld relaxations, "
             "%s, load %.3f s, sssp %.4f s%s, write %.3f s",
             graph_size(g).c_str(), a.source.c_str(), static_cast<long long>(r.reached),
             r.max_distance, how.c_str(), static_cast<long long>(r.relaxations), where.c_str(),
             in.seconds, seconds_sssp, trials_note(trials.each).c_str(), seconds_write));
}

}  // namespace

Command add_sssp(CLI::App& root) {
  auto args = std::make_shared<SsspArgs>();
  CLI::App* sub = root.add_subcommand(
      "sssp",
      "Single-source shortest paths: the distance from --source to every vertex\n"
      "Along out-edges, summing edge weights (the third column; every edge weighs 1 in an\n"
      "unweighted graph, which gives hop counts). Weights must be >= 0. Delta-stepping by\n"
      "default (buckets of tentative distances of width --delta, each relaxed in parallel);\n"
      "Bellman-Ford as min-plus matrix-vector products with --method bellman-ford.");
  add_common_options(*sub, args->common);
  sub->add_option("--source,-s", args->source,
                  "Start vertex, an id as written in INPUT (with --abc, a name)")
      ->required()
      ->type_name("ID");
  sub->add_option(
         "--delta", args->delta,
         "Bucket width of delta-stepping; 0 chooses c x mean weight / mean out-degree, c = 2\n"
         "on the CPU and 32 on the GPU (1 on an unweighted graph). Wider: fewer rounds, "
         "more\nedges relaxed again")
      ->check(real_in(0, false, 1e300, false, "a bucket width >= 0"))
      ->capture_default_str()
      ->type_name("D");
  sub->add_option("--method", args->method,
                  "delta-stepping, or bellman-ford: d = min(d, A^T d) over (min, +) until nothing\n"
                  "changes, one SpMV per sweep (as many sweeps as the longest shortest path has\n"
                  "edges: fast on small-world graphs, slow on roads)")
      ->capture_default_str()
      ->type_name("METHOD");
  add_trials_option(*sub, args->trials);
  sub->add_option("--output,-o", args->output, "Write the result to OUT instead of stdout")
      ->check(output_path())
      ->type_name("OUT");
  sub->footer(
      std::string(
          "OUTPUT:\n"
          "  One tab-separated line per vertex in ascending id order: 'ID<TAB>DISTANCE', 0 for\n"
          "  the source and 'inf' where the vertex cannot be reached; distances are written\n"
          "  with 17 significant digits (whole numbers as such). They are the same on every\n"
          "  device, method and thread count. A negative weight is refused at its line, and\n"
          "  a source that does not occur in INPUT is an error (exit status 2).\n") +
      input_help(Duplicates::min) + exit_status_help +
      "\nEXAMPLE:\n"
      "  graphrun sssp roadNet-CA.txt.gz --undirected --source 0 --output hops.tsv\n"
      "  graphrun sssp weighted.txt --source 7 --device cuda --quiet -o dist.tsv\n");
  return {sub, [args] { run_sssp(*args); }};
}

}  // namespace graphrun::cli
