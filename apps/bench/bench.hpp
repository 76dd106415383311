// `graphrun bench spmv|pagerank|bfs|spgemm`: benchmark drivers that put a
// graphrun kernel beside its anchor (cuSPARSE on the GPU, SuiteSparse:
// GraphBLAS on the CPU) in one run and print Markdown tables.
//
// What every driver shares lives here: the options (inputs, suite, device,
// threads, repetitions, CSV copy), the inputs — files, or generated graphs
// named `gen:rmat:SCALE[:EF]`, `gen:grid:ROWSxCOLS`, `gen:uniform:N:DEG` —
// loaded one at a time, a streaming table printer, and timing by medians.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "cli/common.hpp"

namespace graphrun::cli::bench {

// The graphs of the generated suite: R-MAT scales 20 and 22 (edge factor 16),
// a 2000x2000 5-point grid, a uniform random graph with 4M vertices, degree 16.
std::vector<std::string> generated_suite();

struct BenchOptions {
  std::vector<std::string> inputs;  // files and gen: specs
  std::string suite_dir;            // --suite DIR: every graph under DIR, then the generated suite
  std::string device = "cpu";
  int threads = 0;
  int reps = 0;  // 0: the driver's default
  bool undirected = false;
  std::string csv;  // --csv FILE: the table again as CSV
  // What --suite runs after the files under suite_dir: generated_suite()
  // unless the driver has its own (SpGEMM: R-MAT scales 16-18).
  std::vector<std::string> generated = generated_suite();
};

// Adds INPUT... (optional positional), --suite, --device, --threads, --reps,
// --undirected, --csv to a bench subcommand.
void add_bench_options(CLI::App& sub, BenchOptions& o);

struct BenchGraph {
  std::string name;  // file stem or the gen: spec
  Graph graph;
  double load_seconds = 0;
  // The communities planted in a generated graph (gen:lfr), one per vertex;
  // empty otherwise.
  std::vector<vertex_t> planted;
};

// Calls fn for every input in order (suite first when --suite is given),
// loading each just before and freeing it after; an edge list whose vertex
// ids are not numbers is read as ABC text (named vertices, io::read_abc). A file that cannot be
// read is reported on stderr and skipped, so one bad file does not end a suite.
void for_each_graph(const BenchOptions& o, const std::function<void(const BenchGraph&)>& fn);

// Builds one gen: spec in memory (ArgumentError for a malformed spec).
// gen:lfr also fills *planted (when given) with its planted communities.
Graph generate_graph(const std::string& spec, bool undirected, int threads,
                     std::vector<vertex_t>* planted = nullptr);

// A Markdown table printed row by row as results arrive (flushed), and kept
// to be written as CSV at the end when --csv was given.
class Table {
 public:
  Table(std::vector<std::string> columns, std::string csv_path);
  void row(const std::vector<std::string>& cells);
  const std::vector<std::string>& columns() const { return columns_; }
  void finish();  // writes the CSV (through OutputFile) if asked

 private:
  std::vector<std::string> columns_;
  std::vector<std::vector<std::string>> rows_;
  std::string csv_path_;
};

// The size classes every benchmark reports apart, so that an average over
// small graphs cannot hide a loss on large ones: small (< 10^6 edges, where a
// GPU is all launch overhead), medium (10^6 to 10^7) and large (>= 10^7).
enum class SizeClass { small, medium, large };
SizeClass size_class(offset_t edges);
const char* to_string(SizeClass c);  // "< 10^6 edges", ...

// Ratios of graphrun to its anchor (or to a floor), gathered graph by graph
// and printed after the table as one Markdown row per size class: the
// graphs, and per ratio the geometric mean and the worst value.
class ClassSummary {
 public:
  struct Ratio {
    std::string name;       // "pick / cuSPARSE"
    bool higher_is_better;  // the worst is then the lowest
  };
  explicit ClassSummary(std::vector<Ratio> ratios);
  // One value per ratio; a value that is not a positive finite number (no
  // anchor, a refused format) is left out of its ratio.
  void add(offset_t edges, const std::vector<double>& values);
  // Prints nothing when no graph was added.
  void print() const;

 private:
  std::vector<Ratio> ratios_;
  // values_[class][ratio]: the ratio's values on the class's graphs.
  std::vector<std::vector<std::vector<double>>> values_;
  std::vector<int> graphs_;  // per class
};

// The median of `reps` timings of fn (milliseconds), after one warm-up call.
double median_ms(int reps, const std::function<void()>& fn);

std::string fixed(double v, int digits);  // "%.*f"

// The subcommands, one file each (bench/spmv.cpp, ...).
Command add_bench_spmv(CLI::App& bench);
Command add_bench_pagerank(CLI::App& bench);
Command add_bench_bfs(CLI::App& bench);
Command add_bench_spgemm(CLI::App& bench);

}  // namespace graphrun::cli::bench
