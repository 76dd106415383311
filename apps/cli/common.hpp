// What every subcommand of the `graphrun` command line shares: the common
// options, input loading with progress, output path checks, buffered TSV
// writing, the summary line and the exit-status policy.
//
// Exit status:
//   0  success (also --help and --version)
//   1  a failure that is not the user's input: a CUDA/device error, a write
//      error (disk full, closed stdout), out of memory, an internal error
//   2  bad usage or bad input: an unknown or malformed option, an option out
//      of range, an unknown --source, a malformed or missing input file, a
//      graph beyond the index types (SizeError), a backend that is not
//      available (--device cuda), an --output that cannot be written there
//   3  an iterative command stopped at its iteration limit without
//      converging; its output is written all the same
// Every error prints one line "graphrun: error: <message>" on stderr, where
// input errors read "FILE:LINE: what is wrong". Output files are written to
// a temporary file and renamed into place only when everything succeeded.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "graphrun/engine/context.hpp"
#include "graphrun/engine/graph.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/io/load.hpp"
#include "graphrun/io/text_writer.hpp"

namespace graphrun::cli {

inline constexpr int exit_ok = 0;
inline constexpr int exit_failure = 1;
inline constexpr int exit_usage = 2;
inline constexpr int exit_not_converged = 3;

// The most --threads (and OMP_NUM_THREADS) graphrun takes. Far past any
// machine's cores, and far below where thread creation fails: each OpenMP
// thread holds a stack, and tens of thousands exhaust the address space or
// the kernel's thread limit (a segfault or libgomp's own abort, not an error
// graphrun could report).
inline constexpr int max_threads = 1024;

// A registered subcommand and what to run once the command line parsed:
// `run` returns the exit status (exit_ok, or exit_not_converged); errors are
// exceptions, mapped to their status in main.cpp.
struct Command {
  Command() = default;
  Command(CLI::App* sub, std::function<int()> fn) : app(sub), run(std::move(fn)) {}
  // A command that always ends in exit_ok when it returns.
  template <class Fn>
  requires std::is_void_v<std::invoke_result_t<Fn&>> Command(CLI::App* sub, Fn fn)
      : app(sub), run([fn]() mutable { return fn(), exit_ok; }) {}

  CLI::App* app = nullptr;
  std::function<int()> run;
};

// A subcommand made of subcommands (bench, experiment): one of `members`
// must be given, and it is the one run.
Command command_group(CLI::App* sub, std::vector<Command> members);

struct CommonOptions {
  std::string input;
  std::string device = "cpu";
  int threads = 0;
  bool quiet = false;
  bool undirected = false;
  // Repeated edges of a weighted graph (set by commands, not an option):
  // summed by default; mcl keeps the largest, as the mcl program does.
  Duplicates duplicates = Duplicates::sum;
  bool abc = false;               // INPUT is "name name [weight]" text (io::read_abc)
  std::string max_device_memory;  // --max-device-memory BYTES ("" = no cap)
  bool deterministic = false;     // --deterministic
  // Set by commands whose algorithm needs weights >= 0: the loader then
  // refuses the first negative weight, naming FILE:LINE, with this hint.
  bool non_negative_weights = false;
  std::string negative_weight_hint;
  // Set by commands whose GPU run starts from the loaded adjacency as it is
  // (pagerank): an edge list assembled on the GPU stays there for it.
  bool keep_on_device = false;
};

// When make_context() makes sure a CUDA device exists: now, or (for commands
// that call load_input() right after it) while the input loads, so that the
// CUDA driver's start (0.2 s on an H200's host) is off the critical path;
// load_input() then refuses where there is no device. at_load_on_demand checks
// as at_load but makes no context ahead: the first CUDA call makes it, and a
// run that turns out not to need the GPU never does (louvain on a graph whose
// levels all fall under --gpu-min-entries). A context made beside a run on
// every core slows that run's first trial (a core of 16 busy in the driver),
// and tearing it down at exit takes as long again.
enum class DeviceCheck { now, at_load, at_load_on_demand };

// INPUT (required positional), --undirected, --abc, --device, --threads, --quiet.
void add_common_options(CLI::App& sub, CommonOptions& o);

// --device cpu|cuda and --threads N, for subcommands with their own inputs.
void add_device_option(CLI::App& sub, std::string& device);
// --max-device-memory and --deterministic (in add_common_options too).
void add_gpu_options(CLI::App& sub, CommonOptions& o);
void add_threads_option(CLI::App& sub, int& threads);

// Help text shared by the subcommands: input formats, what happens to
// repeated edges (summed, or the largest kept as mcl does) and self loops,
// exit status.
std::string input_help(Duplicates duplicates = Duplicates::sum);
extern const char* const exit_status_help;

// A validator for --output: an empty file name is refused (exit 2) instead
// of being taken for "no output".
CLI::Validator output_path();

// Option validators whose messages say what is expected.
CLI::Validator int_at_least(long long lo, std::string what);
CLI::Validator int_in(long long lo, long long hi, std::string what);
CLI::Validator real_in(double lo, bool lo_open, double hi, bool hi_open, std::string what);

// The Context for a command with a GPU path on the requested device;
// `command` names it in messages. --device cuda is refused (ArgumentError,
// exit status 2) in a build without the CUDA backend and where no CUDA
// device is found: here, or with DeviceCheck::at_load (where no driver is
// installed, here) in load_input(). With --device cuda, `prime` runs on the
// device warm-up thread once the context exists (see warm_up_device and
// kernel_priming.hpp).
Context make_context(const CommonOptions& o, std::string_view command,
                     DeviceCheck check = DeviceCheck::now, std::function<void()> prime = {});
// The Context for a command that runs on the CPU only (info, convert): as
// make_context, with --device cuda refused first.
Context make_cpu_context(const CommonOptions& o, std::string_view command);

// --max-device-memory in bytes, 0 when not given. ArgumentError (exit 2) for
// a malformed size, and with --device cpu, where there is nothing to cap.
std::size_t max_device_memory_option(const CommonOptions& o);

// "1073741824", "512M", "2G", "1.5GiB": bytes, with K, M, G, T as powers of
// 1024 ("B" and "iB" after them allowed). ArgumentError naming `option`.
std::size_t parse_bytes(std::string_view text, std::string_view option);

struct Loaded {
  Graph graph;
  io::LoadStats stats;
  double seconds = 0;  // wall time of the whole load
};
// Loads o.input (with --undirected, --abc and --threads), with a progress bar.
Loaded load_input(const CommonOptions& o, DeviceCheck check = DeviceCheck::now);

// The load in a summary line: "load 1.234 s (56.7 MB parsed, 45.9 MB/s)".
std::string load_summary(const Loaded& in);

// Refuses an input file that does not exist or is a folder (InputError,
// exit 2) before reading it; `kind` names what it should be ("graph" reads
// "is a folder, not a graph file").
void check_input_file(const std::string& path, std::string_view kind);

// Refuses early (before the load) an --output that cannot be written: a
// folder, a missing or unwritable parent folder (ArgumentError, exit 2), so
// a long run does not fail at the very end. "-", devices and FIFOs pass.
void check_output_path(const std::string& path);

// Parses a vertex id as written in input files (a non-negative 64-bit integer).
std::uint64_t parse_vertex_id(const std::string& text, std::string_view option);

// --source of a search (bfs, sssp), in two steps. Before the load: unless
// INPUT may name its vertices (--abc, or a .grb cache, which keeps the
// names of the graph it was made from), the source must be a number, and
// that is checked before a possibly long load. After it: the vertex of that
// id or name (ArgumentError where it does not occur in INPUT).
void check_source_before_load(const CommonOptions& o, const std::string& source);
vertex_t find_source(const CommonOptions& o, const Graph& g, const std::string& source);

// The outputs are written through io::TextWriter in its reporting form
// (TextWriter(stream)): write errors are found by OutputFile::commit() or
// check_stdout(), which report them.
using io::TextWriter;

// Writes what output calls v: its name in a named graph (--abc, or a cache
// made from one), otherwise its input id.
TextWriter& put_vertex(TextWriter& w, const Graph& g, vertex_t v);

// Throws graphrun::Error when writing to stdout failed (full disk, closed pipe).
void check_stdout();

// --trials N (1..1000): run an algorithm N times and report the mean time,
// as the GAP reference's -n, for measurements (cc, sssp).
void add_trials_option(CLI::App& sub, int& trials);

// The median of a sample (the mean of the two middle values of an even
// count); 0 when empty. The --trials note and the benchmarks use it.
double median(std::vector<double> v);

// Runs `run` `trials` times; the last result, the mean seconds of a run and
// the mean of its compute_seconds (the time on the device), where it has one,
// and each run's seconds (a mean over runs of a shared machine can hide one
// slow run: the first, whose memory is still being faulted in, or one that a
// busy core held back).
template <class Run>
auto run_trials(int trials, Run run) {
  struct Trials {
    decltype(run()) last;
    double seconds = 0;
    double on_device = 0;
    double on_device_median = -1;  // with two or more trials
    std::vector<double> each;
  } t;
  t.each.reserve(static_cast<std::size_t>(trials));
  std::vector<double> on_device;
  for (int i = 0; i < trials; ++i) {
    // The last trial's result goes before the next begins, as the GAP
    // reference's do, so the next can have its memory back (heap_policy).
    t.last = {};
    const Stopwatch clock;
    t.last = run();
    t.each.push_back(clock.seconds());
    if constexpr (requires { t.last.compute_seconds; }) {
      t.on_device += t.last.compute_seconds;
      on_device.push_back(t.last.compute_seconds);
    }
  }
  for (const double s : t.each) t.seconds += s;
  t.seconds /= trials;
  t.on_device /= trials;
  if (on_device.size() >= 2) t.on_device_median = median(std::move(on_device));
  return t;
}

// A summary's note on --trials: "" for one run, else " (mean of N; median
// M s, fastest F s)".
std::string trials_note(const std::vector<double>& each);

// Where a run of a kernel went, for a summary: "cpu, N threads", or on the
// GPU "cuda (on the device X s of each run)", with ", median M s" where a
// median over trials is given (>= 0): the first trial also loads the
// kernels' code onto the device, which a mean of few trials carries.
std::string where_it_ran(const Context& ctx, double on_device_seconds,
                         double on_device_median = -1);

// A per-vertex command's whole output: OUTPUT ("-": stdout) written by
// write_vertex_lines (vertex_lines.hpp) under a "write" progress bar (when
// `show_progress`), the file committed only once complete, so a failed run
// leaves none. Returns the seconds it took.
double write_vertex_output(const std::string& output, std::size_t n, bool show_progress,
                           const std::function<void(io::TextWriter&, std::size_t)>& line);

// printf into a std::string.
std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// Prints the one-line summary on stderr unless --quiet.
void print_summary(const CommonOptions& o, const std::string& line);

// The graph's size in the words `graphrun info` uses: "34 vertices, 156
// edges" for a directed graph, "34 vertices, 78 undirected edges (156 stored
// entries)" for an undirected one, which stores both directions of an edge
// (a self loop once).
std::string graph_size(const Graph& g);

// Whether `s` ends in `suffix`; whether a path names a Matrix Market file
// (.mtx, .mtx.gz), as the loader decides.
bool ends_with(std::string_view s, std::string_view suffix);
bool is_matrix_market_name(std::string_view path);

// The exit status of an iterative command: exit_ok, or exit_not_converged
// when it stopped at its iteration limit, with a warning on stderr (unless
// `quiet`): "COMMAND: not converged: STATE; the WRITTEN (exit status 3);
// raise --max-iter".
int convergence_status(bool converged, bool quiet, const char* command, const std::string& state,
                       const char* written);

}  // namespace graphrun::cli
