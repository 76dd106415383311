#include "common.hpp"

#include <omp.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>

#include "cli/phase_trace.hpp"
#include "graphrun/engine/context.hpp"  // cuda_device_count
#include "graphrun/engine/error.hpp"
#include "graphrun/io/write.hpp"
#include "progress.hpp"
#include "vertex_lines.hpp"

namespace graphrun::cli {

Command command_group(CLI::App* sub, std::vector<Command> members) {
  sub->require_subcommand(1);
  return {sub, [members = std::move(members)] {
            for (const auto& m : members)
              if (m.app->parsed()) m.run();
          }};
}

std::string input_help(Duplicates duplicates) {
  std::string h =
      "\nINPUT FORMATS (chosen by the file name, or by --abc):\n"
      "  *.mtx, *.mtx.gz  Matrix Market coordinate (real, integer or pattern; general or\n"
      "                   symmetric, a symmetric file is an undirected graph); vertex ids\n"
      "                   are the file's 1-based indices (a file that declares far more\n"
      "                   rows than it has entries keeps only the indices that occur)\n"
      "  *.grb            graphrun's binary CSR cache (make one with 'graphrun convert')\n"
      "  any other name   SNAP edge list: one edge 'SRC DST [WEIGHT]' per line, fields\n"
      "                   separated by spaces or tabs, '#' and '%' start comment lines;\n"
      "                   ids are any non-negative 64-bit integers; the graph is weighted\n"
      "                   when lines have a third column; plain text or gzip (.gz,\n"
      "                   recognised by its content)\n"
      "  --abc            any name: 'NAME NAME [WEIGHT]' lines, as 'mcl --abc' reads them;\n"
      "                   a name is any run of characters other than blanks; '#' starts\n"
      "                   comment lines; weights as in edge lists; plain text or gzip.\n"
      "                   Vertices are numbered in order of first appearance and every\n"
      "                   output names them as the input does (a .grb made with --abc\n"
      "                   keeps the names)\n"
      "EDGES:\n";
  h += duplicates == Duplicates::max
           ? "  A repeated edge (in either direction) keeps its largest weight, as mcl reads\n"
             "  its input; an unweighted graph keeps it once.\n"
       : duplicates == Duplicates::min
           ? "  Self loops are kept (they never shorten a path). A repeated edge keeps its\n"
             "  smallest weight, the one a shortest path takes (a .grb cache keeps the\n"
             "  weights it was made with: convert sums them). --undirected adds the\n"
             "  reverse of every edge.\n"
           : "  Self loops are kept. A repeated edge counts once in an unweighted graph; in a\n"
             "  weighted graph the weights of repeated edges are summed. --undirected adds the\n"
             "  reverse of every edge (a self loop stays one edge).\n";
  return h;
}

const char* const exit_status_help =
    "\nEXIT STATUS:\n"
    "  0 success; 2 bad option, bad input (the message names FILE:LINE where a line\n"
    "  applies), an output that cannot be written there (missing or unwritable\n"
    "  folder) or input too large (for the index types, the GPU's memory or\n"
    "  --max-device-memory: the message names the bytes needed and available);\n"
    "  3 an iterative command (pagerank, mcl) stopped at --max-iter without\n"
    "  converging: its output is written all the same; 1 any other failure (device\n"
    "  error, write error such as a full disk, host out of memory, a rank, weight or\n"
    "  product that became NaN or infinite: none is ever written). Errors print\n"
    "  'graphrun: error: ...' on stderr.\n"
    "OUTPUT FILES:\n"
    "  A regular file is written to a temporary file beside it and renamed into\n"
    "  place only when everything succeeded (a symlink is followed: its target is\n"
    "  replaced, the link stays), keeping an existing file's permissions; '-', a\n"
    "  device (/dev/null, /dev/stdout) or a FIFO is written directly.\n";

void add_common_options(CLI::App& sub, CommonOptions& o) {
  sub.add_option("INPUT", o.input,
                 "Graph file: edge list (.txt, .gz), Matrix Market (.mtx), .grb, GAP .sg/.wsg, "
                 "or ABC text with --abc")
      ->required()
      ->type_name("FILE");
  sub.add_flag("--undirected", o.undirected,
               "Treat the graph as undirected: add the reverse of every edge");
  sub.add_flag("--abc", o.abc,
               "Input is 'name name [weight]' lines with arbitrary vertex names (as mcl --abc "
               "reads); outputs use the names");
  add_device_option(sub, o.device);
  add_gpu_options(sub, o);
  add_threads_option(sub, o.threads);
  sub.add_flag("-q,--quiet", o.quiet, "No summary line and no progress bar on stderr");
}

void add_gpu_options(CLI::App& sub, CommonOptions& o) {
  sub.add_option("--max-device-memory", o.max_device_memory,
                 "With --device cuda: the most GPU memory graphrun may take, e.g. 8G or 512M "
                 "(K, M, G, T = powers of 1024). Large products are then done in row chunks; "
                 "what cannot fit ends with an error naming the bytes needed. Default: all free")
      ->type_name("BYTES");
  sub.add_flag("--deterministic", o.deterministic,
               "With --device cuda: sum in a fixed order, so that results are bit-identical run "
               "to run (slower SpGEMM; CPU runs are deterministic for a given --threads anyway)");
}

std::size_t parse_bytes(std::string_view text, std::string_view option) {
  const std::string what = std::string(option) + " '" + std::string(text) + "'";
  std::size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.'))
    ++i;
  const std::string number(text.substr(0, i));
  double value = 0;
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (number.empty() || ec != std::errc() || end != number.data() + number.size())
    throw ArgumentError(what + ": not a size (e.g. 8G, 512M or a byte count)");
  std::string unit(text.substr(i));
  for (char& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (unit.size() > 1 && unit.back() == 'B') unit.pop_back();  // "GB", "GIB"
  if (unit.size() > 1 && unit.back() == 'I') unit.pop_back();  // "GI"
  static constexpr std::string_view units = "KMGT";
  int power = 0;
  if (unit.size() == 1 && units.find(unit[0]) != std::string_view::npos)
    power = static_cast<int>(units.find(unit[0])) + 1;
  else if (!unit.empty() && unit != "B")
    throw ArgumentError(what + ": unknown unit (use a byte count or K, M, G, T)");
  const double bytes = std::ldexp(value, 10 * power);
  if (!(bytes >= 1) || bytes >= 0x1p63)
    throw ArgumentError(what + ": out of range (at least 1 byte)");
  return static_cast<std::size_t>(bytes);
}

void add_device_option(CLI::App& sub, std::string& device) {
  sub.add_option("--device", device, "Where to run: cpu or cuda")
      ->check(CLI::IsMember({"cpu", "cuda"}))
      ->default_str("cpu")
      ->type_name("DEV");
}

void add_threads_option(CLI::App& sub, int& threads) {
  sub.add_option(
         "--threads", threads,
         "CPU threads; 0 = all cores (or OMP_NUM_THREADS); at most " + std::to_string(max_threads))
      ->check(int_in(0, max_threads,
                     "a thread count from 0 (all cores) to " + std::to_string(max_threads)))
      ->default_str("0")
      ->type_name("N");
}

namespace {

bool parse_int(const std::string& s, long long& v) {
  const char* first = s.data();
  const char* last = s.data() + s.size();
  if (first != last && *first == '+') ++first;
  auto [p, ec] = std::from_chars(first, last, v);
  return ec == std::errc() && p == last && first != last;
}

bool parse_real(const std::string& s, double& v) {
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  v = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && errno != ERANGE;
}

}  // namespace

CLI::Validator int_in(long long lo, long long hi, std::string what) {
  return CLI::Validator(
      [lo, hi, what](std::string& s) -> std::string {
        long long v = 0;
        if (!parse_int(s, v) || v < lo || v > hi) return "expected " + what + ", got '" + s + "'";
        return {};
      },
      "", "");
}

CLI::Validator int_at_least(long long lo, std::string what) {
  return int_in(lo, std::numeric_limits<int>::max(), std::move(what));
}

CLI::Validator output_path() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        if (s.empty()) return "an empty file name; give a path, or '-' for stdout";
        return {};
      },
      "", "");
}

CLI::Validator real_in(double lo, bool lo_open, double hi, bool hi_open, std::string what) {
  return CLI::Validator(
      [=](std::string& s) -> std::string {
        double v = 0;
        const bool ok = parse_real(s, v) && std::isfinite(v) && (lo_open ? v > lo : v >= lo) &&
                        (hi_open ? v < hi : v <= hi);
        if (!ok) return "expected " + what + ", got '" + s + "'";
        return {};
      },
      "", "");
}

std::size_t max_device_memory_option(const CommonOptions& o) {
  if (o.max_device_memory.empty()) return 0;
  const std::size_t cap = parse_bytes(o.max_device_memory, "--max-device-memory");
  if (parse_device(o.device) != Device::cuda)
    throw ArgumentError(
        "--max-device-memory caps the GPU's memory; it applies with --device "
        "cuda only");
  return cap;
}

Context make_cpu_context(const CommonOptions& o, std::string_view command) {
  if (parse_device(o.device) == Device::cuda)
    throw ArgumentError(std::string(command) + " runs on the CPU only; use --device cpu");
  return make_context(o, command);
}

// `command` is named only by the message of a build without the CUDA backend.
Context make_context(const CommonOptions& o, std::string_view command, DeviceCheck check,
                     std::function<void()> prime) {
  const Device device = parse_device(o.device);
  if (device == Device::cuda) {
    if (!cuda_backend_built())
      throw ArgumentError(
          "this build of graphrun has no CUDA backend (configured without CUDA), "
          "so " +
          std::string(command) + " cannot run with --device cuda; use --device cpu");
    if (check != DeviceCheck::now) {
      // The driver starts on the warm-up thread while the input loads;
      // load_input() makes sure it found a device. Asking the driver here
      // would load it on this thread first (0.1 s on an H200's host), so
      // it is asked only where the NVIDIA driver's device node is missing:
      // there the answer is quick, and most likely no.
      // The command line runs on device 0 (Context's default).
      if (check == DeviceCheck::at_load) warm_up_device(0, std::move(prime));
      std::error_code unknown;
      if (!std::filesystem::exists("/dev/nvidiactl", unknown) && !cuda_driver_found())
        throw ArgumentError(
            "--device cuda: no CUDA driver found (no GPU or no driver); use "
            "--device cpu");
    } else if (cuda_device_count() == 0) {
      throw ArgumentError(
          "--device cuda: no CUDA device found (no GPU or no driver); use --device cpu");
    }
  }
  if (o.threads < 0 || o.threads > max_threads)
    throw ArgumentError("--threads " + std::to_string(o.threads) + " is outside 0.." +
                        std::to_string(max_threads) + " (0 = all cores)");
  // With --threads 0 OpenMP's default applies, which OMP_NUM_THREADS sets.
  if (o.threads == 0 && omp_get_max_threads() > max_threads)
    throw ArgumentError("OMP_NUM_THREADS asks for " + std::to_string(omp_get_max_threads()) +
                        " threads, more than graphrun's limit of " + std::to_string(max_threads) +
                        "; set it lower or pass --threads N");
  // Every OpenMP region (loader, kernels, analysis) then honours --threads.
  if (o.threads > 0) omp_set_num_threads(o.threads);
  Context ctx(device, o.threads);
  if (const std::size_t cap = max_device_memory_option(o); cap > 0) ctx.set_max_device_memory(cap);
  // The context is made while the input loads (0.2-0.3 s on an H200).
  if (device == Device::cuda && check != DeviceCheck::at_load_on_demand)
    warm_up_device(ctx.device_id(), std::move(prime));
  ctx.set_deterministic(o.deterministic);
  trace_phase("context made");
  return ctx;
}

int convergence_status(bool converged, bool quiet, const char* command, const std::string& state,
                       const char* written) {
  if (converged) return exit_ok;
  if (!quiet)
    std::fprintf(stderr, "%s: not converged: %s; the %s (exit status 3); raise --max-iter\n",
                 command, state.c_str(), written);
  return exit_not_converged;
}

Loaded load_input(const CommonOptions& o, DeviceCheck check) {
  check_input_file(o.input, "graph");

  ProgressBar bar("load", !o.quiet);
  io::LoadOptions options;
  options.undirected = o.undirected;
  options.abc = o.abc;
  options.duplicates = o.duplicates;
  options.threads = o.threads;
  options.non_negative_weights = o.non_negative_weights;
  options.negative_weight_hint = o.negative_weight_hint;
  // A run on the GPU has an unweighted edge list parsed, its ids mapped and
  // its CSR assembled there: the same graph, in a fraction of the host's
  // time at 10^8 edges.
  options.assemble_on_device = o.device == "cuda";
  options.keep_on_device = options.assemble_on_device && o.keep_on_device;
  options.on_progress = [&bar](double fraction) { bar.update(fraction); };
  Loaded out;
  Stopwatch sw;
  out.graph = io::load_graph(o.input, options, &out.stats);
  out.seconds = sw.seconds();
  if (check != DeviceCheck::now && o.device == "cuda" && cuda_device_count() == 0)
    throw ArgumentError(
        "--device cuda: no CUDA device found (no GPU or no driver); use --device cpu");
  trace_phase("input loaded");
  return out;
}

std::string load_summary(const Loaded& in) {
  const double mb = static_cast<double>(in.stats.bytes_read) / 1e6;
  return format("load %.3f s (%.1f MB parsed, %.1f MB/s)", in.seconds, mb,
                in.seconds > 0 ? mb / in.seconds : 0.0);
}

void check_input_file(const std::string& path, std::string_view kind) {
  // A clear message for the most common mistake; the reader reports the rest
  // (permissions, malformed content) itself.
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (status.type() == std::filesystem::file_type::not_found)
    throw InputError(path, "no such file");
  if (status.type() == std::filesystem::file_type::directory)
    throw InputError(path, "is a folder, not a " + std::string(kind) + " file");
}

void check_output_path(const std::string& path) {
  if (path.empty()) throw ArgumentError("--output: empty file name");
  io::check_output_path(path);
}

std::uint64_t parse_vertex_id(const std::string& text, std::string_view option) {
  std::uint64_t v = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  auto [p, ec] = std::from_chars(first, last, v);
  if (ec == std::errc::result_out_of_range)
    throw ArgumentError(std::string(option) + ": vertex id '" + text + "' is beyond 2^64-1");
  if (ec != std::errc() || p != last || first == last)
    throw ArgumentError(std::string(option) + ": '" + text +
                        "' is not a vertex id (a non-negative integer)");
  return v;
}

void check_source_before_load(const CommonOptions& o, const std::string& source) {
  std::string suffix = o.input.size() >= 4 ? o.input.substr(o.input.size() - 4) : std::string();
  for (char& c : suffix) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!o.abc && suffix != ".grb") parse_vertex_id(source, "--source");
}

vertex_t find_source(const CommonOptions& o, const Graph& g, const std::string& source) {
  // A numeric graph still explains a --source that is not a number at all.
  if (!g.has_names()) parse_vertex_id(source, "--source");
  const auto v = g.find_name(source);
  if (!v)
    throw ArgumentError("source vertex " + (g.has_names() ? "'" + source + "'" : source) +
                        " does not occur in " + o.input);
  return *v;
}

void add_trials_option(CLI::App& sub, int& trials) {
  sub.add_option("--trials", trials,
                 "Run the algorithm N times and report the mean time (as the GAP reference's "
                 "-n),\nwith the median and the fastest run, for measurements; the output is the\n"
                 "last run's")
      ->check(int_in(1, 1000, "a number of trials from 1 to 1000"))
      ->capture_default_str()
      ->type_name("N");
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  const std::size_t n = v.size();
  std::nth_element(v.begin(), v.begin() + n / 2, v.end());
  const double upper = v[n / 2];
  if (n % 2) return upper;
  // The lower middle value is the largest of those before the upper one.
  return (*std::max_element(v.begin(), v.begin() + n / 2) + upper) / 2;
}

std::string trials_note(const std::vector<double>& each) {
  if (each.size() < 2) return {};
  return format(" (mean of %zu; median %.6f s, fastest %.6f s)", each.size(), median(each),
                *std::min_element(each.begin(), each.end()));
}

std::string where_it_ran(const Context& ctx, double on_device_seconds, double on_device_median) {
  if (ctx.device() == Device::cuda && on_device_median >= 0)
    return format("cuda (on the device %.6f s of each run, median %.6f s)", on_device_seconds,
                  on_device_median);
  if (ctx.device() == Device::cuda)
    return format("cuda (on the device %.6f s of each run)", on_device_seconds);
  return format("cpu, %d thread%s", ctx.threads(), ctx.threads() == 1 ? "" : "s");
}

double write_vertex_output(const std::string& output, std::size_t n, bool show_progress,
                           const std::function<void(io::TextWriter&, std::size_t)>& line) {
  const Stopwatch clock;
  ProgressBar bar("write", show_progress);
  io::OutputFile out(output);
  {
    TextWriter w(out.stream());
    write_vertex_lines(w, n, line, [&bar](double f) { bar.update(f); });
  }
  bar.finish();
  out.commit();
  return clock.seconds();
}

TextWriter& put_vertex(TextWriter& w, const Graph& g, vertex_t v) {
  if (g.has_names()) return w.put(g.name(v));
  return w.put(g.input_id(v));
}

void check_stdout() {
  if (std::fflush(stdout) != 0 || std::ferror(stdout))
    throw Error(std::string("writing to standard output failed: ") + std::strerror(errno));
}

std::string format(const char* fmt, ...) {
  char small[256];
  va_list ap;
  va_start(ap, fmt);
  const int n = std::vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) return {};
  if (static_cast<std::size_t>(n) < sizeof small) return std::string(small, n);
  std::string out(static_cast<std::size_t>(n), '\0');
  va_start(ap, fmt);
  std::vsnprintf(out.data(), out.size() + 1, fmt, ap);
  va_end(ap);
  return out;
}

void print_summary(const CommonOptions& o, const std::string& line) {
  if (o.quiet) return;
  std::fflush(stdout);  // results first, when both streams go to one terminal
  std::fprintf(stderr, "%s\n", line.c_str());
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool is_matrix_market_name(std::string_view path) {
  return ends_with(path, ".mtx") || ends_with(path, ".mtx.gz");
}

std::string graph_size(const Graph& g) {
  const auto n = static_cast<long long>(g.n_vertices());
  const auto stored = static_cast<long long>(g.n_edges());
  if (g.directed()) return format("%lld vertices, %lld edges", n, stored);
  const auto loops = static_cast<long long>(g.self_loops());
  return format("%lld vertices, %lld undirected edges (%lld stored entries)", n,
                (stored - loops) / 2 + loops, stored);
}

}  // namespace graphrun::cli
