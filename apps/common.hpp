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
//      available (--device cuda)
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

#include "graphrun/engine/context.hpp"
#include "graphrun/engine/graph.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/io/load.hpp"

namespace graphrun::cli {

inline constexpr int exit_ok = 0;
inline constexpr int exit_failure = 1;
inline constexpr int exit_usage = 2;

// A registered subcommand and what to run once the command line parsed.
struct Command {
  CLI::App* app = nullptr;
  std::function<void()> run;
};

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
};

// INPUT (required positional), --undirected, --abc, --device, --threads, --quiet.
void add_common_options(CLI::App& sub, CommonOptions& o);

// --device cpu|cuda and --threads N, for subcommands with their own inputs.
void add_device_option(CLI::App& sub, std::string& device);
// --max-device-memory and --deterministic (in add_common_options too).
void add_gpu_options(CLI::App& sub, CommonOptions& o);
void add_threads_option(CLI::App& sub, int& threads);

// Help text shared by the subcommands: input formats, duplicates and self
// loops, exit status.
extern const char* const input_help;
extern const char* const exit_status_help;

// Option validators whose messages say what is expected.
CLI::Validator int_at_least(long long lo, std::string what);
CLI::Validator real_in(double lo, bool lo_open, double hi, bool hi_open, std::string what);

// The Context for `command` on the requested device. --device cuda is
// allowed for the commands with a GPU path (pagerank, bfs) and refused
// (ArgumentError, exit status 2) for the others, in a build without the CUDA
// backend, and where no CUDA device is found.
Context make_context(const CommonOptions& o, std::string_view command);

// "1073741824", "512M", "2G", "1.5GiB": bytes, with K, M, G, T as powers of
// 1024 ("B" and "iB" after them allowed). ArgumentError naming `option`.
std::size_t parse_bytes(std::string_view text, std::string_view option);

struct Loaded {
  Graph graph;
  io::LoadStats stats;
  double seconds = 0;  // wall time of the whole load
};
// Loads o.input (with --undirected, --abc and --threads), with a progress bar.
Loaded load_input(const CommonOptions& o);

// Refuses early (before the load) an --output whose folder does not exist
// or is not a folder, so a long run does not fail at the very end.
void check_output_path(const std::string& path);

// Parses a vertex id as written in input files (a non-negative 64-bit integer).
std::uint64_t parse_vertex_id(const std::string& text, std::string_view option);

// Buffered text output with fast number formatting. Errors are detected by
// OutputFile::commit() (or check_stdout()) through the stream's error flag.
class TextWriter {
 public:
  explicit TextWriter(std::FILE* f) : f_(f) { buf_.reserve(capacity); }
  ~TextWriter() { flush(); }
  TextWriter(const TextWriter&) = delete;
  TextWriter& operator=(const TextWriter&) = delete;

  TextWriter& put(char c) {
    buf_ += c;
    return maybe_flush();
  }
  TextWriter& put(std::string_view s) {
    buf_ += s;
    return maybe_flush();
  }
  TextWriter& put(std::uint64_t v);
  TextWriter& put(std::int64_t v);
  TextWriter& put(int v) { return put(static_cast<std::int64_t>(v)); }
  // %.17g: enough digits to read back the same double.
  TextWriter& put(double v);
  void flush();

 private:
  static constexpr std::size_t capacity = 1 << 20;
  TextWriter& maybe_flush() {
    if (buf_.size() >= capacity - 64) flush();
    return *this;
  }
  std::FILE* f_;
  std::string buf_;
};

// Writes what output calls v: its name in a named graph (--abc, or a cache
// made from one), otherwise its input id.
TextWriter& put_vertex(TextWriter& w, const Graph& g, vertex_t v);

// Throws graphrun::Error when writing to stdout failed (full disk, closed pipe).
void check_stdout();

// printf into a std::string.
std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// Prints the one-line summary on stderr unless --quiet.
void print_summary(const CommonOptions& o, const std::string& line);

// "34 vertices, 156 edges" (stored entries; undirected graphs store both directions).
std::string graph_size(const Graph& g);

}  // namespace graphrun::cli
