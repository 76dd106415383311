// The subcommands of `graphrun`, one file each (cmd_*.cpp). Each adds itself
// to the root app and returns what to run once the command line parsed.
#pragma once

#include <CLI/CLI.hpp>

#include "common.hpp"

namespace graphrun::cli {

Command add_pagerank(CLI::App& root);
Command add_bfs(CLI::App& root);
Command add_info(CLI::App& root);
Command add_convert(CLI::App& root);
Command add_spgemm(CLI::App& root);
Command add_contract(CLI::App& root);
Command add_mcl(CLI::App& root);
Command add_experiment(CLI::App& root);
Command add_bench(CLI::App& root);

}  // namespace graphrun::cli
