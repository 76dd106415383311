// io_load_bench FILE... [--threads N] [--repeat R] [--save OUT.grb] [--undirected] [--device]:
// load each file R times and print the best read+parse rate (MB/s of
// uncompressed text) and the build time; --save writes the last graph
// loaded as a .grb cache (then load that to measure the cache); --device
// assembles edge lists on the GPU (LoadOptions::assemble_on_device) and
// prints the copies' share of the build. A program, not a test.

#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "graphrun/io/load.hpp"
#include "graphrun/io/write.hpp"

namespace {

constexpr const char* usage =
    "usage: io_load_bench FILE... [--threads N] [--repeat R] [--save OUT.grb] [--undirected] "
    "[--device]\n";

}  // namespace

int main(int argc, char** argv) try {
  std::vector<std::string> files;
  int threads = 0, repeat = 5;
  std::string save;
  bool device = false, undirected = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--device") {
      device = true;
    } else if (a == "--undirected") {
      undirected = true;
    } else if (a == "--threads" && i + 1 < argc) {
      threads = std::atoi(argv[++i]);
    } else if (a == "--repeat" && i + 1 < argc) {
      repeat = std::atoi(argv[++i]);
    } else if (a == "--save" && i + 1 < argc) {
      save = argv[++i];
    } else if (a == "-h" || a == "--help") {
      std::fputs(usage, stdout);
      return 0;
    } else if (a.size() > 1 && a[0] == '-') {
      std::fprintf(stderr, "io_load_bench: unknown option %s (or its value is missing)\n%s",
                   a.c_str(), usage);
      return 2;
    } else {
      files.push_back(a);
    }
  }
  if (files.empty() || repeat < 1 || threads < 0) {
    std::fputs(usage, stderr);
    return 2;
  }
  // The threads column: what the loads ran on (0 asks for OpenMP's default).
  const int shown_threads = threads > 0 ? threads : omp_get_max_threads();
  std::printf("%-40s %7s %10s %12s %9s %9s %10s %10s %9s %9s\n", "file", "threads", "MB", "edges",
              "read_s", "build_s", "read_MB/s", "total_MB/s", "to_gpu_s", "from_gpu_s");
  for (const auto& f : files) {
    graphrun::io::LoadOptions opt;
    opt.threads = threads;
    opt.assemble_on_device = device;
    opt.undirected = undirected;
    graphrun::io::LoadStats best;
    double best_total = 1e300;
    long long edges = 0;
    for (int r = 0; r < repeat; ++r) {
      graphrun::io::LoadStats s;
      const graphrun::Graph g = graphrun::io::load_graph(f, opt, &s);
      edges = g.n_edges();
      if (!save.empty() && r + 1 == repeat) graphrun::io::write_cache(save, g);
      if (s.seconds_read + s.seconds_build < best_total) {
        best_total = s.seconds_read + s.seconds_build;
        best = s;
      }
    }
    const double mb = static_cast<double>(best.bytes_read) / 1e6;
    const std::string name = f.size() > 40 ? "..." + f.substr(f.size() - 37) : f;
    std::printf("%-40s %7d %10.2f %12lld %9.4f %9.4f %10.1f %10.1f %9.4f %9.4f\n", name.c_str(),
                shown_threads, mb, edges, best.seconds_read, best.seconds_build,
                mb / best.seconds_read, mb / best_total, best.seconds_to_device,
                best.seconds_from_device);
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "io_load_bench: %s\n", e.what());
  return 2;
}
