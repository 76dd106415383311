// Louvain communities (louvain.hpp). The driver: the level-0 graph, the
// level loop with its aggregation by contraction (contract.hpp), the
// numbering and the modularity; the backend moves the vertices of a level
// (cpu/louvain.cpp, cuda/louvain.cu).
#include "graphrun/algorithms/louvain.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "backend.hpp"
#include "graphrun/algorithms/contract.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/host_trace.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "iteration_report.hpp"
#include "louvain_modularity.hpp"
#include "undirected_rows.hpp"

namespace graphrun {

namespace {

// W: g undirected and weighted, loops left out (undirected_rows.hpp: a
// directed graph's u -> v and v -> u summed). Negative weights are refused.
// Rows in parallel: counted, then filled (each row's walk is independent).
Csr<double> weighted_undirected(const Graph& g, int threads) {
  const CsrView<double> a = g.adj().view();
  offset_t negative = a.nnz;  // the first entry < 0 (or NaN)
  if (a.values) {
#pragma omp parallel for num_threads(threads) schedule(static) reduction(min : negative)
    for (offset_t k = 0; k < a.nnz; ++k)
      if (!(a.values[k] >= 0)) negative = std::min(negative, k);
  }
  if (negative < a.nnz)
    throw ArgumentError("louvain: modularity needs weights >= 0; an edge has weight " +
                        std::to_string(a.values[negative]));
  const detail::UndirectedRows rows(g);
  const vertex_t n = rows.n();
  std::vector<offset_t> row_ptr(static_cast<std::size_t>(n) + 1, 0);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
  for (vertex_t v = 0; v < n; ++v) row_ptr[static_cast<std::size_t>(v) + 1] = rows.degree(v);
  std::partial_sum(row_ptr.begin(), row_ptr.end(), row_ptr.begin());
  std::vector<vertex_t> col_idx(static_cast<std::size_t>(row_ptr.back()));
  std::vector<double> values(col_idx.size());
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
  for (vertex_t v = 0; v < n; ++v) {
    offset_t e = row_ptr[v];
    rows.walk_weighted(v, [&](vertex_t c, double x) {
      col_idx[static_cast<std::size_t>(e)] = c;
      values[static_cast<std::size_t>(e)] = x;
      ++e;
    });
  }
  return Csr<double>(n, n, std::move(row_ptr), std::move(col_idx), std::move(values));
}

std::vector<double> row_sums(const Csr<double>& w, int threads) {
  const CsrView<double> v = w.view();
  std::vector<double> k(static_cast<std::size_t>(v.n_rows), 0.0);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
  for (vertex_t r = 0; r < v.n_rows; ++r) {
    double x = 0;
    for (offset_t e = v.row_ptr[r]; e < v.row_ptr[r + 1]; ++e) x += v.values[e];
    k[r] = x;
  }
  return k;
}

// Q of labels in 0..n-1 on W (row sums k, total two_m), in the blocks of
// the level's Q (louvain_modularity.hpp).
double modularity_of(const Csr<double>& w, const std::vector<double>& k, double two_m,
                     std::span<const vertex_t> label, double gamma, int threads) {
  if (two_m == 0) return 0;
  std::vector<double> tot(k.size(), 0.0);
  for (std::size_t v = 0; v < k.size(); ++v) tot[label[v]] += k[v];
  return detail::louvain_modularity(w.view(), label, tot, two_m, gamma, threads);
}

void check_options(const LouvainOptions& o) {
  if (!(o.resolution > 0) || !std::isfinite(o.resolution))
    throw ArgumentError("louvain: the resolution must be a number > 0, not " +
                        std::to_string(o.resolution));
  if (!(o.tolerance >= 0) || !std::isfinite(o.tolerance))
    throw ArgumentError("louvain: the tolerance must be a number >= 0");
  if (o.max_levels < 1) throw ArgumentError("louvain: max_levels must be >= 1");
}

}  // namespace

offset_t louvain_gpu_min_entries(const LouvainOptions& options, int threads) {
  constexpr offset_t per_thread = offset_t{1} << 16;
  return options.gpu_min_entries >= 0 ? options.gpu_min_entries : per_thread * std::max(threads, 1);
}

LouvainResult louvain(Context& ctx, const Graph& g, const LouvainOptions& options) {
  const Stopwatch t0;
  check_options(options);
  const vertex_t n = g.n_vertices();
  LouvainResult r;
  if (n == 0) return r;
  const int threads = ctx.threads();
  const detail::IterationReport report(options.on_iteration, nullptr, t0);
  // Where a level runs: on ctx's device, except that on the GPU a level
  // with fewer than louvain_gpu_min_entries entries is moved and
  // contracted on the CPU (the same steps to the same bits; see
  // louvain.hpp).
  Context host(Device::cpu, threads);
  const offset_t gpu_min = louvain_gpu_min_entries(options, threads);
  const auto context_for = [&](const Csr<double>& level) -> Context& {
    return ctx.device() != Device::cpu && level.nnz() < gpu_min ? host : ctx;
  };
  const auto moves_for = [&](const Csr<double>& level) -> const detail::Backend& {
    Context& c = context_for(level);
    return detail::backend_for(c, "louvain");
  };
  // A device without a backend, or with no GPU, is refused before any
  // work, even where every level would be small enough for the CPU.
  detail::backend_for(ctx, "louvain");
  if (ctx.device() == Device::cuda && cuda_device_count() == 0)
    throw DeviceError("louvain: no CUDA device found");
  HostTrace trace("louvain");  // GRAPHRUN_TRACE: each level's moves and contraction
  // The step's name with the level's figures, built only when traced.
  const auto traced = [&](const char* what, int level, const Csr<double>& w, int sweeps) {
    if (!HostTrace::enabled()) return;
    // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on
    // "literal" + std::string.
    std::string name = what;
    const auto add = [&](const char* text, long long x) {
      name += text;
      name += std::to_string(x);
    };
    if (level > 0) add(" ", level);
    add(" (", w.n_rows());
    add(" vertices, ", w.nnz());
    name += " entries";
    if (sweeps >= 0) {
      add(", ", sweeps);
      name += " sweeps";
    }
    name += context_for(w).device() == Device::cpu ? ", cpu)" : ", gpu)";
    trace.step(name.c_str());
  };
  const Csr<double> w0 = weighted_undirected(g, threads);
  const std::vector<double> k0 = row_sums(w0, threads);
  const double two_m = std::accumulate(k0.begin(), k0.end(), 0.0);
  trace.step("weighted graph and degrees");

  // of[v]: the vertex of the current level that input vertex v is in.
  std::vector<vertex_t> of(static_cast<std::size_t>(n));
  std::iota(of.begin(), of.end(), 0);
  if (two_m > 0) {
    Csr<double> w = w0;
    std::vector<double> k = k0;
    for (int level = 1; level <= options.max_levels; ++level) {
      const vertex_t level_n = w.n_rows();
      const detail::LouvainMoves moves =
          moves_for(w).louvain_moves(context_for(w), {w, k, two_m}, options);
      r.sweeps += moves.sweeps;
      traced("moves of level", level, w, moves.sweeps);
      if (moves.moves == 0) break;
      // The communities numbered by first appearance in vertex order.
      std::vector<vertex_t> label(static_cast<std::size_t>(level_n), -1);
      vertex_t count = 0;
      for (vertex_t v = 0; v < level_n; ++v) {
        vertex_t& l = label[moves.community[v]];
        if (l < 0) l = count++;
      }
      std::vector<vertex_t> next(static_cast<std::size_t>(level_n));
      for (vertex_t v = 0; v < level_n; ++v) next[v] = label[moves.community[v]];
      for (vertex_t& x : of) x = next[x];
      ++r.levels;
      r.level_modularity.push_back(moves.modularity);
      if (!report.done({.iteration = r.levels, .residual = moves.modularity, .frontier = count})) {
        r.complete = false;
        break;
      }
      // The GPU's SpGEMM sums in a fixed order when asked: the same levels
      // run to run (the CPU's do on a given thread count anyway).
      Context aggregate = context_for(w);
      const Graph lg(std::move(w), {}, false, true);
      aggregate.set_deterministic(true);
      ContractResult c = contract(aggregate, lg, next, count, {.keep_loops = true});
      traced("contraction of level", level, c.quotient, -1);
      w = std::move(c.quotient);
      k = row_sums(w, threads);
    }
  }

  // Refinement: the input vertices moved once more between the communities
  // found, from that partition (a vertex placed well at a coarse level may
  // sit better next door); it can only raise Q.
  if (two_m > 0 && r.levels > 0 && r.complete) {
    const detail::LouvainMoves moves =
        moves_for(w0).louvain_moves(context_for(w0), {w0, k0, two_m, of}, options);
    r.sweeps += moves.sweeps;
    of = moves.community;
    traced("refinement", 0, w0, moves.sweeps);  // no level: the input graph
  }

  // Largest first; ties by the smallest input vertex (the first seen).
  std::vector<vertex_t> size(static_cast<std::size_t>(n), 0), first(static_cast<std::size_t>(n), n);
  for (vertex_t v = 0; v < n; ++v) {
    ++size[of[v]];
    first[of[v]] = std::min(first[of[v]], v);
  }
  std::vector<vertex_t> used;
  for (vertex_t c = 0; c < n; ++c)
    if (size[c] > 0) used.push_back(c);
  std::sort(used.begin(), used.end(), [&](vertex_t x, vertex_t y) {
    return size[x] != size[y] ? size[x] > size[y] : first[x] < first[y];
  });
  std::vector<vertex_t> rank(static_cast<std::size_t>(n), -1);
  for (std::size_t i = 0; i < used.size(); ++i) rank[used[i]] = static_cast<vertex_t>(i);
  r.community.resize(static_cast<std::size_t>(n));
  for (vertex_t v = 0; v < n; ++v) r.community[v] = rank[of[v]];
  r.n_communities = static_cast<vertex_t>(used.size());
  r.modularity = modularity_of(w0, k0, two_m, r.community, options.resolution, threads);
  trace.step("numbering and modularity");
  r.seconds = t0.seconds();
  return r;
}

double modularity(Context& ctx, const Graph& g, std::span<const vertex_t> community,
                  double resolution) {
  const vertex_t n = g.n_vertices();
  if (community.size() != static_cast<std::size_t>(n))
    throw ArgumentError("modularity: " + std::to_string(community.size()) + " labels for " +
                        std::to_string(n) + " vertices");
  for (vertex_t c : community)
    if (c < 0 || c >= n)
      throw ArgumentError("modularity: community " + std::to_string(c) + " is outside 0.." +
                          std::to_string(n - 1));
  if (!(resolution > 0)) throw ArgumentError("modularity: the resolution must be > 0");
  const Csr<double> w = weighted_undirected(g, ctx.threads());
  const std::vector<double> k = row_sums(w, ctx.threads());
  const double two_m = std::accumulate(k.begin(), k.end(), 0.0);
  return modularity_of(w, k, two_m, community, resolution, ctx.threads());
}

}  // namespace graphrun
