// The subcommands that `graphrun` hands to `graphrun-compare`: `bench` and
// `experiment`, which time graphrun beside cuSPARSE, SuiteSparse:GraphBLAS
// and the mcl program and draw charts with libgd. Those libraries are
// loaded at every start of a program that links them, and cost more than
// many whole runs: 7.5 ms for libgd (its image codecs' initialisers), 2.7
// ms for GraphBLAS, 7 ms for cuSPARSE with its JIT linker, with a warm page
// cache. So they live in a program of their own, and `graphrun bench ARGS`
// replaces itself with `graphrun-compare bench ARGS` (execv) from the
// folder graphrun runs from: same arguments, same output, same exit status.
#pragma once

#include <CLI/CLI.hpp>

#include "common.hpp"

namespace graphrun::cli {

// The first lines of their descriptions, which `graphrun --help` lists.
inline constexpr const char* bench_summary =
    "Benchmarks: graphrun's kernels beside cuSPARSE (GPU) or GraphBLAS (CPU)";
inline constexpr const char* experiment_summary =
    "Reproduce published comparisons: contraction and MCL against cuSPARSE and mcl";

// The program that runs them, looked for beside the running graphrun.
inline constexpr const char* compare_program = "graphrun-compare";

// Adds `name` to root as a subcommand whose arguments, --help included,
// all go to `graphrun-compare name`; running it execs that program (an
// InputError naming the path where it is missing or cannot be run).
Command delegated_command(CLI::App& root, const char* name, const char* summary);

}  // namespace graphrun::cli
