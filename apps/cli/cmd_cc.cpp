// graphrun cc: connected components, weak or strong
// (algorithms/components.hpp).
#include <memory>
#include <string>

#include "common.hpp"
#include "graphrun/algorithms/components.hpp"
#include "graphrun/io/write.hpp"
#include "progress.hpp"

namespace graphrun::cli {

namespace {

struct CcArgs {
  CommonOptions common;
  bool strong = false;
  int trials = 1;
  std::string output;
};

void run_cc(const CcArgs& a) {
  Context ctx = make_context(a.common, "cc", DeviceCheck::at_load);
  const std::string output = a.output.empty() ? std::string("-") : a.output;
  check_output_path(output);
  const Loaded in = load_input(a.common, DeviceCheck::at_load);
  const Graph& g = in.graph;
  // The CPU reads the adjacency in host memory: have it there now (a cache
  // file may defer it), so that the cc time is the algorithm's alone.
  if (ctx.device() == Device::cpu) g.adj();

  ComponentsOptions options;
  options.strong = a.strong;
  ProgressBar bar(a.strong ? "scc" : "cc", !a.common.quiet);
  // --trials: the mean over that many runs, as the GAP reference's -n
  // reports, so that a comparison is not of one cold run.
  const auto trials = run_trials(a.trials, [&] { return connected_components(ctx, g, options); });
  const auto& r = trials.last;
  const double seconds_cc = trials.seconds;
  bar.finish();

  const double seconds_write =
      write_vertex_output(output, static_cast<std::size_t>(g.n_vertices()), !a.common.quiet,
                          [&](TextWriter& line, std::size_t v) {
                            put_vertex(line, g, static_cast<vertex_t>(v)).put('\t');
                            put_vertex(line, g, r.component[v]).put('\n');
                          });

  // Strong components of an undirected graph are its weak ones.
  const char* kind = a.strong && g.directed() ? "strong" : "weak";
  const std::string where = where_it_ran(ctx, trials.on_device, trials.on_device_median);
  std::string largest = "none";
  if (r.count > 0)
    largest = format("%lld vertices (%.1f%%), named %s", static_cast<long long>(r.largest),
                     100.0 * double(r.largest) / double(g.n_vertices()),
                     g.label(r.largest_component).c_str());
  print_summary(a.common,
                format("cc: %s, %lld %s components, largest %s, %s, load %.3f s, cc %.4f s%s, "
                       "write %.3f s",
                       graph_size(g).c_str(), static_cast<long long>(r.count), kind,
                       largest.c_str(), where.c_str(), in.seconds, seconds_cc,
                       trials_note(trials.each).c_str(), seconds_write));
}

}  // namespace

Command add_cc(CLI::App& root) {
  auto args = std::make_shared<CcArgs>();
  CLI::App* sub = root.add_subcommand(
      "cc",
      "Connected components: which vertices are joined by paths\n"
      "Weak components by default: edge direction ignored (Afforest, a lock-free union-find\n"
      "that samples a few edges per vertex first and then skips the giant component's own\n"
      "edges). With --strong, strongly connected components: vertices that reach each other\n"
      "along edge direction (Tarjan on the CPU; trimming and colour propagation on the GPU).");
  add_common_options(*sub, args->common);
  sub->add_flag("--strong", args->strong,
                "Strongly connected components (along edge direction); on an undirected graph\n"
                "they are the weak ones");
  add_trials_option(*sub, args->trials);
  sub->add_option("--output,-o", args->output, "Write the result to OUT instead of stdout")
      ->check(output_path())
      ->type_name("OUT");
  sub->footer(
      std::string("OUTPUT:\n"
                  "  One tab-separated line per vertex in ascending id order: 'ID<TAB>COMPONENT',\n"
                  "  the component named by its smallest vertex id (with --abc, by its vertex\n"
                  "  that appears first in INPUT), so the same input gives the same labels on\n"
                  "  every device and thread count. The summary on stderr gives the number of\n"
                  "  components and the largest one.\n") +
      input_help() + exit_status_help +
      "\nEXAMPLE:\n"
      "  graphrun cc web-NotreDame.txt.gz --output components.tsv\n"
      "  graphrun cc soc-Epinions1.txt.gz --strong --device cuda --quiet -o scc.tsv\n");
  return {sub, [args] { run_cc(*args); }};
}

}  // namespace graphrun::cli
