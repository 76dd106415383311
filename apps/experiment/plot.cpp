// graphrun experiment plot: the speed-up chart of an experiment's CSV table.
// The GPU machine's build may have no libgd; its CSV is drawn here, with the
// same chart the experiment would have written with --png.
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "experiment.hpp"
#include "graphrun/engine/error.hpp"

namespace graphrun::cli::experiment {

namespace {

// One CSV record (the tables' own quoting: "..." with "" for a quote).
std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cells.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cells.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      cells.emplace_back();
    } else {
      cells.back() += c;
    }
  }
  return cells;
}

struct PlotArgs {
  std::string csv, png, title = "speed-up over the anchor";
};

void run(const PlotArgs& a) {
  std::ifstream in(a.csv);
  if (!in) throw InputError(a.csv, "cannot be read");
  std::string line;
  if (!std::getline(in, line)) throw InputError(a.csv, "empty file");
  const auto head = split_csv(line);
  int graph = -1, variant = -1, speed = -1, edges = -1;
  for (int c = 0; c < static_cast<int>(head.size()); ++c) {
    if (head[c] == "graph") graph = c;
    if (head[c] == "edges") edges = c;
    if (head[c] == "labels") variant = c;
    if (speed < 0 && head[c].starts_with("speed-up")) speed = c;
  }
  if (graph < 0 || speed < 0)
    throw InputError(a.csv, 1,
                     "expected a 'graph' and a 'speed-up...' column (an experiment's --csv)");
  ExperimentOptions o;
  o.png = a.png;
  SpeedUps s(0, "the anchor");  // the goal is the experiment's; the table does not say it
  for (std::int64_t no = 2; std::getline(in, line); ++no) {
    if (line.empty()) continue;
    const auto cells = split_csv(line);
    if (cells.size() != head.size())
      throw InputError(a.csv, no, "expected " + std::to_string(head.size()) + " fields");
    char* end = nullptr;
    const double v = std::strtod(cells[speed].c_str(), &end);
    if (end == cells[speed].c_str()) continue;  // "-": the anchor failed
    const offset_t m = edges >= 0 ? std::strtoll(cells[edges].c_str(), nullptr, 10) : 0;
    s.add(cells[graph], m, variant >= 0 ? cells[variant] : head[speed], v);
  }
  s.finish(o, a.title);
}

}  // namespace

Command add_plot(CLI::App& experiment) {
  auto a = std::make_shared<PlotArgs>();
  CLI::App* sub = experiment.add_subcommand(
      "plot", "Draw the speed-up chart (PNG) of a table an experiment wrote with --csv");
  sub->add_option("CSV", a->csv, "The experiment's --csv table")->required()->type_name("FILE");
  sub->add_option("--png", a->png, "The chart to write")->required()->type_name("FILE");
  sub->add_option("--title", a->title, "The chart's title")->capture_default_str();
  return {sub, [a] { run(*a); }};
}

}  // namespace graphrun::cli::experiment
