// graphrun bench spmv (placeholder until the driver lands).
#include "bench.hpp"
#include "graphrun/engine/error.hpp"

namespace graphrun::cli::bench {

Command add_bench_spmv(CLI::App& bench) {
  auto* sub = bench.add_subcommand("spmv", "spmv benchmark (not built yet)");
  return {sub, [] { throw ArgumentError("graphrun bench spmv is not built yet"); }};
}

}  // namespace graphrun::cli::bench
