// The subcommands of `graphrun`, as a table (command_table.cpp): each lives
// in a file of its own that defines
//   Command add_NAME(CLI::App& root)      in namespace graphrun::cli
// which adds the subcommand to the root app and returns what to run once the
// command line parsed. What a command needs to know of itself (its name in
// messages, whether it has a GPU path) it says where it makes its Context
// (make_context or make_cpu_context, common.hpp), so main.cpp and the
// helpers know no command by name.
#pragma once

#include <CLI/CLI.hpp>
#include <vector>

#include "common.hpp"

namespace graphrun::cli {

// Adds every subcommand of the table to `root`, in the table's order (the
// order of `graphrun --help`), and returns them in that order.
std::vector<Command> add_commands(CLI::App& root);

}  // namespace graphrun::cli
