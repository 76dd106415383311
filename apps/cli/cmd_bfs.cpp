// graphrun bfs: breadth-first levels (and parents) from one source vertex
// (algorithms/bfs.hpp).
#include <memory>
#include <string>

#include "common.hpp"
#include "graphrun/algorithms/bfs.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/spmv_format.hpp"
#include "graphrun/io/write.hpp"
#include "progress.hpp"
#include "spmv_format_help.hpp"

namespace graphrun::cli {

namespace {

struct BfsArgs {
  CommonOptions common;
  std::string source;
  bool parents = false;
  std::string format = "auto";
  std::string output;
  int trials = 1;
};

std::string format_help() {
  return spmv_format_option_help(
      "SpMV format of the bottom-up steps on the GPU (--device cuda)",
      "auto (the same as csr-thread here): a thread per unvisited vertex looks through its\n"
      "in-edges and stops at the first from the frontier. Where no vertex has over 4096\n"
      "in-edges (roads, meshes) this runs inside the GPU's device-side level loop, which runs\n"
      "many levels without returning to the host; elsewhere a step at a time, the rest of\n"
      "a row longer than 16 in-edges cut into chunks that warps all over the GPU walk.\n"
      "Any other format runs its masked SpMV, which reads every in-edge of the unvisited\n"
      "rows: for comparison. The CPU always runs CSR");
}

void run_bfs(const BfsArgs& a) {
  Context ctx = make_context(a.common, "bfs", DeviceCheck::at_load);
  const SpmvFormat spmv_format = parse_spmv_format(a.format);
  if (ctx.device() == Device::cpu && spmv_format != SpmvFormat::automatic)
    throw ArgumentError("--format " + a.format +
                        " chooses a GPU kernel; with --device cpu BFS runs the CPU's CSR kernel "
                        "(leave --format out or use --device cuda)");
  check_source_before_load(a.common, a.source);
  const std::string output = a.output.empty() ? std::string("-") : a.output;
  check_output_path(output);

  const Loaded in = load_input(a.common, DeviceCheck::at_load);
  const Graph& g = in.graph;
  const vertex_t source = find_source(a.common, g, a.source);

  BfsOptions options;
  options.parents = a.parents;
  options.format = spmv_format;
  // The bar reads what the search reports (StepProgress); no on_iteration
  // callback, which would make the GPU stop for the host after every level.
  ProgressBar bar("bfs", !a.common.quiet);
  StepProgress step;
  options.progress = &step;
  bar.watch(&step, [&step](int level, double) {
    return format("level %d, frontier %lld", level,
                  static_cast<long long>(step.frontier.load(std::memory_order_relaxed)));
  });
  // --trials: the mean over that many searches, as the GAP reference's -n.
  const auto trials = run_trials(a.trials, [&] { return bfs(ctx, g, source, options); });
  const BfsResult& r = trials.last;
  const double seconds_bfs = trials.seconds;
  bar.finish();

  const double seconds_write =
      write_vertex_output(output, static_cast<std::size_t>(g.n_vertices()), !a.common.quiet,
                          [&](TextWriter& line, std::size_t v) {
                            put_vertex(line, g, static_cast<vertex_t>(v)).put('\t').put(r.level[v]);
                            if (a.parents) {
                              line.put('\t');
                              const vertex_t p = r.parent[v];
                              if (p >= 0)
                                put_vertex(line, g, p);
                              else
                                line.put("-1");
                            }
                            line.put('\n');
                          });

  std::string where = where_it_ran(ctx, trials.on_device, trials.on_device_median);
  if (ctx.device() == Device::cuda && r.pull_steps > 0)
    where += format(", pull SpMV %s", std::string(to_string(r.format)).c_str());
  print_summary(a.common,
                format("bfs: %s, source %s, reached %lld, deepest level %d (%d push, %d pull "
                       "steps), %s, load %.3f s, bfs %.4f s%s, write %.3f s",
                       graph_size(g).c_str(), a.source.c_str(), static_cast<long long>(r.reached),
                       r.depth - 1, r.push_steps, r.pull_steps, where.c_str(), in.seconds,
                       seconds_bfs, trials_note(trials.each).c_str(), seconds_write));
}

}  // namespace

Command add_bfs(CLI::App& root) {
  auto args = std::make_shared<BfsArgs>();
  CLI::App* sub = root.add_subcommand(
      "bfs",
      "Breadth-first search: hop count from --source to every vertex\n"
      "The level of every vertex (number of hops along out-edges from the source; -1 where\n"
      "unreachable) and optionally a BFS-tree parent. Direction-optimizing (Beamer et al.):\n"
      "top-down while the frontier is small, bottom-up when it is large.");
  add_common_options(*sub, args->common);
  sub->add_option("--source,-s", args->source,
                  "Start vertex, an id as written in INPUT (with --abc, a name)")
      ->required()
      ->type_name("ID");
  sub->add_flag("--parents,-p", args->parents,
                "Add a third column: the parent's id in the BFS tree (-1 if unreachable)");
  sub->add_option("--format", args->format, format_help())->capture_default_str()->type_name("FMT");
  sub->add_option("--output,-o", args->output, "Write the result to OUT instead of stdout")
      ->check(output_path())
      ->type_name("OUT");
  add_trials_option(*sub, args->trials);
  sub->footer(
      std::string("OUTPUT:\n"
                  "  One tab-separated line per vertex in ascending id order: 'ID<TAB>LEVEL',\n"
                  "  or 'ID<TAB>LEVEL<TAB>PARENT' with --parents. LEVEL is 0 for the source\n"
                  "  and -1 for unreachable vertices; the source is its own parent, and an\n"
                  "  unreachable vertex has parent -1. IDs are the input's: names with --abc,\n"
                  "  listed in order of first appearance in INPUT. A source that does not\n"
                  "  occur in INPUT is an error (exit status 2).\n") +
      spmv_formats_section() + input_help() + exit_status_help +
      "\nEXAMPLE:\n"
      "  graphrun bfs roadNet-CA.txt.gz --source 0 --parents --output levels.tsv\n"
      "  graphrun bfs yeast-ppi.abc --abc --undirected --source YKR068C\n");
  return {sub, [args] { run_bfs(*args); }};
}

}  // namespace graphrun::cli
