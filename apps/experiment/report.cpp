// What the experiment drivers share: default inputs, the speed-up summary
// and its chart.
#include <algorithm>
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

SpeedUps::SpeedUps(double goal, std::string anchor) : goal_(goal), anchor_(std::move(anchor)) {}

std::size_t SpeedUps::graph_index(const std::string& graph, offset_t edges) {
  std::size_t g = 0;
  while (g < graphs_.size() && graphs_[g] != graph) ++g;
  if (g == graphs_.size()) {
    graphs_.push_back(graph);
    edges_.push_back(edges);
    for (auto& v : values_) v.push_back(std::numeric_limits<double>::quiet_NaN());
    for (auto& f : failed_) f.push_back(false);
  }
  return g;
}

std::size_t SpeedUps::variant_index(const std::string& variant) {
  std::size_t s = 0;
  while (s < variants_.size() && variants_[s] != variant) ++s;
  if (s == variants_.size()) {
    variants_.push_back(variant);
    values_.emplace_back(graphs_.size(), std::numeric_limits<double>::quiet_NaN());
    failed_.emplace_back(graphs_.size(), false);
  }
  return s;
}

void SpeedUps::add(const std::string& graph, offset_t edges, const std::string& variant,
                   double speed_up) {
  const std::size_t g = graph_index(graph, edges);
  values_[variant_index(variant)][g] = speed_up;
}

void SpeedUps::anchor_failed(const std::string& graph, offset_t edges, const std::string& variant) {
  const std::size_t g = graph_index(graph, edges);
  failed_[variant_index(variant)][g] = true;
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
  if (!variants_.empty()) {
    std::printf("\nPer size class%s:\n\n",
                goal_ > 0 ? format(" (goal: every graph at %.2fx or more)", goal_).c_str() : "");
    std::printf("| variant | size class | graphs | %s fails | geometric mean | lowest | goal |\n",
                anchor_.c_str());
    std::printf("| --- | --- | ---: | ---: | ---: | ---: | --- |\n");
  }
  for (std::size_t s = 0; s < variants_.size(); ++s)
    for (const bench::SizeClass c :
         {bench::SizeClass::small, bench::SizeClass::medium, bench::SizeClass::large}) {
      std::vector<double> v;
      int graphs = 0, fails = 0;
      for (std::size_t g = 0; g < graphs_.size(); ++g) {
        if (bench::size_class(edges_[g]) != c) continue;
        const bool ran = std::isfinite(values_[s][g]) && values_[s][g] > 0;
        if (!ran && !failed_[s][g]) continue;
        ++graphs;
        if (failed_[s][g]) ++fails;
        if (ran) v.push_back(values_[s][g]);
      }
      if (graphs == 0) continue;
      std::string mean = "-", lowest = "-", goal = "-";
      if (!v.empty()) {
        double logs = 0;
        for (double x : v) logs += std::log(x);
        mean = format("%.2fx", std::exp(logs / static_cast<double>(v.size())));
        lowest = format("%.2fx", *std::min_element(v.begin(), v.end()));
      }
      if (goal_ > 0) {
        const auto below = std::count_if(v.begin(), v.end(), [&](double x) { return x < goal_; });
        goal = v.empty() ? "not measured"
               : below == 0
                   ? format("met on %zu of %zu", v.size(), v.size())
                   : format("not met: %lld of %zu below", static_cast<long long>(below), v.size());
      }
      std::printf("| %s | %s | %d | %d | %s | %s | %s |\n", variants_[s].c_str(),
                  bench::to_string(c), graphs, fails, mean.c_str(), lowest.c_str(), goal.c_str());
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
