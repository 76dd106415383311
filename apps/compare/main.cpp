// graphrun-compare: the subcommands of graphrun that time it beside other
// programs, `graphrun experiment` and `graphrun bench`, which graphrun hands
// over to this program (cli/delegated.hpp). Called directly, it takes the
// same command lines: graphrun-compare bench spmv gen:rmat:20.
#include "cli/command_line.hpp"
#include "cli/delegated.hpp"

namespace graphrun::cli {

Command add_experiment(CLI::App& root);  // experiment/cmd_experiment.cpp
Command add_bench(CLI::App& root);       // bench/cmd_bench.cpp

namespace {

std::vector<Command> add_compare_commands(CLI::App& root) {
  return {add_experiment(root), add_bench(root)};
}

}  // namespace

}  // namespace graphrun::cli

int main(int argc, char** argv) {
  return graphrun::cli::command_line_main(
      argc, argv,
      {std::string("graphrun-compare: graphrun beside other programs, for graphrun's "
                   "'experiment' and 'bench'\n"
                   "subcommands, which run it (") +
           graphrun::cli::experiment_summary + "; " + graphrun::cli::bench_summary + ").",
       "\nRun 'graphrun SUBCOMMAND --help' for a subcommand's options.\n",
       graphrun::cli::add_compare_commands});
}
