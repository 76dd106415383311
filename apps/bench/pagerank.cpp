// graphrun bench pagerank (placeholder until the driver lands).
#include "bench.hpp"
#include "graphrun/engine/error.hpp"

namespace graphrun::cli::bench {

Command add_bench_pagerank(CLI::App& bench) {
  auto* sub = bench.add_subcommand("pagerank", "pagerank benchmark (not built yet)");
  return {sub, [] { throw ArgumentError("graphrun bench pagerank is not built yet"); }};
}

}  // namespace graphrun::cli::bench
