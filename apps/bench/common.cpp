// What the benchmark drivers share (bench.hpp): options, inputs, tables, timing.
#include <omp.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string_view>
#include <utility>

#include "bench.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/generators/lfr.hpp"
#include "graphrun/generators/synthetic.hpp"
#include "graphrun/io/load.hpp"
#include "graphrun/io/write.hpp"

namespace graphrun::cli::bench {

void add_bench_options(CLI::App& sub, BenchOptions& o) {
  sub.add_option("INPUT", o.inputs,
                 "Graph files (edge list, Matrix Market, .grb) or generated graphs:\n"
                 "gen:rmat:SCALE[:EDGE_FACTOR] (Graph500 a=.57 b=c=.19, edge factor 16),\n"
                 "gen:grid:ROWSxCOLS (5-point grid, undirected), gen:uniform:N:DEGREE,\n"
                 "gen:lfr:N[:MU[:DEGREE[:MAX_DEGREE]]] (LFR graph with planted communities,\n"
                 "undirected; defaults 0.3, 20, 50)")
      ->type_name("FILE|GEN");
  sub.add_option("--suite", o.suite_dir,
                 "Also run every graph file under DIR (sorted by name), then the benchmark's\n"
                 "generated suite (gen:rmat:20 gen:rmat:22 gen:grid:2000x2000\n"
                 "gen:uniform:4000000:16; for spgemm gen:rmat:16..18)")
      ->type_name("DIR")
      ->check(CLI::ExistingDirectory);
  add_device_option(sub, o.device);
  add_threads_option(sub, o.threads);
  sub.add_option("--reps", o.reps, "Timed repetitions per measurement (median reported)")
      ->check(int_at_least(1, "a repetition count >= 1"))
      ->type_name("R");
  sub.add_flag("--undirected", o.undirected,
               "Symmetrize every input (add the reverse of each edge); grids always are");
  sub.add_option("--csv", o.csv, "Also write the table as CSV to FILE")->type_name("FILE");
}

std::vector<std::string> generated_suite() {
  return {"gen:rmat:20", "gen:rmat:22", "gen:grid:2000x2000", "gen:uniform:4000000:16"};
}

namespace {

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t p = s.find(sep, start);
    parts.emplace_back(s.substr(start, p - start));
    if (p == std::string_view::npos) return parts;
    start = p + 1;
  }
}

std::uint64_t spec_number(const std::string& text, const std::string& spec) {
  std::uint64_t v = 0;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || text.empty())
    throw ArgumentError("generated graph '" + spec + "': '" + text + "' is not a number");
  return v;
}

double spec_real(const std::string& text, const std::string& spec) {
  double v = 0;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || text.empty())
    throw ArgumentError("generated graph '" + spec + "': '" + text + "' is not a number");
  return v;
}

// Graph files of a suite folder (edge lists, Matrix Market, .grb).
std::vector<std::string> suite_files(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const std::string name = e.path().filename().string();
    const auto ends = [&](std::string_view suffix) {
      return name.size() >= suffix.size() &&
             name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (!(ends(".txt") || ends(".txt.gz") || ends(".mtx") || ends(".mtx.gz") || ends(".grb")))
      continue;
    // Vertex name lists and ground-truth communities sit beside the graphs.
    bool side_file = false;
    for (std::string_view tag : {".nodes.", "groundtruth", "communit", "cmty", "complexes"})
      side_file = side_file || name.find(tag) != std::string::npos;
    if (side_file) continue;
    files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string stem(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  for (std::string_view ext : {".gz", ".txt", ".mtx", ".grb"})
    if (name.size() > ext.size() && name.ends_with(ext)) name.resize(name.size() - ext.size());
  return name;
}

}  // namespace

Graph generate_graph(const std::string& spec, bool undirected, int threads,
                     std::vector<vertex_t>* planted) {
  const auto parts = split(spec, ':');
  if (parts.size() < 2 || parts[0] != "gen")
    throw ArgumentError("'" + spec + "' is not a generated-graph spec (gen:KIND:...)");
  if (threads > 0) omp_set_num_threads(threads);
  Coo<double> coo;
  const std::string& kind = parts[1];
  if (kind == "rmat" && (parts.size() == 3 || parts.size() == 4)) {
    const std::uint64_t scale = spec_number(parts[2], spec);
    if (scale == 0 || scale > 30) throw ArgumentError("'" + spec + "': R-MAT scale must be 1..30");
    coo = gen::rmat(static_cast<unsigned>(scale),
                    parts.size() == 4 ? spec_number(parts[3], spec) : 16);
  } else if (kind == "grid" && parts.size() == 3) {
    const auto rc = split(parts[2], 'x');
    if (rc.size() != 2) throw ArgumentError("'" + spec + "': expected gen:grid:ROWSxCOLS");
    coo = gen::grid(spec_number(rc[0], spec), spec_number(rc[1], spec));
    undirected = true;
  } else if (kind == "uniform" && parts.size() == 4) {
    coo = gen::uniform(spec_number(parts[2], spec), spec_number(parts[3], spec));
  } else if (kind == "lfr" && parts.size() >= 3 && parts.size() <= 6) {
    // gen:lfr:N[:MU[:DEGREE[:MAX_DEGREE]]], the other parameters LFR's defaults.
    gen::LfrOptions lo;
    lo.n = spec_number(parts[2], spec);
    if (parts.size() > 3) lo.mu = spec_real(parts[3], spec);
    if (parts.size() > 4) lo.avg_degree = spec_real(parts[4], spec);
    if (parts.size() > 5) lo.max_degree = spec_number(parts[5], spec);
    gen::LfrGraph g = gen::lfr(lo);
    if (planted) *planted = std::move(g.community);
    coo = std::move(g.edges);
    undirected = true;  // each edge once
  } else {
    throw ArgumentError("'" + spec +
                        "' is not a generated-graph spec: expected gen:rmat:SCALE[:EF], "
                        "gen:grid:ROWSxCOLS, gen:uniform:N:DEGREE or "
                        "gen:lfr:N[:MU[:DEGREE[:MAX_DEGREE]]]");
  }
  if (undirected) {
    const std::size_t m = coo.row.size();
    coo.row.reserve(2 * m);
    coo.col.reserve(2 * m);
    for (std::size_t k = 0; k < m; ++k) {
      if (coo.row[k] == coo.col[k]) continue;  // a self loop stays one entry
      coo.row.push_back(coo.col[k]);
      coo.col.push_back(coo.row[k]);
    }
  }
  return Graph(Csr<double>::from_coo(coo), {}, !undirected, false);
}

void for_each_graph(const BenchOptions& o, const std::function<void(const BenchGraph&)>& fn) {
  std::vector<std::string> inputs;
  if (!o.suite_dir.empty()) {
    inputs = suite_files(o.suite_dir);
    for (const auto& g : o.generated) inputs.push_back(g);
  }
  inputs.insert(inputs.end(), o.inputs.begin(), o.inputs.end());
  if (inputs.empty()) throw ArgumentError("no input: give graph files, gen: specs or --suite DIR");
  for (const std::string& in : inputs) {
    BenchGraph g;
    const Stopwatch t0;
    try {
      if (in.starts_with("gen:")) {
        g.name = in;
        g.graph = generate_graph(in, o.undirected, o.threads, &g.planted);
      } else {
        g.name = stem(in);
        io::LoadOptions lo;
        lo.undirected = o.undirected;
        lo.threads = o.threads;
        try {
          g.graph = io::load_graph(in, lo);
        } catch (const InputError& e) {
          // Protein networks name their vertices (YKR068C): an edge list
          // whose ids are not numbers is read again as ABC text.
          if (std::string(e.what()).find("is not a number") == std::string::npos) throw;
          lo.abc = true;
          g.graph = io::load_graph(in, lo);
        }
      }
    } catch (const ArgumentError&) {
      throw;  // a malformed gen: spec is the caller's mistake: stop
    } catch (const Error& e) {
      std::fflush(stdout);
      std::fprintf(stderr, "graphrun: bench: skipping %s: %s\n", in.c_str(), e.what());
      continue;
    }
    g.load_seconds = t0.seconds();
    fn(g);
  }
}

Table::Table(std::vector<std::string> columns, std::string csv_path)
    : columns_(std::move(columns)), csv_path_(std::move(csv_path)) {
  std::string head = "|", rule = "|";
  for (const auto& c : columns_) {
    head += " " + c + " |";
    rule += " --- |";
  }
  std::printf("%s\n%s\n", head.c_str(), rule.c_str());
  std::fflush(stdout);
}

void Table::row(const std::vector<std::string>& cells) {
  std::string line = "|";
  for (const auto& c : cells) line += " " + c + " |";
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
  rows_.push_back(cells);
}

void Table::finish() {
  if (csv_path_.empty()) return;
  io::OutputFile out(csv_path_);
  const auto put = [&](const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const bool quote = cells[i].find_first_of(",\"") != std::string::npos;
      std::string cell = cells[i];
      if (quote) {
        std::string q = "\"";
        for (char ch : cell) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
        cell = q + "\"";
      }
      std::fprintf(out.stream(), "%s%s", i ? "," : "", cell.c_str());
    }
    std::fputc('\n', out.stream());
  };
  put(columns_);
  for (const auto& r : rows_) put(r);
  out.commit();
}

double median_ms(int reps, const std::function<void()>& fn) {
  fn();  // warm-up: first-touch, caches, lazy initialization
  std::vector<double> t(static_cast<std::size_t>(std::max(reps, 1)));
  for (double& ms : t) {
    const Stopwatch t0;
    fn();
    ms = t0.ms();
  }
  return median(std::move(t));
}

std::string fixed(double v, int digits) { return format("%.*f", digits, v); }

SizeClass size_class(offset_t edges) {
  if (edges >= 10'000'000) return SizeClass::large;
  if (edges >= 1'000'000) return SizeClass::medium;
  return SizeClass::small;
}

const char* to_string(SizeClass c) {
  switch (c) {
    case SizeClass::small:
      return "< 10^6 edges";
    case SizeClass::medium:
      return "10^6 - 10^7 edges";
    case SizeClass::large:
      return ">= 10^7 edges";
  }
  return "?";
}

ClassSummary::ClassSummary(std::vector<Ratio> ratios)
    : ratios_(std::move(ratios)),
      values_(3, std::vector<std::vector<double>>(ratios_.size())),
      graphs_(3, 0) {}

void ClassSummary::add(offset_t edges, const std::vector<double>& values) {
  const auto c = static_cast<std::size_t>(size_class(edges));
  ++graphs_[c];
  for (std::size_t r = 0; r < ratios_.size() && r < values.size(); ++r)
    if (std::isfinite(values[r]) && values[r] > 0) values_[c][r].push_back(values[r]);
}

void ClassSummary::print() const {
  if (std::all_of(graphs_.begin(), graphs_.end(), [](int g) { return g == 0; })) return;
  std::printf("\nPer size class (geometric mean, worst):\n\n| size class | graphs |");
  for (const Ratio& r : ratios_) std::printf(" %s |", r.name.c_str());
  std::printf("\n| --- | ---: |");
  for (std::size_t r = 0; r < ratios_.size(); ++r) std::printf(" --- |");
  std::printf("\n");
  for (std::size_t c = 0; c < graphs_.size(); ++c) {
    if (graphs_[c] == 0) continue;
    std::printf("| %s | %d |", to_string(static_cast<SizeClass>(c)), graphs_[c]);
    for (std::size_t r = 0; r < ratios_.size(); ++r) {
      const std::vector<double>& v = values_[c][r];
      if (v.empty()) {
        std::printf(" - |");
        continue;
      }
      double log_sum = 0;
      for (double x : v) log_sum += std::log(x);
      const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
      std::printf(" %.2f, %.2f |", std::exp(log_sum / static_cast<double>(v.size())),
                  ratios_[r].higher_is_better ? *lo : *hi);
    }
    std::printf("\n");
  }
  std::fflush(stdout);
}

}  // namespace graphrun::cli::bench
