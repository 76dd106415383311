// What the experiment drivers share: default inputs, the speed-up summary
// and its chart.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>

#include "chart.hpp"
#include "experiment.hpp"

namespace graphrun::cli::experiment {

void add_experiment_options(CLI::App& sub, ExperimentOptions& o) {
  sub.add_option("--png", o.png, "Write the speed-ups as a bar chart (PNG)")->type_name("FILE");
  sub.add_flag("--no-generated", o.no_generated,
               "Leave out the generated stand-ins that --suite (or no input) adds");
}

void default_inputs(ExperimentOptions& o, const std::vector<std::string>& generated) {
  const bool named = !o.graphs.inputs.empty() || !o.graphs.suite_dir.empty();
  if (!named)
    o.graphs.suite_dir =
        std::filesystem::is_directory("../shared/datasets") ? "../shared/datasets" : "datasets";
  // for_each_graph adds `generated` after the files of suite_dir only.
  o.graphs.generated = o.no_generated ? std::vector<std::string>{} : generated;
}

void SpeedUps::add(const std::string& graph, const std::string& variant, double speed_up) {
  std::size_t g = 0;
  while (g < graphs_.size() && graphs_[g] != graph) ++g;
  if (g == graphs_.size()) {
    graphs_.push_back(graph);
    for (auto& v : values_) v.push_back(std::numeric_limits<double>::quiet_NaN());
  }
  std::size_t s = 0;
  while (s < variants_.size() && variants_[s] != variant) ++s;
  if (s == variants_.size()) {
    variants_.push_back(variant);
    values_.emplace_back(graphs_.size(), std::numeric_limits<double>::quiet_NaN());
  }
  values_[s][g] = speed_up;
}

void SpeedUps::finish(const ExperimentOptions& o, const std::string& title) const {
  std::printf("\n");
  for (std::size_t s = 0; s < variants_.size(); ++s) {
    double sum = 0, logs = 0;
    int n = 0;
    for (double v : values_[s])
      if (std::isfinite(v) && v > 0) {
        sum += v;
        logs += std::log(v);
        ++n;
      }
    if (n)
      std::printf("%s: mean speed-up %.2fx, geometric mean %.2fx over %d graph%s\n",
                  variants_[s].c_str(), sum / n, std::exp(logs / n), n, n == 1 ? "" : "s");
  }
  std::fflush(stdout);
  if (o.png.empty() || graphs_.empty()) return;
  BarChart chart;
  chart.title = title;
  chart.y_label = "speed-up (anchor time / graphrun time)";
  chart.categories = graphs_;
  for (std::size_t s = 0; s < variants_.size(); ++s)
    chart.series.push_back({variants_[s], values_[s]});
  chart.reference_line = 1.0;
  write_png(o.png, chart);
}

}  // namespace graphrun::cli::experiment
