// The driver every graphrun program's main() runs: the root app and its
// help layout, the parse, the one subcommand given, and the exit-status
// policy of common.hpp (the error kinds to 2 or 1, messages on stderr as
// "graphrun: error: ..."). `graphrun` and `graphrun-compare` (which holds
// `bench` and `experiment`, see delegated.hpp) differ only in their
// description and their table of subcommands.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "common.hpp"

namespace graphrun::cli {

struct CommandLine {
  std::string description;  // the first lines of --help
  std::string footer;       // after the exit statuses at the end of --help
  std::vector<Command> (*add_commands)(CLI::App& root);
};

// Runs the command line argv as graphrun's and returns main's status.
int command_line_main(int argc, char** argv, const CommandLine& spec);

}  // namespace graphrun::cli
