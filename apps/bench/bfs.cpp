// graphrun bench bfs: breadth-first search rates on every input in one run,
// median over several sources.
//
// Two traversed-edge rates, since the field uses both:
//   GTEPS (slots)     directed edge slots of the adjacency (its nnz; an
//                     undirected edge counts twice) over the search time,
//                     Gunrock's way;
//   GTEPS (Graph500)  input edges in the source's component (undirected:
//                     each edge once, self loops once) over the search time.
// The search time is bfs()'s compute_seconds on the GPU (without the graph
// upload, the format build and the download of the levels) and its seconds
// on the CPU. Sources: vertices with at least one out-edge, drawn by a fixed
// generator (the same on every run). Levels are compared with the CPU's once
// per graph (--device cuda). µs / level is the search time over its steps
// (push and pull), median over the sources: the fixed cost of a level on a
// high-diameter graph.
#include "graphrun/algorithms/bfs.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "bench.hpp"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/error.hpp"

namespace graphrun::cli::bench {

namespace {

struct BfsBenchOptions {
  BenchOptions common;
  int sources = 8;
};

// `count` distinct vertices with out-edges (fewer if the graph has fewer),
// from splitmix64 with a fixed seed.
std::vector<vertex_t> pick_sources(const Graph& g, int count) {
  std::vector<vertex_t> candidates;
  for (vertex_t v = 0; v < g.n_vertices(); ++v)
    if (g.adj().row_length(v) > 0) candidates.push_back(v);
  std::uint64_t s = 0x5eed;
  std::vector<vertex_t> out;
  while (!candidates.empty() && static_cast<int>(out.size()) < count) {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    const std::size_t k = z % candidates.size();
    out.push_back(candidates[k]);
    candidates[k] = candidates.back();
    candidates.pop_back();
  }
  return out;
}

// Input edges inside the searched component: out-edges of reached vertices;
// an undirected graph stores each edge twice except self loops.
double component_edges(const Graph& g, const std::vector<std::int32_t>& level) {
  const CsrView<double> a = g.adj().view();
  long long slots = 0, loops = 0;
#pragma omp parallel for schedule(dynamic, 4096) reduction(+ : slots, loops)
  for (vertex_t v = 0; v < g.n_vertices(); ++v) {
    if (level[v] < 0) continue;
    slots += a.row_ptr[v + 1] - a.row_ptr[v];
    if (!g.directed())
      for (offset_t k = a.row_ptr[v]; k < a.row_ptr[v + 1]; ++k) loops += a.col_idx[k] == v;
  }
  return g.directed() ? static_cast<double>(slots) : static_cast<double>(slots + loops) / 2;
}

void run(const BfsBenchOptions& a) {
  const Device device = parse_device(a.common.device);
  if (device == Device::cuda) {
    if (!cuda_backend_built())
      throw ArgumentError("this build of graphrun has no CUDA backend; use --device cpu");
    if (cuda_device_count() == 0)
      throw ArgumentError("--device cuda: no CUDA device found; use --device cpu");
  }
  Context ctx(device, a.common.threads);
  Context cpu(Device::cpu, a.common.threads);
  const int reps = a.common.reps > 0 ? a.common.reps : 1;
  std::printf(
      "BFS on %s: direction-optimizing, levels only, median over %d sources (%d run%s "
      "each)%s\n\n",
      device == Device::cuda ? "the GPU" : format("the CPU (%d threads)", ctx.threads()).c_str(),
      a.sources, reps, reps == 1 ? "" : "s",
      device == Device::cuda ? "; time without upload and download" : "");
  Table table({"graph", "vertices", "edge slots", "format", "depth", "push/pull steps", "median ms",
               "µs / level", "GTEPS (slots)", "GTEPS (Graph500)", "levels = CPU"},
              a.common.csv);
  for_each_graph(a.common, [&](const BenchGraph& bg) {
    const Graph& g = bg.graph;
    const std::vector<vertex_t> sources = pick_sources(g, a.sources);
    if (sources.empty()) {
      table.row({bg.name, std::to_string(g.n_vertices()), std::to_string(g.n_edges()), "-", "-",
                 "-", "-", "-", "-", "-", "-"});
      return;
    }
    BfsOptions o;
    bfs(ctx, g, sources[0], o);  // warm-up: first touch, the transpose, lazy initialization
    std::vector<double> ms, graph500, us_per_level;
    BfsResult first;
    for (std::size_t s = 0; s < sources.size(); ++s) {
      std::vector<double> t;
      BfsResult r;
      for (int rep = 0; rep < reps; ++rep) {
        r = bfs(ctx, g, sources[s], o);
        t.push_back((device == Device::cuda ? r.compute_seconds : r.seconds) * 1e3);
      }
      const double source_ms = median(t);
      ms.push_back(source_ms);
      us_per_level.push_back(source_ms * 1e3 / std::max(1, r.push_steps + r.pull_steps));
      graph500.push_back(component_edges(g, r.level) / (source_ms * 1e-3) / 1e9);
      if (s == 0) first = std::move(r);
    }
    std::string same = "-";
    if (device == Device::cuda)
      same = bfs(cpu, g, sources[0], o).level == first.level ? "yes" : "NO";
    const double median_ms_ = median(ms);
    table.row({bg.name, std::to_string(g.n_vertices()), std::to_string(g.n_edges()),
               device == Device::cuda && first.pull_steps > 0 ? std::string(to_string(first.format))
                                                              : "-",
               std::to_string(first.depth), format("%d/%d", first.push_steps, first.pull_steps),
               fixed(median_ms_, 3), fixed(median(us_per_level), 2),
               format("%.3g", static_cast<double>(g.n_edges()) / (median_ms_ * 1e-3) / 1e9),
               format("%.3g", median(graph500)), same});
  });
  table.finish();
}

}  // namespace

Command add_bench_bfs(CLI::App& bench) {
  auto args = std::make_shared<BfsBenchOptions>();
  CLI::App* sub = bench.add_subcommand(
      "bfs",
      "Breadth-first search: median time over several sources and the traversed-edge rates\n"
      "(GTEPS over edge slots, as Gunrock counts, and over the component's input edges, as\n"
      "Graph500 counts); on the GPU the levels are checked against the CPU once per graph");
  add_bench_options(*sub, args->common);
  sub->add_option("--sources", args->sources, "Sources per graph (>= 1)")
      ->check(int_at_least(1, "a source count >= 1"))
      ->capture_default_str()
      ->type_name("K");
  sub->footer(
      "\nEXAMPLE:\n"
      "  graphrun bench bfs gen:rmat:22 --undirected --device cuda\n");
  return {sub, [args] { run(*args); }};
}

}  // namespace graphrun::cli::bench
