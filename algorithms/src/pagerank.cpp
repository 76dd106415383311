// PageRank by power iteration, pull-style (Page, Brin, Motwani, Winograd
// 1999; the variant of NetworkX's pagerank(): uniform teleport, dangling
// mass spread uniformly, L1 stopping rule).
//
//   x(j)  = r(j) / outw(j)            (0 for a dangling vertex, outw(j) = 0)
//   y     = Aᵀ x                      SpMV over PlusTimes<double>
//   r'(i) = d y(i) + (d Σ_dangling r(j) + 1 - d) / n
//
// This is the driver, the same for every device: the options and their
// checks, the iteration with its stopping rule, the callback contract and
// the result. The backends' steps (backend.hpp) prepare the graph and run
// the iterations: cpu/pagerank_steps.cpp, cuda/pagerank.cu.
#include "graphrun/algorithms/pagerank.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "backend.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "iteration_report.hpp"

namespace graphrun {

namespace {

void validate(const PageRankOptions& o) {
  if (!(o.damping >= 0.0 && o.damping < 1.0))
    throw ArgumentError("pagerank: damping must be in [0, 1)");
  if (!(o.tol > 0.0)) throw ArgumentError("pagerank: tol must be > 0");
  if (o.max_iter < 1) throw ArgumentError("pagerank: max_iter must be >= 1");
}

// How many iterations to queue before the host looks at their L1 changes:
// one while a callback must see every iteration before the next starts;
// otherwise as many as the L1 change's rate of decrease says are left until
// it passes tol (PageRank's converges geometrically, at about the damping
// factor per iteration), two while that rate is unknown, at most the
// backend's max_batch. Queued passes past convergence cost the device
// little (see PageRankSteps::iterate), so the prediction is not padded.
int batch_size(const PageRankOptions& o, int max_batch, int it, double err, double previous_err) {
  if (o.on_iteration || max_batch <= 1) return 1;
  if (it <= 2 || !(previous_err > 0.0) || !(err > 0.0)) return std::min(2, max_batch);
  const double rate = err / previous_err;
  if (!(rate < 1.0)) return max_batch;
  const double left = std::ceil(std::log(o.tol / err) / std::log(rate));
  return static_cast<int>(std::clamp(left, 1.0, static_cast<double>(max_batch)));
}

// The checks every backend relies on.

// 1 / Σ options.start, summed in vertex order, after checking that it holds
// n finite, non-negative values that are not all 0 (ArgumentError naming the
// first bad vertex); 0 when options.start is empty (the uniform start).
double pagerank_start_scale(const PageRankOptions& o, vertex_t n) {
  if (o.start.empty()) return 0.0;
  if (o.start.size() != static_cast<std::size_t>(n))
    throw ArgumentError("pagerank: start has " + std::to_string(o.start.size()) +
                        " values for a graph of " + std::to_string(n) + " vertices");
  double sum = 0.0;  // in vertex order: the same scale on every backend
  for (vertex_t v = 0; v < n; ++v) {
    const double x = o.start[static_cast<std::size_t>(v)];
    if (!(std::isfinite(x) && x >= 0.0))
      throw ArgumentError("pagerank: start value of vertex " + std::to_string(v) + " is " +
                          std::to_string(x) + "; the values must be finite and >= 0");
    sum += x;
  }
  if (!(sum > 0.0 && std::isfinite(sum)))
    throw ArgumentError("pagerank: the start values must not all be 0 (nor sum past the range)");
  return 1.0 / sum;
}

// A weighted graph's weights must be finite and >= 0, and each vertex's
// out-weights must sum to a finite number: ArgumentError naming the first
// edge (or vertex) in vertex order otherwise.
void pagerank_check_weights(const Graph& g) {
  const Csr<double>& a = g.adj();
  if (a.is_pattern()) return;
  if (const auto e = find_first_value(a, [](double w) { return !(w >= 0.0) || !std::isfinite(w); }))
    throw ArgumentError("pagerank: the edge " + g.label(row_of_entry(a, *e)) + " -> " +
                        g.label(a.col_idx()[*e]) + " has weight " +
                        std::to_string(a.values()[static_cast<std::size_t>(*e)]) +
                        "; PageRank needs finite weights >= 0 (use_weights = false ignores "
                        "them)");
  // Each out-weight sum must be finite too; the first row past it, in vertex
  // order whatever the thread count.
  const vertex_t n = a.n_rows();
  vertex_t first_bad = n;
#pragma omp parallel for reduction(min : first_bad) schedule(static)
  for (vertex_t u = 0; u < n; ++u) {
    double sum = 0.0;
    for (offset_t e = a.row_ptr()[u]; e < a.row_ptr()[u + 1]; ++e)
      sum += a.values()[static_cast<std::size_t>(e)];
    if (!std::isfinite(sum)) first_bad = std::min(first_bad, u);
  }
  if (first_bad < n)
    throw ArgumentError("pagerank: the out-edge weights of vertex " + g.label(first_bad) +
                        " sum past the range of a double; scale the weights down");
}

// A NaN or infinite L1 change means the ranks left the range of a double (a
// vertex whose out-weights sum to a denormal, say): Error naming the
// iteration, rather than ranks that are not numbers.
void pagerank_check_residual(int iteration, double residual) {
  if (!std::isfinite(residual))
    throw Error("pagerank: iteration " + std::to_string(iteration) +
                ": the ranks became NaN or infinite (the L1 change is " + std::to_string(residual) +
                "); the weights are outside what double precision can rank");
}

}  // namespace

const char* to_string(PageRankGather gather) {
  switch (gather) {
    case PageRankGather::float32:
      return "float";
    case PageRankGather::float64:
      return "double";
    case PageRankGather::automatic:
      break;
  }
  return "auto";
}

std::optional<PageRankGather> pagerank_gather_named(std::string_view name) {
  for (const PageRankGather g :
       {PageRankGather::automatic, PageRankGather::float32, PageRankGather::float64})
    if (name == to_string(g)) return g;
  return std::nullopt;
}

const char* to_string(PageRankMethod method) {
  switch (method) {
    case PageRankMethod::jacobi:
      return "jacobi";
    case PageRankMethod::gauss_seidel:
      return "gauss-seidel";
    case PageRankMethod::chebyshev:
      return "chebyshev";
    case PageRankMethod::automatic:
      break;
  }
  return "auto";
}

PageRankResult pagerank(Context& ctx, const Graph& g, const PageRankOptions& given) {
  validate(given);
  // The backends see a concrete method: automatic is Chebyshev where its
  // recurrence converges (an undirected graph's real spectrum), else Jacobi.
  PageRankOptions options = given;
  if (options.method == PageRankMethod::automatic)
    options.method = g.directed() ? PageRankMethod::jacobi : PageRankMethod::chebyshev;
  if (options.method == PageRankMethod::gauss_seidel && ctx.device() != Device::cpu)
    throw ArgumentError(
        "pagerank: the Gauss-Seidel method runs on the CPU (each thread sweeps its block of "
        "vertices in order); use PageRankMethod::jacobi, chebyshev or automatic on the GPU");
  if (options.method == PageRankMethod::gauss_seidel && options.gather == PageRankGather::float32)
    throw ArgumentError(
        "pagerank: the Gauss-Seidel sweep reads the ranks it has just made, in double: it "
        "cannot gather x in float (use PageRankGather::automatic or float64 with it)");
  if (options.method == PageRankMethod::chebyshev && g.directed())
    throw ArgumentError(
        "pagerank: the Chebyshev method needs an undirected graph (a directed graph's "
        "transition matrix has complex eigenvalues, where the iteration diverges): load it "
        "as undirected (--undirected) or use the jacobi method");
  const Stopwatch t0;
  const detail::PageRankSetup setup{
      .options = options,
      .weighted = options.use_weights && g.weighted() && !g.is_pattern(),
      .start_scale = pagerank_start_scale(options, g.n_vertices())};
  if (options.use_weights && g.weighted()) pagerank_check_weights(g);
  const detail::Backend& backend = detail::backend_for(ctx, "pagerank");
  PageRankResult result;
  result.method = options.method;
  if (g.n_vertices() == 0) {
    result.converged = true;
    result.seconds = t0.seconds();
    return result;
  }
  const Stopwatch t_setup;
  std::unique_ptr<detail::PageRankSteps> steps = backend.pagerank(ctx, g, setup, result);
  if (ctx.device() == Device::cuda) result.setup_seconds = t_setup.seconds();

  const Stopwatch t_compute;
  const detail::IterationReport report(options.on_iteration, options.progress, t0);
  std::array<double, detail::max_pagerank_batch> residuals{};
  const int max_batch = std::min(steps->max_batch(), detail::max_pagerank_batch);
  int last = 0;                  // the last iteration whose ranks count
  double previous_residual = 0;  // the L1 change of the iteration before `last`
  for (int it = 1; it <= options.max_iter && !result.converged;) {
    const int batch =
        std::min(batch_size(options, max_batch, it, result.residual, previous_residual),
                 options.max_iter - it + 1);
    report.start(it);
    steps->iterate(it, std::span<double>(residuals.data(), static_cast<std::size_t>(batch)));
    bool stopped = false;
    for (int p = it; p < it + batch && !stopped; ++p) {
      const double err = residuals[static_cast<std::size_t>(p - it)];
      pagerank_check_residual(p, err);
      last = p;
      previous_residual = result.residual;
      result.iterations = p;
      result.residual = err;
      result.converged = err < options.tol;
      stopped = !report.done({.iteration = p, .residual = err}) || result.converged;
    }
    if (stopped && !result.converged) break;  // the callback said so
    it += batch;
  }
  result.compute_seconds = t_compute.seconds();
  const Stopwatch t_finish;
  result.rank = steps->ranks(last);
  steps.reset();  // the device's copies go now, inside the time reported
  if (ctx.device() == Device::cuda) result.finish_seconds = t_finish.seconds();
  result.seconds = t0.seconds();
  return result;
}

}  // namespace graphrun
