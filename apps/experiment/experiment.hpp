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

#include "bench/bench.hpp"
#include "cli/common.hpp"

namespace graphrun::cli::experiment {

struct ExperimentOptions {
  bench::BenchOptions graphs;     // inputs, --suite, --device, --threads, --reps
  std::string png;                // --png FILE: the speed-up chart
  int max_iter = 0;               // mcl: iteration cap (0 = run to convergence)
  double inflation = 2.0;         // mcl: -I
  bool no_generated = false;      // --no-generated: only the files of --suite / the inputs
  std::vector<std::string> tune;  // contraction, mcl: --tune KEY=N, graphrun's SpGEMM options
};

// --png and --no-generated, the options every experiment adds to the bench ones.
void add_experiment_options(CLI::App& sub, ExperimentOptions& o);

// The graphs an experiment runs when none are named: every graph of the
// shared collection (../shared/datasets, else the shipped datasets/) and,
// on the GPU, the generated stand-ins for the published inputs.
void default_inputs(ExperimentOptions& o, const std::vector<std::string>& generated);

// Collects the speed-up of every row for the chart, the averages and the
// summary per size class (bench::SizeClass), where each class reads against
// the goal on its own, so that an average over small graphs cannot hide a
// loss on large ones; the anchor's failures are counted there too.
class SpeedUps {
 public:
  // `goal`: the speed-up every graph should reach (0: none); `anchor`: the
  // program compared with, as the failure column names it ("cuSPARSE").
  SpeedUps(double goal, std::string anchor);
  void add(const std::string& graph, offset_t edges, const std::string& variant, double speed_up);
  // The anchor failed on a graph graphrun ran: no speed-up, one failure.
  void anchor_failed(const std::string& graph, offset_t edges, const std::string& variant);
  // Prints the arithmetic and geometric means per variant, then per size
  // class the graphs, the anchor's failures, the geometric mean, the lowest
  // speed-up and whether the goal holds on every graph of the class; writes
  // the chart when --png was given.
  void finish(const ExperimentOptions& o, const std::string& title) const;

 private:
  std::size_t graph_index(const std::string& graph, offset_t edges);
  std::size_t variant_index(const std::string& variant);

  double goal_;
  std::string anchor_;
  std::vector<std::string> graphs_;
  std::vector<offset_t> edges_;  // per graph
  std::vector<std::string> variants_;
  std::vector<std::vector<double>> values_;  // [variant][graph]; NaN: none
  std::vector<std::vector<bool>> failed_;    // [variant][graph]: the anchor failed
};

Command add_contraction(CLI::App& experiment);
Command add_mcl(CLI::App& experiment);
// `experiment plot CSV --png OUT`: the chart of a table written with --csv
// (on a machine whose build has no libgd, the CSV travels and is drawn here).
Command add_plot(CLI::App& experiment);

}  // namespace graphrun::cli::experiment
