// graphrun bench: the benchmark drivers (bench/*.cpp), one subcommand each.
#include "bench/bench.hpp"
#include "cli/delegated.hpp"

namespace graphrun::cli {

Command add_bench(CLI::App& root) {
  CLI::App* sub = root.add_subcommand(
      "bench",
      std::string(bench_summary) +
          "\n"
          "Each driver runs every input in one process and prints a Markdown table: times as\n"
          "medians of repeated runs, ratios to the anchor, and the physical floor (bytes over\n"
          "measured bandwidth). Inputs are files or generated graphs (gen:rmat:20,\n"
          "gen:grid:2000x2000, gen:uniform:4000000:16); --suite DIR adds every graph in DIR\n"
          "and the generated suite. The figures and commands are kept in docs/performance.md.");
  return command_group(sub, {bench::add_bench_spmv(*sub), bench::add_bench_pagerank(*sub),
                             bench::add_bench_bfs(*sub), bench::add_bench_spgemm(*sub)});
}

}  // namespace graphrun::cli
