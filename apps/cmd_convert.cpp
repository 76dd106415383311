// graphrun convert: rewrite a graph as a binary cache (.grb) or Matrix Market.
#include <memory>

#include "commands.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/io/write.hpp"

namespace graphrun::cli {

namespace {

struct ConvertArgs {
  CommonOptions common;
  std::string output;
};

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void run_convert(const ConvertArgs& a) {
  make_context(a.common, "convert");
  const bool to_cache = ends_with(a.output, ".grb");
  const bool to_mtx = ends_with(a.output, ".mtx");
  if (!to_cache && !to_mtx)
    throw ArgumentError(a.output +
                        ": unknown output format; the name must end in .grb (binary cache) or "
                        ".mtx (Matrix Market)");
  if (a.output == "-") throw ArgumentError("convert cannot write to stdout");
  check_output_path(a.output);

  const Loaded in = load_input(a.common);
  const Graph& g = in.graph;

  Stopwatch write_time;
  if (to_cache) {
    io::write_cache(a.output, g);
  } else {
    io::write_matrix_market(a.output, g.adj());
    // Matrix Market speaks the dense 1-based indices; say so when that
    // renumbers the input's ids or drops its names.
    bool renumbered = g.has_names();
    for (vertex_t v = 0; v < g.n_vertices() && !renumbered; ++v)
      renumbered = g.input_id(v) != static_cast<std::uint64_t>(v) + 1;
    if (renumbered && !a.common.quiet)
      std::fprintf(stderr, "convert: note: %s numbers vertices 1..%d in %s; the input's %s\n",
                   a.output.c_str(), g.n_vertices(),
                   g.has_names() ? "order of first appearance" : "ascending order of input id",
                   g.has_names() ? "vertex names are not kept (use .grb to keep them)"
                                 : "ids are not kept (use .grb to keep them)");
  }
  const double seconds_write = write_time.seconds();

  const double mb = static_cast<double>(in.stats.bytes_read) / 1e6;
  print_summary(a.common, format("convert: %s, load %.3f s (%.1f MB parsed, %.1f MB/s), "
                                 "write %.3f s",
                                 graph_size(g).c_str(), in.seconds, mb,
                                 in.seconds > 0 ? mb / in.seconds : 0.0, seconds_write));
}

}  // namespace

Command add_convert(CLI::App& root) {
  auto args = std::make_shared<ConvertArgs>();
  CLI::App* sub = root.add_subcommand(
      "convert",
      "Convert a graph to the binary cache (.grb) or Matrix Market (.mtx)\n"
      "OUTPUT ending in .grb: graphrun's binary CSR cache, which loads at disk speed and\n"
      "keeps the input's ids (or, with --abc, its vertex names). OUTPUT ending in .mtx:\n"
      "Matrix Market coordinate real general (pattern for an unweighted graph), 1-based,\n"
      "vertices numbered in ascending input id (with --abc, in order of first appearance).\n"
      "The graph is written as loaded: duplicates merged, with --undirected both directions.");
  add_common_options(*sub, args->common);
  sub->add_option("OUTPUT", args->output, "File to write: *.grb or *.mtx")
      ->required()
      ->type_name("OUTPUT");
  sub->footer(std::string(input_help) + exit_status_help +
              "\nEXAMPLE:\n"
              "  graphrun convert com-Orkut.ungraph.txt.gz orkut.grb --undirected\n"
              "  graphrun pagerank orkut.grb\n"
              "  graphrun convert yeast-ppi.abc yeast.grb --abc   (the .grb keeps the names)\n");
  return {sub, [args] { run_convert(*args); }};
}

}  // namespace graphrun::cli
