// graphrun: the command line. One file per subcommand, listed in the command
// table (command_table.cpp); the driver, with the exit-status policy, is
// command_line.hpp's.
#include "cli/command_line.hpp"
#include "command_table.hpp"

#ifndef GRAPHRUN_VERSION
#define GRAPHRUN_VERSION "unknown"
#endif

int main(int argc, char** argv) {
  return graphrun::cli::command_line_main(
      argc, argv,
      {"graphrun " GRAPHRUN_VERSION
       ": graph analytics on sparse linear algebra (CPU with OpenMP, GPU with CUDA).\n"
       "Loads a graph once into CSR and runs an algorithm on it; results are tab-separated\n"
       "lines keyed by the input's vertex ids.",
       "\nRun 'graphrun SUBCOMMAND --help' for a subcommand's options, input formats and "
       "output.\n"
       "\nEXAMPLE:\n"
       "  graphrun pagerank datasets/karate/karate.txt.gz --undirected --top 5\n",
       graphrun::cli::add_commands});
}
