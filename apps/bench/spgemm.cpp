// graphrun bench spgemm (placeholder until the driver lands).
#include "bench.hpp"
#include "graphrun/engine/error.hpp"

namespace graphrun::cli::bench {

Command add_bench_spgemm(CLI::App& bench) {
  auto* sub = bench.add_subcommand("spgemm", "spgemm benchmark (not built yet)");
  return {sub, [] { throw ArgumentError("graphrun bench spgemm is not built yet"); }};
}

}  // namespace graphrun::cli::bench
