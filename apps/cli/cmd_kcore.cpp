// graphrun kcore: the core number of every vertex (algorithms/kcore.hpp).
#include <memory>
#include <string>

#include "common.hpp"
#include "graphrun/algorithms/kcore.hpp"
#include "graphrun/io/write.hpp"
#include "progress.hpp"

namespace graphrun::cli {

namespace {

struct KcoreArgs {
  CommonOptions common;
  int trials = 1;
  std::string output;
};

void run_kcore(const KcoreArgs& a) {
  Context ctx = make_context(a.common, "kcore", DeviceCheck::at_load);
  const std::string output = a.output.empty() ? std::string("-") : a.output;
  check_output_path(output);
  const Loaded in = load_input(a.common, DeviceCheck::at_load);
  const Graph& g = in.graph;
  if (ctx.device() == Device::cpu) g.adj();  // a cache file may defer it

  ProgressBar bar("kcore", !a.common.quiet);
  const auto trials = run_trials(a.trials, [&] { return core_numbers(ctx, g); });
  const KcoreResult& r = trials.last;
  bar.finish();

  const double seconds_write = write_vertex_output(
      output, static_cast<std::size_t>(g.n_vertices()), !a.common.quiet,
      [&](TextWriter& line, std::size_t v) {
        put_vertex(line, g, static_cast<vertex_t>(v)).put('\t').put(r.core[v]).put('\n');
      });
  print_summary(
      a.common,
      format("kcore: %s, degeneracy %lld (%lld vertices in that core), %d levels in "
             "%lld rounds, %s, load %.3f s, kcore %.4f s%s, write %.3f s",
             graph_size(g).c_str(), static_cast<long long>(r.degeneracy),
             static_cast<long long>(r.in_top_core), r.iterations, static_cast<long long>(r.rounds),
             where_it_ran(ctx, trials.on_device, trials.on_device_median).c_str(), in.seconds,
             trials.seconds, trials_note(trials.each).c_str(), seconds_write));
}

}  // namespace

Command add_kcore(CLI::App& root) {
  auto args = std::make_shared<KcoreArgs>();
  CLI::App* sub = root.add_subcommand(
      "kcore",
      "Core numbers: the k-core decomposition of the undirected graph\n"
      "The core number of a vertex is the largest k such that it lies in a subgraph where\n"
      "every vertex has at least k neighbours. Edge direction, self loops and repeated\n"
      "edges are ignored (as NetworkX's core_number defines it). Parallel peeling: level k\n"
      "removes every vertex left with at most k neighbours left, until none is.");
  add_common_options(*sub, args->common);
  add_trials_option(*sub, args->trials);
  sub->add_option("--output,-o", args->output, "Write the result to OUT instead of stdout")
      ->check(output_path())
      ->type_name("OUT");
  sub->footer(
      std::string(
          "OUTPUT:\n"
          "  One tab-separated line per vertex in ascending id order: 'ID<TAB>CORE'. The\n"
          "  summary gives the degeneracy (the largest core number) and how many vertices\n"
          "  are in that core. The numbers are the same on every device and thread count.\n") +
      input_help() + exit_status_help +
      "\nEXAMPLE:\n"
      "  graphrun kcore soc-Slashdot0902.txt.gz --output cores.tsv\n");
  return {sub, [args] { run_kcore(*args); }};
}

}  // namespace graphrun::cli
