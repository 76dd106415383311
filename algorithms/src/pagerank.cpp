// PageRank by power iteration, pull-style (Page, Brin, Motwani, Winograd
// 1999; the variant of NetworkX's pagerank(): uniform teleport, dangling
// mass spread uniformly, L1 stopping rule).
//
//   x(j)  = r(j) / outw(j)            (0 for a dangling vertex, outw(j) = 0)
//   y     = Aᵀ x                      SpMV over PlusTimes<double>
//   r'(i) = d y(i) + (d Σ_dangling r(j) + 1 - d) / n
//
// On the CPU each iteration is one pass over the rows of Aᵀ that computes
// the row's in-edge sum (the SpMV row kernel), r'(i), the L1 change, and the
// next x and dangling mass together. Reductions go through fixed parts whose
// partial sums are added in part order, so the same input and thread count
// give bit-identical ranks (OpenMP's reduction clause does not promise an
// order).
#include "graphrun/algorithms/pagerank.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>
#include <vector>

#include "gpu_backend.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/kernels/cpu/partition.hpp"
#include "graphrun/kernels/cpu/spmv_csr.hpp"
#include "pagerank_start.hpp"

namespace graphrun {

namespace {

// Above this many bytes of vertex vectors (r, x, x_next, inv_outw) the
// iteration is split into SpMV + update (see the loop below). About the L2
// of two cores of the machines measured (docs/performance.md).
constexpr std::size_t fused_max_bytes = std::size_t{4} << 20;

void validate(const PageRankOptions& o) {
  if (!(o.damping >= 0.0 && o.damping < 1.0))
    throw ArgumentError("pagerank: damping must be in [0, 1)");
  if (!(o.tol > 0.0)) throw ArgumentError("pagerank: tol must be > 0");
  if (o.max_iter < 1) throw ArgumentError("pagerank: max_iter must be >= 1");
}

}  // namespace

namespace detail {

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

void pagerank_check_residual(int iteration, double residual) {
  if (!std::isfinite(residual))
    throw Error("pagerank: iteration " + std::to_string(iteration) +
                ": the ranks became NaN or infinite (the L1 change is " + std::to_string(residual) +
                "); the weights are outside what double precision can rank");
}

}  // namespace detail

PageRankResult pagerank(Context& ctx, const Graph& g, const PageRankOptions& options) {
  validate(options);
  const double start_scale = detail::pagerank_start_scale(options, g.n_vertices());
  if (options.use_weights && g.weighted()) detail::pagerank_check_weights(g);
  if (ctx.device() == Device::cuda) {
    return detail::pagerank_cuda(ctx, g, options);
  }
  if (options.reorder != Reorder::automatic && options.reorder != Reorder::none &&
      g.n_vertices() > 0) {
    // An ordering asked for on the CPU: run on the renumbered graph (ids
    // 0 .. n-1; only the matrix matters here) and put the ranks back.
    const Stopwatch t_order;
    const std::vector<vertex_t> order = vertex_order(g.adj().view(), options.reorder);
    const Graph renumbered(permute(g.adj(), order), {}, g.directed(), g.weighted());
    std::vector<double> start;
    PageRankOptions o = options;
    o.reorder = Reorder::none;
    if (!options.start.empty()) {
      start = gather(options.start, order);
      o.start = start;
    }
    const double order_seconds = t_order.seconds();
    PageRankResult r = pagerank(ctx, renumbered, o);
    r.rank = scatter(std::span<const double>(r.rank), order);
    r.reorder = options.reorder;
    r.reorder_seconds = order_seconds;
    r.seconds = t_order.seconds();
    return r;
  }
  const Stopwatch t0;
  PageRankResult result;
  const vertex_t n = g.n_vertices();
  if (n == 0) {
    result.converged = true;
    result.seconds = t0.seconds();
    return result;
  }

  const bool weighted = options.use_weights && g.weighted() && !g.adj().is_pattern();
  const int threads = ctx.threads();
  const double d = options.damping;
  const double inv_n = 1.0 / static_cast<double>(n);

  // inv_outw(j) = 1 / out-weight of j (out-degree when unweighted), 0 when
  // j is dangling. Computed once; each row is summed serially.
  const CsrView<double> a = g.adj().view();
  std::vector<double> inv_outw(n);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (vertex_t j = 0; j < n; ++j) {
    double w = 0.0;
    if (weighted) {
      for (offset_t k = a.row_ptr[j]; k < a.row_ptr[j + 1]; ++k) w += a.values[k];
    } else {
      w = static_cast<double>(a.row_ptr[j + 1] - a.row_ptr[j]);
    }
    inv_outw[j] = w != 0.0 ? 1.0 / w : 0.0;
  }

  // In-edges: row i of Aᵀ; a pattern view when weights are not used.
  CsrView<double> at = g.transpose().view();
  if (!weighted) at.values = nullptr;

  // x = r ./ outw for the current iterate, x_next for the one being built:
  // rows read x through Aᵀ's columns while writing their own x_next(i).
  std::vector<double> r(n, inv_n), x(n), x_next(n);
  if (start_scale > 0.0)
    for (vertex_t j = 0; j < n; ++j)
      r[j] = options.start[static_cast<std::size_t>(j)] * start_scale;

  // Parts of equal work (in-edges + rows), a few per thread handed out
  // dynamically; each part's partial sums land in its own slot and are added
  // in part order, so the ranks are bit-identical run to run for a given
  // thread count (OpenMP's reduction clause promises no order).
  const offset_t work = at.nnz + n;
  const int parts = threads <= 1 || work < cpu_min_parallel_work
                        ? 1
                        : static_cast<int>(std::min<offset_t>(offset_t{threads} * 8,
                                                              std::max<offset_t>(1, work / 4096)));
  std::vector<vertex_t> part_begin(parts + 1);
  for (int p = 0; p <= parts; ++p) part_begin[p] = cpu::partition_begin(at.row_ptr, n, parts, p);
  std::vector<double> part_err(parts), part_dangling(parts);

  double dangling = 0.0;
  for (vertex_t j = 0; j < n; ++j) {
    x[j] = r[j] * inv_outw[j];
    if (inv_outw[j] == 0.0) dangling += r[j];
  }

  // While the vectors fit in the caches, one pass per iteration, fused: the
  // in-edge sum of row i (the SpMV's row), r'(i), its L1 change, and the next
  // x(i) and dangling mass. That saves writing and re-reading y and a
  // fork-join per iteration, which is what small graphs pay for. Past the
  // caches the gather x[col] misses on every edge, and the extra streams of
  // the fused loop (r, x_next, inv_outw) compete with it for the memory
  // system: there the SpMV runs alone, then a streaming update pass.
  const bool fused = std::size_t(n) * 4 * sizeof(double) <= fused_max_bytes;
  std::vector<double> y(fused ? 0 : n);
  std::atomic<int> parts_done{0};  // for options.progress
  const auto step = [&]<bool Pattern, bool Fused>(double base) {
    if (!Fused) cpu::spmv_csr<PlusTimes<double>>(at, x.data(), y.data(), Mask{}, threads);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) if (parts > 1)
    for (int p = 0; p < parts; ++p) {
      double err = 0.0, dang = 0.0;
      for (vertex_t i = part_begin[p]; i < part_begin[p + 1]; ++i) {
        const double yi =
            Fused ? cpu::detail::spmv_row<PlusTimes<double>, Pattern>(at, i, x.data()) : y[i];
        const double ri = d * yi + base;
        err += std::abs(ri - r[i]);
        r[i] = ri;
        x_next[i] = ri * inv_outw[i];
        if (inv_outw[i] == 0.0) dang += ri;
      }
      part_err[p] = err;
      part_dangling[p] = dang;
      if (options.progress)
        options.progress->set((parts_done.fetch_add(1, std::memory_order_relaxed) + 1) /
                              static_cast<double>(parts));
    }
  };

  for (int it = 1; it <= options.max_iter; ++it) {
    if (options.progress) options.progress->start(it);
    parts_done.store(0, std::memory_order_relaxed);
    const double base = (d * dangling + 1.0 - d) * inv_n;
    const bool pattern = at.values == nullptr;
    if (fused && pattern)
      step.template operator()<true, true>(base);
    else if (fused)
      step.template operator()<false, true>(base);
    else if (pattern)
      step.template operator()<true, false>(base);
    else
      step.template operator()<false, false>(base);
    double err = 0.0;
    dangling = 0.0;
    for (int p = 0; p < parts; ++p) {
      err += part_err[p];
      dangling += part_dangling[p];
    }
    x.swap(x_next);
    detail::pagerank_check_residual(it, err);
    if (options.progress) options.progress->set_residual(err);
    result.iterations = it;
    result.residual = err;
    if (err < options.tol) {
      result.converged = true;
    }
    if (options.on_iteration) {
      IterationInfo info;
      info.iteration = it;
      info.residual = err;
      info.elapsed = t0.seconds();
      if (!options.on_iteration(info)) break;
    }
    if (result.converged) break;
  }
  result.rank = std::move(r);
  result.seconds = t0.seconds();
  return result;
}

}  // namespace graphrun
