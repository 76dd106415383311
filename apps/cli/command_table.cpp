// The table of `graphrun`'s subcommands. Adding one is a file that defines
// `Command add_NAME(CLI::App& root)` (cmd_NAME.cpp here) and one COMMAND line
// below; the line declares the function and adds the subcommand in the
// order of `graphrun --help`. A DELEGATED line is a subcommand that
// graphrun-compare runs (delegated.hpp: bench/cmd_bench.cpp,
// experiment/cmd_experiment.cpp), listed here with its NAME_summary.
#include "command_table.hpp"

#include "delegated.hpp"

#define GRAPHRUN_COMMAND_TABLE(COMMAND, DELEGATED) \
  COMMAND(pagerank)                                \
  COMMAND(bfs)                                     \
  COMMAND(cc)                                      \
  COMMAND(sssp)                                    \
  COMMAND(kcore)                                   \
  COMMAND(triangles)                               \
  COMMAND(bc)                                      \
  COMMAND(louvain)                                 \
  COMMAND(spgemm)                                  \
  COMMAND(contract)                                \
  COMMAND(mcl)                                     \
  DELEGATED(experiment)                            \
  COMMAND(info)                                    \
  COMMAND(convert)                                 \
  DELEGATED(bench)

namespace graphrun::cli {

#define GRAPHRUN_DECLARE_COMMAND(name) Command add_##name(CLI::App& root);
#define GRAPHRUN_NOTHING(name)
GRAPHRUN_COMMAND_TABLE(GRAPHRUN_DECLARE_COMMAND, GRAPHRUN_NOTHING)
#undef GRAPHRUN_NOTHING
#undef GRAPHRUN_DECLARE_COMMAND

std::vector<Command> add_commands(CLI::App& root) {
  // A braced list is evaluated left to right: the subcommands are added to
  // `root` in the table's order.
#define GRAPHRUN_ADD_COMMAND(name) add_##name(root),
#define GRAPHRUN_ADD_DELEGATED(name) delegated_command(root, #name, name##_summary),
  return {GRAPHRUN_COMMAND_TABLE(GRAPHRUN_ADD_COMMAND, GRAPHRUN_ADD_DELEGATED)};
#undef GRAPHRUN_ADD_DELEGATED
#undef GRAPHRUN_ADD_COMMAND
}

}  // namespace graphrun::cli
