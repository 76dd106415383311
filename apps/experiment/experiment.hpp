// `graphrun experiment contraction|mcl`: reproductions of the published
// comparison of a hash SpGEMM with cuSPARSE inside two applications (graph
// contraction and Markov clustering), and of graphrun's MCL with the mcl
// program on the CPU. Each prints a Markdown table, and writes it again as
// CSV (--csv) and the speed-ups as a PNG bar chart (--png). The figures are
// kept in docs/experiments.md with the commands that made them.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "../bench/bench.hpp"
#include "../common.hpp"

namespace graphrun::cli::experiment {

struct ExperimentOptions {
  bench::BenchOptions graphs;  // inputs, --suite, --device, --threads, --reps
  std::string png;             // --png FILE: the speed-up chart
  int max_iter = 0;            // mcl: iteration cap (0 = run to convergence)
  double inflation = 2.0;      // mcl: -I
  bool no_generated = false;   // --no-generated: only the files of --suite / the inputs
};

// --png and --no-generated, the options every experiment adds to the bench ones.
void add_experiment_options(CLI::App& sub, ExperimentOptions& o);

// The graphs an experiment runs when none are named: every graph of the
// shared collection (../shared/datasets, else the shipped datasets/) and,
// on the GPU, the generated stand-ins for the published inputs.
void default_inputs(ExperimentOptions& o, const std::vector<std::string>& generated);

// Collects the speed-up of every row for the chart and the averages.
class SpeedUps {
 public:
  void add(const std::string& graph, const std::string& variant, double speed_up);
  // Prints the arithmetic and geometric means per variant, writes the chart
  // when --png was given.
  void finish(const ExperimentOptions& o, const std::string& title) const;

 private:
  std::vector<std::string> graphs_;
  std::vector<std::string> variants_;
  std::vector<std::vector<double>> values_;  // [variant][graph]
};

Command add_contraction(CLI::App& experiment);
Command add_mcl(CLI::App& experiment);
// `experiment plot CSV --png OUT`: the chart of a table written with --csv
// (on a machine whose build has no libgd, the CSV travels and is drawn here).
Command add_plot(CLI::App& experiment);

}  // namespace graphrun::cli::experiment
