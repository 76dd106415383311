// graphrun bc: betweenness centrality (algorithms/betweenness.hpp).
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "common.hpp"
#include "graphrun/algorithms/betweenness.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/io/write.hpp"
#include "progress.hpp"

namespace graphrun::cli {

namespace {

struct BcArgs {
  CommonOptions common;
  long long sources = 0;
  std::uint64_t seed = 1;
  std::vector<std::string> from;
  int trials = 1;
  std::string output;
};

void run_bc(const BcArgs& a) {
  if (a.sources > 0 && !a.from.empty())
    throw ArgumentError("bc: give --sources K (a random sample) or --source ID, not both");
  Context ctx = make_context(a.common, "bc", DeviceCheck::at_load);
  const std::string output = a.output.empty() ? std::string("-") : a.output;
  check_output_path(output);
  for (std::size_t i = 0; i < a.from.size(); ++i) {
    check_source_before_load(a.common, a.from[i]);
    for (std::size_t j = 0; j < i; ++j)
      if (a.from[j] == a.from[i])
        throw ArgumentError("bc: --source " + a.from[i] + " is given twice");
  }
  const Loaded in = load_input(a.common, DeviceCheck::at_load);
  const Graph& g = in.graph;
  if (ctx.device() == Device::cpu) g.adj();  // a cache file may defer it

  BetweennessOptions options;
  if (a.sources > g.n_vertices())
    throw ArgumentError("bc: --sources " + std::to_string(a.sources) + " is more than the " +
                        std::to_string(g.n_vertices()) + " vertices of " + a.common.input);
  options.sources = static_cast<vertex_t>(a.sources);
  options.seed = a.seed;
  for (const std::string& s : a.from) options.from.push_back(find_source(a.common, g, s));
  ProgressBar bar("bc", !a.common.quiet);
  const auto trials = run_trials(a.trials, [&] { return betweenness(ctx, g, options); });
  const BetweennessResult& r = trials.last;
  bar.finish();

  const double seconds_write =
      write_vertex_output(output, static_cast<std::size_t>(g.n_vertices()), !a.common.quiet,
                          [&](TextWriter& line, std::size_t v) {
                            put_vertex(line, g, static_cast<vertex_t>(v)).put('\t');
                            line.put(r.score[v]).put('\n');
                          });
  std::string top = "none";
  if (!r.score.empty()) {
    std::size_t best = 0;
    for (std::size_t v = 1; v < r.score.size(); ++v)
      if (r.score[v] > r.score[best]) best = v;
    top = format("%s (%.6g)", g.label(static_cast<vertex_t>(best)).c_str(), r.score[best]);
  }
  const char* kind = !a.from.empty()                  ? "given"
                     : r.iterations == g.n_vertices() ? "exact"
                                                      : "sampled";
  print_summary(
      a.common,
      format("bc: %s, %d sources (%s), highest %s, %s, load %.3f s, bc %.4f s%s, write %.3f s",
             graph_size(g).c_str(), r.iterations, kind, top.c_str(),
             where_it_ran(ctx, trials.on_device, trials.on_device_median).c_str(), in.seconds,
             trials.seconds, trials_note(trials.each).c_str(), seconds_write));
}

}  // namespace

Command add_bc(CLI::App& root) {
  auto args = std::make_shared<BcArgs>();
  CLI::App* sub = root.add_subcommand(
      "bc",
      "Betweenness centrality: how many shortest paths pass through each vertex\n"
      "Brandes' algorithm: a breadth-first search from each source counts the shortest\n"
      "paths level by level, and a sweep back accumulates each vertex's share of them.\n"
      "Exact (every vertex a source, O(n·m) work) unless --sources K samples K of them.\n"
      "Paths follow edge direction unless --undirected; weights are ignored (hops).");
  add_common_options(*sub, args->common);
  sub->add_option("--sources,-k", args->sources,
                  "Estimate from K sources drawn at random (0: every vertex, exact); scores\n"
                  "are scaled by n / K, as NetworkX's betweenness_centrality(k=K)")
      ->check(int_in(0, std::numeric_limits<long long>::max(),
                     "a number of sources >= 0 (0: every vertex)"))
      ->type_name("K");
  sub->add_option("--seed", args->seed, "Seed of the sample of --sources")
      ->capture_default_str()
      ->type_name("S");
  sub->add_option("--source,-s", args->from,
                  "Search from this vertex (an id as written in INPUT); repeat for more. The\n"
                  "scores are scaled as a sample of that many")
      ->type_name("ID");
  add_trials_option(*sub, args->trials);
  sub->add_option("--output,-o", args->output, "Write the result to OUT instead of stdout")
      ->check(output_path())
      ->type_name("OUT");
  sub->footer(
      std::string(
          "OUTPUT:\n"
          "  One tab-separated line per vertex in ascending id order: 'ID<TAB>SCORE', the\n"
          "  betweenness normalized as NetworkX's betweenness_centrality(normalized=True):\n"
          "  divided by (n-1)(n-2). The summary gives the sources searched and the vertex\n"
          "  with the highest score. The same scores on every run and CPU thread count;\n"
          "  the GPU's sum in another order and agree to the last few bits.\n") +
      input_help() + exit_status_help +
      "\nEXAMPLE:\n"
      "  graphrun bc email-Enron.txt.gz --undirected --output bc.tsv\n"
      "  graphrun bc web-NotreDame.txt.gz --sources 64 --seed 7 --device cuda -o bc.tsv\n");
  return {sub, [args] { run_bc(*args); }};
}

}  // namespace graphrun::cli
