// graphrun-scale-check: PageRank and BFS on a circulant digraph of any size
// (built in memory as CSR, past 2^31 edges if asked), through the library's
// public calls, every vertex checked against the closed forms of
// graphrun/generators/circulant.hpp.
//
//   graphrun-scale-check --vertices N --degree D [--device cpu|cuda] [--threads T] [--tol X]
//                        [--host-memory GIB]
//
// Prints one table row per phase (seconds, host peak RSS, device memory in
// use at its sampled peak, edges, PASS/FAIL) and a last row for the whole
// run. Exit status: 0 when every check passes, 1 when one fails or the
// device fails, 2 for bad arguments or a graph that does not fit in the
// host's memory (the message names the bytes needed).
#include <omp.h>

#include <charconv>
#include <cstdio>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <string_view>

#include "closed_forms.hpp"
#include "graphrun/algorithms/bfs.hpp"
#include "graphrun/algorithms/pagerank.hpp"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/generators/circulant.hpp"
#include "memory.hpp"

namespace {

using namespace graphrun;

constexpr const char* kUsage =
    "usage: graphrun-scale-check --vertices N --degree D [--device cpu|cuda] [--threads T] "
    "[--tol X] [--host-memory GIB]\n"
    "  Builds the circulant digraph v -> v+1 .. v+D (mod N) as CSR in memory (N*D edges),\n"
    "  runs PageRank (L1 tolerance X, default 1e-10), one PageRank step from a hashed start\n"
    "  and BFS from vertex 0, and checks every vertex: rank 1/N; the step's closed form\n"
    "  (1-a)/N + a S(v)/(D W), S(v) the start's weights of v-D .. v-1; level ceil(v/D).\n"
    "  Needs 1 <= D < N < 2^31. Exit 0 when all pass.\n"
    "  Refuses a graph that would not fit in the host's memory: MemAvailable, or GIB where\n"
    "  given (a virtual machine whose memory is plugged in as it is used reads low at start).\n";

struct Options {
  std::uint64_t n = 0, d = 0;
  Device device = Device::cpu;
  int threads = 0;
  double tol = 1e-10;
  std::uint64_t host_memory = 0;  // bytes; 0 = read /proc/meminfo
};

[[noreturn]] void bad_arguments(const std::string& why) {
  std::fprintf(stderr, "graphrun-scale-check: error: %s\n%s", why.c_str(), kUsage);
  std::exit(2);
}

std::uint64_t parse_count(std::string_view flag, std::string_view s) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size())
    bad_arguments(std::string(flag) + " needs a non-negative integer, not '" + std::string(s) +
                  "'");
  return v;
}

Options parse(int argc, char** argv) {
  Options o;
  bool have_n = false, have_d = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    }
    if (i + 1 >= argc) bad_arguments("unknown option or missing value: " + std::string(arg));
    const std::string_view value = argv[++i];
    if (arg == "--vertices") {
      o.n = parse_count(arg, value);
      have_n = true;
    } else if (arg == "--degree") {
      o.d = parse_count(arg, value);
      have_d = true;
    } else if (arg == "--device") {
      if (value != "cpu" && value != "cuda")
        bad_arguments("--device must be cpu or cuda, not '" + std::string(value) + "'");
      o.device = value == "cuda" ? Device::cuda : Device::cpu;
    } else if (arg == "--threads") {
      const std::uint64_t t = parse_count(arg, value);
      if (t > 4096) bad_arguments("--threads must be at most 4096");
      o.threads = static_cast<int>(t);
    } else if (arg == "--host-memory") {
      const std::uint64_t g = parse_count(arg, value);
      if (g == 0 || g > (std::uint64_t{1} << 30))
        bad_arguments("--host-memory must be 1 .. 2^30 GiB");
      o.host_memory = g << 30;
    } else if (arg == "--tol") {
      char* end = nullptr;
      const std::string copy(value);
      o.tol = std::strtod(copy.c_str(), &end);
      if (copy.empty() || *end != '\0' || !(o.tol > 0 && o.tol < 1))
        bad_arguments("--tol must be a number in (0, 1)");
    } else {
      bad_arguments("unknown option: " + std::string(arg));
    }
  }
  if (!have_n || !have_d) bad_arguments("--vertices and --degree are required");
  return o;
}

// One row of the table; the device column is "-" where nothing was sampled.
class Table {
 public:
  explicit Table(std::int64_t edges, bool device) : edges_(edges), device_(device) {
    std::printf("| phase | seconds | host peak | device used | edges | result | detail |\n");
    std::printf("| --- | --- | --- | --- | --- | --- | --- |\n");
    std::fflush(stdout);
  }
  // `last_of_phase`: the device peak starts afresh for the next row; an
  // algorithm's upload row leaves it, so that its compute row shows the peak
  // of the whole call too.
  void row(const char* phase, double seconds, scale::DeviceMemory& dev, bool pass,
           const std::string& detail, bool last_of_phase = true) {
    dev.sample();
    const std::string used = device_ && dev.peak() ? scale::gib(*dev.peak()) : "-";
    std::printf("| %s | %.3f | %s | %s | %lld | %s | %s |\n", phase, seconds,
                scale::gib(scale::host_peak_bytes()).c_str(), used.c_str(),
                static_cast<long long>(edges_), pass ? "PASS" : "FAIL", detail.c_str());
    std::fflush(stdout);
    if (last_of_phase) dev.reset_peak();
    all_pass_ = all_pass_ && pass;
  }
  bool all_pass() const { return all_pass_; }

 private:
  std::int64_t edges_;
  bool device_;
  bool all_pass_ = true;
};

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

int run(const Options& o) {
  // Sizes first, checked, before anything is allocated.
  const std::uint64_t graph_bytes = gen::circulant_bytes(o.n, o.d);
  const std::uint64_t nnz = o.n * o.d;  // no overflow: circulant_bytes checked it
  const std::uint64_t host_need = scale::host_bytes_needed(o.n, nnz, o.device);
  const std::optional<std::uint64_t> host_have =
      o.host_memory ? std::optional(o.host_memory) : scale::host_available_bytes();
  if (host_have && host_need > *host_have)
    throw SizeError("a circulant of " + std::to_string(o.n) + " vertices and " +
                    std::to_string(nnz) + " edges needs about " + std::to_string(host_need) +
                    " bytes (" + scale::gib(host_need) + ") of host memory (the graph " +
                    std::to_string(graph_bytes) + " bytes, its transpose as much again), but " +
                    std::to_string(*host_have) + " bytes (" + scale::gib(*host_have) +
                    ") are available");
  if (o.threads > 0) omp_set_num_threads(o.threads);
  Context ctx(o.device, o.threads);
  if (o.device == Device::cuda && cuda_device_count() == 0)
    throw DeviceError("--device cuda: no CUDA device found (or this build has no CUDA backend)");

  const auto n = static_cast<vertex_t>(o.n);
  const auto d = static_cast<std::int64_t>(o.d);
  const bool gpu = o.device == Device::cuda;
  std::printf("circulant n=%llu d=%llu: %llu edges (%s 2^31 = 2147483648); device %s, %d threads\n",
              static_cast<unsigned long long>(o.n), static_cast<unsigned long long>(o.d),
              static_cast<unsigned long long>(nnz),
              nnz > (1ULL << 31) ? ">" : "<=", gpu ? "cuda" : "cpu", ctx.threads());
  std::printf("estimates: host %s (available %s), device %s\n\n", scale::gib(host_need).c_str(),
              host_have ? scale::gib(*host_have).c_str() : "unknown",
              gpu ? scale::gib(scale::device_bytes_needed(o.n, nnz)).c_str() : "-");
  scale::DeviceMemory dev(gpu);
  dev.sample();  // the CUDA context and whatever else holds the device
  Table table(static_cast<std::int64_t>(nnz), gpu);
  const Stopwatch t_all;

  Stopwatch t0;
  const Graph g = gen::circulant(o.n, o.d);
  table.row("generate", t0.seconds(), dev, g.n_edges() == static_cast<offset_t>(nnz),
            "CSR built and validated, " + scale::gib(g.adj().bytes()));

  t0.restart();
  const Csr<double>& at = g.transpose();
  const double t_transpose = t0.seconds();
  const scale::TransposeCheck tc = scale::check_transpose(at, n, d);
  table.row("transpose (host)", t_transpose, dev, tc.pass,
            tc.pass ? std::string("every row (v-1 .. v-d) mod n")
                    : std::to_string(tc.wrong_rows) + " rows wrong, first " +
                          std::to_string(tc.first_wrong));

  PageRankOptions po;
  po.tol = o.tol;
  po.max_iter = 100;
  po.on_iteration = [&dev](const IterationInfo&) {
    dev.sample();  // while the algorithm's device arrays are alive
    return true;
  };
  const PageRankResult pr = pagerank(ctx, g, po);
  // Relative tolerance: 1/n within rounding of a d-term sum per iteration.
  const scale::RankCheck rc = scale::check_uniform(pr.rank, n, 1e-9);
  if (gpu)
    table.row("pagerank upload", pr.seconds - pr.compute_seconds, dev, true,
              std::string("Aᵀ, format ") + std::string(to_string(pr.format)) +
                  ", ranks back (seconds - compute_seconds)",
              false);
  table.row("pagerank", gpu ? pr.compute_seconds : pr.seconds, dev, rc.pass && pr.converged,
            "iterations " + std::to_string(pr.iterations) +
                (pr.converged ? "" : " (no convergence)") + ", max |r-1/n| = " + num(rc.max_error) +
                " (" + num(rc.max_error * static_cast<double>(o.n)) + " relative), sum of ranks " +
                num(rc.sum));

  // One iteration from the hashed start: every column of every row counts.
  {
    const std::vector<double> start = scale::hashed_start(n);
    PageRankOptions one;
    one.max_iter = 1;
    one.start = start;
    one.on_iteration = po.on_iteration;
    const PageRankResult p1 = pagerank(ctx, g, one);
    const scale::RankCheck sc = scale::check_one_step(p1.rank, n, d, one.damping, 1e-12);
    table.row("pagerank, 1 step", gpu ? p1.compute_seconds : p1.seconds, dev,
              sc.pass && p1.iterations == 1,
              "from the hashed start w(v) in 1..8: max |r - r1| = " + num(sc.max_error) + " (" +
                  num(sc.max_error * static_cast<double>(o.n)) + " relative), sum " + num(sc.sum));
  }

  BfsOptions bo;
  // cudaMemGetInfo costs microseconds and a circulant has ceil((n-1)/d)
  // levels: sample every 4096th, and where the frontier changes size (the
  // last steps, by when any pull-side arrays exist).
  offset_t last_frontier = -1;
  bo.on_iteration = [&dev, &last_frontier](const IterationInfo& info) {
    if (info.iteration % 4096 == 1 || info.frontier != last_frontier) dev.sample();
    last_frontier = info.frontier;
    return true;
  };
  const BfsResult br = bfs(ctx, g, 0, bo);
  const scale::LevelCheck lc = scale::check_levels(br.level, n, d);
  const bool shape_ok = br.reached == n && br.depth == scale::max_level(n, d) + 1;
  if (gpu)
    table.row("bfs upload", br.seconds - br.compute_seconds, dev, true,
              "A (and Aᵀ with its format for pull steps), levels back (seconds - compute_seconds)",
              false);
  table.row(
      "bfs", gpu ? br.compute_seconds : br.seconds, dev, lc.pass && shape_ok,
      "depth " + std::to_string(br.depth) + " (want " + std::to_string(scale::max_level(n, d) + 1) +
          "), reached " + std::to_string(br.reached) + ", " + std::to_string(br.push_steps) +
          " push + " + std::to_string(br.pull_steps) + " pull steps, " +
          (lc.pass ? std::string("every level ceil(v/d)")
                   : std::to_string(lc.wrong) +
                         " levels wrong, first v=" + std::to_string(lc.first_wrong) + " got " +
                         std::to_string(lc.got) + " want " + std::to_string(lc.want)));

  const bool pass = table.all_pass();
  table.row("total", t_all.seconds(), dev, pass, pass ? "all checks pass" : "a check failed");
  return pass ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  try {
    return run(o);
  } catch (const graphrun::ArgumentError& e) {
    bad_arguments(e.what());
  } catch (const graphrun::SizeError& e) {
    std::fprintf(stderr, "graphrun-scale-check: error: %s\n", e.what());
    return 2;
  } catch (const graphrun::Error& e) {
    std::fprintf(stderr, "graphrun-scale-check: error: %s\n", e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "graphrun-scale-check: error: out of host memory\n");
    return 1;
  }
}
