// graphrun triangles: triangles of the undirected graph, and the
// clustering coefficients (algorithms/triangles.hpp).
#include <cstdio>
#include <memory>
#include <string>

#include "common.hpp"
#include "graphrun/algorithms/triangles.hpp"
#include "graphrun/io/write.hpp"
#include "progress.hpp"

namespace graphrun::cli {

namespace {

struct TrianglesArgs {
  CommonOptions common;
  int trials = 1;
  std::string output;
};

void run_triangles(const TrianglesArgs& a) {
  Context ctx = make_context(a.common, "triangles", DeviceCheck::at_load);
  // Per-vertex counts cost an atomic add per triangle: only with --output.
  const bool per_vertex = !a.output.empty();
  if (per_vertex) check_output_path(a.output);
  const Loaded in = load_input(a.common, DeviceCheck::at_load);
  const Graph& g = in.graph;
  if (ctx.device() == Device::cpu) g.adj();  // a cache file may defer it

  ProgressBar bar("triangles", !a.common.quiet);
  const auto trials =
      run_trials(a.trials, [&] { return triangles(ctx, g, {.per_vertex = per_vertex}); });
  const TriangleResult& r = trials.last;
  bar.finish();

  double seconds_write = 0;
  if (per_vertex)
    seconds_write = write_vertex_output(
        a.output, static_cast<std::size_t>(g.n_vertices()), !a.common.quiet,
        [&](TextWriter& line, std::size_t v) {
          put_vertex(line, g, static_cast<vertex_t>(v)).put('\t').put(r.per_vertex[v]);
          line.put('\t').put(r.clustering[v]).put('\n');
        });
  const std::string average =
      per_vertex ? format(", average clustering %.6f", r.average_clustering) : std::string();
  print_summary(
      a.common,
      format("triangles: %s, %llu triangles, transitivity %.6f%s, %s, "
             "load %.3f s, triangles %.4f s%s, write %.3f s",
             graph_size(g).c_str(), static_cast<unsigned long long>(r.total), r.transitivity,
             average.c_str(), where_it_ran(ctx, trials.on_device, trials.on_device_median).c_str(),
             in.seconds, trials.seconds, trials_note(trials.each).c_str(), seconds_write));
  // The total is the answer: on stdout, where a script reads it.
  if (!per_vertex) std::printf("%llu\n", static_cast<unsigned long long>(r.total));
}

}  // namespace

Command add_triangles(CLI::App& root) {
  auto args = std::make_shared<TrianglesArgs>();
  CLI::App* sub = root.add_subcommand(
      "triangles",
      "Triangles of the undirected graph, and clustering coefficients\n"
      "Edge direction, self loops, repeated edges and weights are ignored (as NetworkX's\n"
      "triangles and clustering). Each edge is pointed from the lower to the higher of\n"
      "(degree, id), and every triangle is found once, at the edge joining its two lowest\n"
      "corners, as the common neighbours of their two rows: the masked product\n"
      "C<L> = L·Lᵀ summed.");
  add_common_options(*sub, args->common);
  add_trials_option(*sub, args->trials);
  sub->add_option("--output,-o", args->output,
                  "Also count the triangles through each vertex and write them to OUT")
      ->check(output_path())
      ->type_name("OUT");
  sub->footer(
      std::string(
          "OUTPUT:\n"
          "  The number of triangles on stdout. With --output, one tab-separated line per\n"
          "  vertex in ascending id order: 'ID<TAB>TRIANGLES<TAB>CLUSTERING', the triangles\n"
          "  through the vertex and its local clustering coefficient 2T / (d(d-1)), d its\n"
          "  neighbours (0 where d < 2). The summary on stderr gives the total, the\n"
          "  transitivity (3 × triangles / paths of length 2) and, with --output, the\n"
          "  average clustering. The counts are the same on every device and thread count.\n") +
      input_help() + exit_status_help +
      "\nEXAMPLE:\n"
      "  graphrun triangles soc-Slashdot0902.txt.gz --undirected\n"
      "  graphrun triangles web-NotreDame.txt.gz --device cuda --output triangles.tsv\n");
  return {sub, [args] { run_triangles(*args); }};
}

}  // namespace graphrun::cli
