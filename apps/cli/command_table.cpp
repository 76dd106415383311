// The table of `graphrun`'s subcommands. Adding one is a file that defines
// `Command add_NAME(CLI::App& root)` (cmd_NAME.cpp here, or the folder of
// its job, e.g. bench/cmd_bench.cpp) and one line below; the line declares
// the function and adds the subcommand in the order of `graphrun --help`.
#include "command_table.hpp"

#define GRAPHRUN_COMMAND_TABLE(COMMAND) \
  COMMAND(pagerank)                     \
  COMMAND(bfs)                          \
  COMMAND(cc)                           \
  COMMAND(sssp)                         \
  COMMAND(kcore)                        \
  COMMAND(triangles)                    \
  COMMAND(bc)                           \
  COMMAND(louvain)                      \
  COMMAND(spgemm)                       \
  COMMAND(contract)                     \
  COMMAND(mcl)                          \
  COMMAND(experiment)                   \
  COMMAND(info)                         \
  COMMAND(convert)                      \
  COMMAND(bench)

namespace graphrun::cli {

#define GRAPHRUN_DECLARE_COMMAND(name) Command add_##name(CLI::App& root);
GRAPHRUN_COMMAND_TABLE(GRAPHRUN_DECLARE_COMMAND)
#undef GRAPHRUN_DECLARE_COMMAND

std::vector<Command> add_commands(CLI::App& root) {
  // A braced list is evaluated left to right: the subcommands are added to
  // `root` in the table's order.
#define GRAPHRUN_ADD_COMMAND(name) add_##name(root),
  return {GRAPHRUN_COMMAND_TABLE(GRAPHRUN_ADD_COMMAND)};
#undef GRAPHRUN_ADD_COMMAND
}

}  // namespace graphrun::cli
