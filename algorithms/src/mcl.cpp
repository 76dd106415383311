// Markov clustering (van Dongen 2000; the loop of the mcl program): the
// driver, the same for every device (the options' checks, the iterations,
// the inflation schedule, the stopping rule on chaos, the callback
// contract, the reading of the clusters). The backends' steps (backend.hpp)
// expand, prune and inflate: cpu/mcl_steps.cpp, cuda/mcl.cu. See mcl.hpp and
// mcl_parts.hpp.
#include "graphrun/algorithms/mcl.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include "backend.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "iteration_report.hpp"
#include "mcl_parts.hpp"

namespace graphrun {

void detail::mcl::validate(const MclOptions& o) {
  if (!(o.inflation > 1.0) || !std::isfinite(o.inflation))
    throw ArgumentError("mcl: inflation must be a number > 1 (mcl's -I; 2.0 is the default)");
  if (o.prune_number < 1) throw ArgumentError("mcl: the prune number (-P) must be >= 1");
  if (o.select_number < 0) throw ArgumentError("mcl: the selection number (-S) must be >= 0");
  if (o.recover_number < 0) throw ArgumentError("mcl: the recovery number (-R) must be >= 0");
  if (o.recover_percent < 0 || o.recover_percent > 100)
    throw ArgumentError("mcl: the recovery percentage (-pct) must be in [0, 100]");
  if (o.max_iterations < 1) throw ArgumentError("mcl: max_iterations must be >= 1");
  if (!(o.chaos_limit > 0)) throw ArgumentError("mcl: chaos_limit must be > 0");
}

namespace detail {

MclResult drive_mcl(const Graph& g, const MclOptions& options, MclSteps& steps, const Stopwatch& t0,
                    std::span<const vertex_t> order) {
  MclResult result;
  result.phases.setup = t0.seconds();
  result.max_nnz = steps.nnz();
  const IterationReport report(options.on_iteration, options.progress, t0);
  // mcl keeps the inflation as a double read from a float.
  double inflation = static_cast<float>(options.inflation);
  for (int it = 1; it <= options.max_iterations && g.n_vertices() > 0; ++it) {
    report.start(it);
    const Stopwatch ti;
    const MclStep s = steps.iterate(inflation, options.progress);
    result.phases.expansion += s.expansion_seconds;
    result.phases.pruning += s.pruning_seconds;
    result.max_blocks = std::max(result.max_blocks, s.blocks);
    result.products += s.products;
    result.max_nnz = std::max(result.max_nnz, s.nnz);
    result.iterations = it;
    result.chaos = s.chaos;
    result.iteration_seconds.push_back(ti.seconds());
    if (it >= mcl::inflation_bump_after) inflation *= mcl::inflation_bump;
    result.converged = static_cast<double>(s.chaos) < options.chaos_limit;
    if (!report.done({.iteration = it, .residual = s.chaos, .nnz = s.nnz})) break;
    if (result.converged) break;
  }
  if (g.n_vertices() == 0) result.converged = true;
  const Stopwatch tr;
  // A renumbered run's limit is numbered back first: the interpretation
  // numbers clusters and cuts overlap by vertex id.
  result.cluster = mcl::interpret(
      order.empty() ? steps.limit() : permute(steps.limit(), position(order)), &result.n_clusters);
  result.phases.interpret = tr.seconds();
  result.seconds = t0.seconds();
  return result;
}

}  // namespace detail

MclResult mcl(Context& ctx, const Graph& g, const MclOptions& options) {
  detail::mcl::validate(options);
  const Stopwatch t0;
  const Reorder how =
      options.reorder == Reorder::automatic ? mcl_reorder_for(g.adj()) : options.reorder;
  if (how == Reorder::none || g.n_vertices() < 2) {
    const std::unique_ptr<detail::MclSteps> steps =
        detail::backend_for(ctx, "mcl").mcl(ctx, g, options);
    return detail::drive_mcl(g, options, *steps, t0);
  }
  // The ordering of the undirected graph the loop clusters (A + Aᵀ for a
  // directed one: rabbit builds it; the degree orderings count A's rows).
  const std::vector<vertex_t> order = vertex_order(g.adj().view(), how, !g.directed());
  const Graph renumbered(permute(g.adj(), order), {}, g.directed(), g.weighted());
  const double reorder_seconds = t0.seconds();
  const std::unique_ptr<detail::MclSteps> steps =
      detail::backend_for(ctx, "mcl").mcl(ctx, renumbered, options);
  MclResult r = detail::drive_mcl(renumbered, options, *steps, t0, order);
  r.phases.reorder = reorder_seconds;
  r.phases.setup -= reorder_seconds;
  r.reorder = how;
  return r;
}

Reorder mcl_reorder_for(const Csr<double>& a) {
  constexpr vertex_t kMinVertices = 4096;
  constexpr std::int64_t kSample = 65536;
  constexpr double kScatteredIds = 0.15;
  const vertex_t n = a.n_rows();
  const auto nnz = static_cast<std::int64_t>(a.nnz());
  if (n < kMinVertices || nnz == 0) return Reorder::none;
  // Entries k·nnz/kSample, each with its row found by a binary search in
  // the row pointers: a deterministic sample spread over the whole matrix.
  std::vector<double> distance;
  const std::int64_t step = std::max<std::int64_t>(1, nnz / kSample);
  distance.reserve(static_cast<std::size_t>(nnz / step + 1));
  for (std::int64_t k = 0; k < nnz; k += step) {
    const auto row = static_cast<vertex_t>(
        std::upper_bound(a.row_ptr().begin(), a.row_ptr().end(), static_cast<offset_t>(k)) -
        a.row_ptr().begin() - 1);
    const vertex_t col = a.col_idx()[static_cast<std::size_t>(k)];
    if (col != row) distance.push_back(std::abs(static_cast<double>(col) - row) / n);
  }
  if (distance.empty()) return Reorder::none;
  const auto mid = distance.begin() + static_cast<std::ptrdiff_t>(distance.size() / 2);
  std::nth_element(distance.begin(), mid, distance.end());
  return *mid > kScatteredIds ? Reorder::rabbit : Reorder::none;
}

std::vector<std::vector<vertex_t>> cluster_lists(const MclResult& r) {
  std::vector<std::vector<vertex_t>> lists(static_cast<std::size_t>(r.n_clusters));
  for (std::size_t v = 0; v < r.cluster.size(); ++v)
    lists[static_cast<std::size_t>(r.cluster[v])].push_back(static_cast<vertex_t>(v));
  return lists;
}

}  // namespace graphrun
