// PageRank by power iteration, pull-style (Page, Brin, Motwani, Winograd
// 1999; the variant of NetworkX's pagerank(): uniform teleport, dangling
// mass spread uniformly, L1 stopping rule).
//
//   x(j)  = r(j) / outw(j)            (0 for a dangling vertex, outw(j) = 0)
//   y     = Aᵀ x                      SpMV over PlusTimes<double>
//   r'(i) = d y(i) + (d Σ_dangling r(j) + 1 - d) / n
//
// One SpMV and one fused vector pass per iteration: the pass that writes r'
// also sums the L1 change and prepares the next x and dangling mass.
// Reductions go through fixed blocks (one per thread of the context) whose
// partial sums are added in block order, so the same input and thread count
// give bit-identical ranks (OpenMP's reduction clause does not promise an
// order).
#include "graphrun/algorithms/pagerank.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/kernels/spmv.hpp"

#if defined(GRAPHRUN_HAVE_CUDA)
#include "cuda/gpu_algorithms.hpp"
#endif

namespace graphrun {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

void validate(const PageRankOptions& o) {
  if (!(o.damping >= 0.0 && o.damping < 1.0))
    throw ArgumentError("pagerank: damping must be in [0, 1)");
  if (!(o.tol > 0.0)) throw ArgumentError("pagerank: tol must be > 0");
  if (o.max_iter < 1) throw ArgumentError("pagerank: max_iter must be >= 1");
}

// Block b of `blocks` over [0, n): deterministic for a given block count.
struct Blocks {
  vertex_t n;
  int count;
  vertex_t begin(int b) const {
    return static_cast<vertex_t>(static_cast<offset_t>(n) * b / count);
  }
};

}  // namespace

PageRankResult pagerank(Context& ctx, const Graph& g, const PageRankOptions& options) {
  validate(options);
  if (ctx.device() == Device::cuda) {
#if defined(GRAPHRUN_HAVE_CUDA)
    return detail::pagerank_cuda(ctx, g, options);
#else
    throw DeviceError("pagerank: this build has no CUDA backend; use Device::cpu");
#endif
  }
  const auto t0 = Clock::now();
  PageRankResult result;
  const vertex_t n = g.n_vertices();
  if (n == 0) {
    result.converged = true;
    result.seconds = seconds_since(t0);
    return result;
  }

  const bool weighted = options.use_weights && g.weighted() && !g.adj().is_pattern();
  const int threads = ctx.threads();
  const Blocks blocks{n, std::max(1, std::min<int>(threads, n))};
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

  std::vector<double> r(n, inv_n), r_next(n), x(n), y(n);
  std::vector<double> part_err(blocks.count), part_dangling(blocks.count);

  // x = r ./ outw, dangling = Σ r over dangling vertices.
  auto scale = [&](const std::vector<double>& rank) {
#pragma omp parallel for num_threads(threads) schedule(static, 1)
    for (int b = 0; b < blocks.count; ++b) {
      double dangling = 0.0;
      for (vertex_t j = blocks.begin(b); j < blocks.begin(b + 1); ++j) {
        x[j] = rank[j] * inv_outw[j];
        if (inv_outw[j] == 0.0) dangling += rank[j];
      }
      part_dangling[b] = dangling;
    }
    double dangling = 0.0;
    for (double p : part_dangling) dangling += p;
    return dangling;
  };

  double dangling = scale(r);
  for (int it = 1; it <= options.max_iter; ++it) {
    spmv<PlusTimes<double>>(ctx, at, x.data(), y.data());
    const double base = (d * dangling + 1.0 - d) * inv_n;
    // r' = d y + base; err = |r' - r|_1; next x and dangling mass from r'.
#pragma omp parallel for num_threads(threads) schedule(static, 1)
    for (int b = 0; b < blocks.count; ++b) {
      double err = 0.0, dang = 0.0;
      for (vertex_t i = blocks.begin(b); i < blocks.begin(b + 1); ++i) {
        const double ri = d * y[i] + base;
        err += std::abs(ri - r[i]);
        r_next[i] = ri;
        x[i] = ri * inv_outw[i];
        if (inv_outw[i] == 0.0) dang += ri;
      }
      part_err[b] = err;
      part_dangling[b] = dang;
    }
    double err = 0.0;
    dangling = 0.0;
    for (int b = 0; b < blocks.count; ++b) {
      err += part_err[b];
      dangling += part_dangling[b];
    }
    r.swap(r_next);
    result.iterations = it;
    result.residual = err;
    if (err < options.tol) {
      result.converged = true;
    }
    if (options.on_iteration) {
      IterationInfo info;
      info.iteration = it;
      info.residual = err;
      info.elapsed = seconds_since(t0);
      if (!options.on_iteration(info)) break;
    }
    if (result.converged) break;
  }
  result.rank = std::move(r);
  result.seconds = seconds_since(t0);
  return result;
}

}  // namespace graphrun
