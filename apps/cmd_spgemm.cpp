// graphrun spgemm (placeholder until the command lands).
#include "commands.hpp"
#include "graphrun/engine/error.hpp"

namespace graphrun::cli {

Command add_spgemm(CLI::App& root) {
  auto* sub = root.add_subcommand("spgemm", "Sparse matrix product C = A*B (not built yet)");
  return {sub, [] { throw ArgumentError("graphrun spgemm is not built yet"); }};
}

}  // namespace graphrun::cli
