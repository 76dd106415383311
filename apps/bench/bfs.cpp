// graphrun bench bfs (placeholder until the driver lands).
#include "bench.hpp"
#include "graphrun/engine/error.hpp"

namespace graphrun::cli::bench {

Command add_bench_bfs(CLI::App& bench) {
  auto* sub = bench.add_subcommand("bfs", "bfs benchmark (not built yet)");
  return {sub, [] { throw ArgumentError("graphrun bench bfs is not built yet"); }};
}

}  // namespace graphrun::cli::bench
