// graphrun convert: rewrite a graph as a binary cache (.grb) or Matrix Market.
#include <memory>
#include <optional>

#include "common.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/vertex_order.hpp"
#include "graphrun/io/write.hpp"

namespace graphrun::cli {

namespace {

struct ConvertArgs {
  CommonOptions common;
  std::string output;
  std::string reorder;  // empty: keep what the input holds
};

// What OUTPUT's name asks for, as load_graph reads names.
enum class Target { cache, matrix_market, edge_list };

Target target_of(const std::string& path) {
  if (ends_with(path, ".grb")) return Target::cache;
  if (is_matrix_market_name(path)) return Target::matrix_market;
  return Target::edge_list;
}

void run_convert(const ConvertArgs& a) {
  make_cpu_context(a.common, "convert");
  const Target target = target_of(a.output);
  if (a.output == "-" && target != Target::edge_list)
    throw ArgumentError("convert writes the .grb cache and Matrix Market to files only");
  check_output_path(a.output);
  // Parsed before the load, so that a bad name costs no load.
  const std::optional<Reorder> reorder =
      a.reorder.empty() ? std::nullopt : std::optional(parse_reorder(a.reorder));
  if (reorder && *reorder == Reorder::automatic)
    throw ArgumentError(
        "convert --reorder needs an ordering, not auto: degree, hubsort, dbg, rcm, "
        "rabbit, or none to drop a stored one");
  if (reorder && *reorder != Reorder::none && target != Target::cache)
    throw ArgumentError("convert --reorder stores an ordering in a .grb cache only; " + a.output +
                        " is not one");

  Loaded in = load_input(a.common);
  Graph& g = in.graph;
  // The ordering is computed from the adjacency as stored (out-edges), as
  // PageRank computes it, and kept beside the graph: the cache's ids and
  // adjacency stay in input order, so every command reads it as before.
  double seconds_order = 0;
  if (reorder) {
    const Stopwatch order_time;
    if (*reorder == Reorder::none)
      g.clear_stored_order();
    else
      g.set_stored_order(*reorder, vertex_order(g.adj().view(), *reorder, !g.directed()));
    seconds_order = order_time.seconds();
  }

  Stopwatch write_time;
  switch (target) {
    case Target::cache:
      io::write_cache(a.output, g);
      break;
    case Target::edge_list:
      io::write_edge_list(a.output, g);
      if (!g.directed() && !a.common.quiet)
        std::fprintf(stderr,
                     "convert: note: %s holds each undirected edge once; read it back with "
                     "--undirected\n",
                     a.output.c_str());
      break;
    case Target::matrix_market: {
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
                                   : "ids are not kept (use .grb or an edge list to keep them)");
      break;
    }
  }
  const double seconds_write = write_time.seconds();

  const Graph::StoredOrder* stored = target == Target::cache ? g.stored_order() : nullptr;
  const std::string method = stored ? std::string(to_string(stored->method)) : std::string();
  const std::string ordering = !stored ? std::string()
                               : reorder
                                   ? format("ordering %s %.3f s, ", method.c_str(), seconds_order)
                                   : format("ordering %s kept, ", method.c_str());
  print_summary(a.common, format("convert: %s, %s, %swrite %.3f s", graph_size(g).c_str(),
                                 load_summary(in).c_str(), ordering.c_str(), seconds_write));
}

}  // namespace

Command add_convert(CLI::App& root) {
  auto args = std::make_shared<ConvertArgs>();
  CLI::App* sub = root.add_subcommand(
      "convert",
      "Convert a graph to any format graphrun reads: .grb, .mtx, .mtx.gz, edge list\n"
      "OUTPUT's name chooses the format, as INPUT's does:\n"
      "  *.grb            graphrun's binary CSR cache: loads at disk speed, keeps the\n"
      "                   input's ids (or, with --abc, its vertex names)\n"
      "  *.mtx, *.mtx.gz  Matrix Market coordinate real general (pattern for an unweighted\n"
      "                   graph), 1-based, vertices numbered in ascending input id (with\n"
      "                   --abc, in order of first appearance), gzip with .gz\n"
      "  any other name   SNAP edge list 'SRC<TAB>DST[<TAB>WEIGHT]' in the input's ids (ABC\n"
      "                   text 'NAME<TAB>NAME[<TAB>WEIGHT]' for a graph with --abc names),\n"
      "                   gzip when the name ends in .gz; '-' writes it to stdout. An\n"
      "                   undirected graph writes each edge once (read it back with\n"
      "                   --undirected)\n"
      "The graph is written as loaded: duplicates merged, with --undirected both directions.\n"
      "A .grb cache may also keep a vertex ordering (--reorder), which pagerank then\n"
      "renumbers by instead of computing one; a .grb input's ordering is kept in a .grb\n"
      "output.");
  add_common_options(*sub, args->common);
  sub->add_option("--reorder", args->reorder,
                  "Store this vertex ordering in the .grb OUTPUT: degree, hubsort, dbg, rcm or\n"
                  "rabbit (see graphrun pagerank --help, ORDERINGS), computed once here;\n"
                  "none drops one the input holds. pagerank --reorder auto (the default) and\n"
                  "--reorder of the same name then use it without computing it. Ids and\n"
                  "output stay those of the input")
      ->type_name("ORDER");
  sub->add_option("OUTPUT", args->output, "File to write: *.grb, *.mtx, *.mtx.gz, or an edge list")
      ->required()
      ->check(output_path())
      ->type_name("OUTPUT");
  sub->footer(input_help() + exit_status_help +
              "\nEXAMPLE:\n"
              "  graphrun convert com-Orkut.ungraph.txt.gz orkut.grb --undirected\n"
              "  graphrun pagerank orkut.grb\n"
              "  graphrun convert orkut.grb orkut-rabbit.grb --reorder rabbit\n"
              "  graphrun pagerank orkut-rabbit.grb          (iterates in the stored order)\n"
              "  graphrun convert yeast-ppi.abc yeast.grb --abc   (the .grb keeps the names)\n"
              "  graphrun convert matrix.mtx edges.txt.gz         (gzip edge list)\n");
  return {sub, [args] { run_convert(*args); }};
}

}  // namespace graphrun::cli
