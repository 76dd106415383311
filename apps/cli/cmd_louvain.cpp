// graphrun louvain: communities by modularity (algorithms/louvain.hpp).
#include <omp.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "common.hpp"
#include "graphrun/algorithms/louvain.hpp"
#include "graphrun/io/write.hpp"
#include "progress.hpp"

namespace graphrun::cli {

namespace {

struct LouvainArgs {
  CommonOptions common;
  double resolution = 1.0;
  std::uint64_t seed = 1;
  int trials = 1;
  offset_t gpu_min_entries = -1;  // the library's default
  std::string output;
};

// With --device cuda, whether to make the CUDA context while the input loads.
// Only levels of at least louvain_gpu_min_entries entries run on the GPU, and
// the first level, the input made undirected without its loops, is the
// largest. A cache's header bounds it: its stored entries less the loops, up
// to twice as many for a directed graph. Under the rule the context is left
// to the first GPU call. Most such runs then make none: a context made beside
// a run on every core took a core from its first trial for ~0.2 s, and its
// teardown as long again at exit. The few that do need one have a first
// level only just past the rule. An edge list is assembled on the GPU as it
// loads, so it needs the context in any case.
DeviceCheck context_ahead(const CommonOptions& o, const LouvainOptions& options) {
  if (o.device != "cuda" || o.abc) return DeviceCheck::at_load;
  const std::optional<io::CacheHeader> h = io::read_cache_header(o.input);
  if (!h) return DeviceCheck::at_load;
  const int threads = o.threads > 0 ? o.threads : omp_get_max_threads();
  return h->entries >= louvain_gpu_min_entries(options, threads) ? DeviceCheck::at_load
                                                                 : DeviceCheck::at_load_on_demand;
}

void run_louvain(LouvainArgs a) {
  // Modularity needs weights >= 0: the loader refuses a negative one at
  // its line.
  a.common.non_negative_weights = true;
  a.common.negative_weight_hint = "modularity needs weights >= 0";
  LouvainOptions options;
  options.resolution = a.resolution;
  options.seed = a.seed;
  options.gpu_min_entries = a.gpu_min_entries;
  Context ctx = make_context(a.common, "louvain", context_ahead(a.common, options));
  const std::string output = a.output.empty() ? std::string("-") : a.output;
  check_output_path(output);
  const Loaded in = load_input(a.common, DeviceCheck::at_load);
  const Graph& g = in.graph;
  if (ctx.device() == Device::cpu) g.adj();  // a cache file may defer it

  ProgressBar bar("louvain", !a.common.quiet);
  const auto trials = run_trials(a.trials, [&] { return louvain(ctx, g, options); });
  const LouvainResult& r = trials.last;
  bar.finish();

  const double seconds_write =
      write_vertex_output(output, static_cast<std::size_t>(g.n_vertices()), !a.common.quiet,
                          [&](TextWriter& line, std::size_t v) {
                            put_vertex(line, g, static_cast<vertex_t>(v)).put('\t');
                            line.put(r.community[v]).put('\n');
                          });
  // Small levels run on the host (LouvainOptions::gpu_min_entries): no
  // device-only time to give.
  const std::string where =
      ctx.device() == Device::cuda
          ? format("cuda (levels of >= %lld entries; smaller ones on %d CPU threads)",
                   static_cast<long long>(louvain_gpu_min_entries(options, ctx.threads())),
                   ctx.threads())
          : where_it_ran(ctx, 0);
  print_summary(a.common,
                format("louvain: %s, %lld communities, modularity %.6f, %d levels, %d sweeps, %s, "
                       "load %.3f s, louvain %.4f s%s, write %.3f s",
                       graph_size(g).c_str(), static_cast<long long>(r.n_communities), r.modularity,
                       r.levels, r.sweeps, where.c_str(), in.seconds, trials.seconds,
                       trials_note(trials.each).c_str(), seconds_write));
}

}  // namespace

Command add_louvain(CLI::App& root) {
  auto args = std::make_shared<LouvainArgs>();
  CLI::App* sub = root.add_subcommand(
      "louvain",
      "Communities by modularity: the Louvain method\n"
      "Level after level, every vertex joins the neighbouring community that raises the\n"
      "modularity most, until no move gains; then the communities are contracted into the\n"
      "vertices of the next level's graph (S·W·Sᵀ by the SpGEMM). The graph is taken as\n"
      "undirected (a directed graph's two directions summed), self loops ignored.");
  add_common_options(*sub, args->common);
  sub->add_option("--resolution,-r", args->resolution,
                  "γ of the modularity Σ in_c/2m - γ (tot_c/2m)²: larger gives more, smaller\n"
                  "communities")
      ->capture_default_str()
      ->type_name("R");
  sub->add_option("--seed", args->seed,
                  "Seed of the order the vertices are visited in; the same seed gives the same\n"
                  "communities on every thread count")
      ->capture_default_str()
      ->type_name("S");
  sub->add_option("--gpu-min-entries", args->gpu_min_entries,
                  "With --device cuda: levels whose graph has fewer stored entries run on the CPU\n"
                  "(--threads), where a GPU sweep's fixed cost outweighs its speed; 0 puts every\n"
                  "level on the GPU. Default: 65536 per thread. The communities are the same\n"
                  "either way")
      ->check(int_in(0, std::numeric_limits<long long>::max(), "a number of entries >= 0"))
      ->type_name("N");
  add_trials_option(*sub, args->trials);
  sub->add_option("--output,-o", args->output, "Write the result to OUT instead of stdout")
      ->check(output_path())
      ->type_name("OUT");
  sub->footer(
      std::string(
          "OUTPUT:\n"
          "  One tab-separated line per vertex in ascending id order: 'ID<TAB>COMMUNITY',\n"
          "  communities numbered from 0, largest first. The summary gives the count, the\n"
          "  modularity (computed on the input graph), the levels and the sweeps. Weights\n"
          "  must be >= 0. --device cuda moves the vertices on the GPU by the CPU's rules:\n"
          "  the same communities as the CPU where the weights are integers. Levels of\n"
          "  fewer than --gpu-min-entries entries run on the CPU (--threads) even then.\n") +
      input_help() + exit_status_help +
      "\nEXAMPLE:\n"
      "  graphrun louvain com-dblp.ungraph.txt.gz --undirected --output communities.tsv\n"
      "  graphrun louvain yeast-ppi.abc --abc --resolution 2 -o communities.tsv\n");
  return {sub, [args] { run_louvain(*args); }};
}

}  // namespace graphrun::cli
