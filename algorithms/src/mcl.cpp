// Markov clustering on the CPU (van Dongen 2000; the loop of the mcl
// program, src/mcl/proc.c and expand.c): expansion by graphrun's hash
// SpGEMM, then one pass over the columns that prunes, renormalizes,
// inflates and measures the chaos. See mcl.hpp and mcl_parts.hpp.
//
// Expansion runs as PlusTimes<double> over the float iterand: products and
// sums in double, rounded to float once, which is what mcl does for the
// columns it expands sparsely. (For columns it expands into a dense vector
// mcl rounds each product to float first; the difference is in the last
// bit of a float.) Columns are independent and each is computed by one
// thread in a fixed order, so the result does not depend on the thread
// count, as mcl's does not depend on -te.
#include "graphrun/algorithms/mcl.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "graphrun/engine/error.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/kernels/cpu/spgemm.hpp"
#include "mcl_parts.hpp"

#if defined(GRAPHRUN_HAVE_CUDA)
#include "cuda/gpu_algorithms.hpp"
#endif

namespace graphrun {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace

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

namespace {

// One pass over the expanded columns: prune (mcl_parts.hpp), renormalize,
// inflate with power r and renormalize again. Returns the next iterand;
// *chaos gets the largest column chaos.
Csr<float> prune_and_inflate(const Csr<double>& e, const detail::mcl::PruneParams& p, double r,
                             int threads, float* chaos) {
  const vertex_t n = e.n_rows();
  std::vector<double> threshold(static_cast<std::size_t>(n));
  std::vector<offset_t> row_ptr(static_cast<std::size_t>(n) + 1, 0);
  float chaos_max = 0;
#pragma omp parallel num_threads(threads)
  {
    std::vector<float> column, scratch;
    float my_chaos = 0;
#pragma omp for schedule(dynamic, 64) nowait
    for (vertex_t j = 0; j < n; ++j) {
      const offset_t b = e.row_ptr()[j], len = e.row_ptr()[j + 1] - b;
      column.resize(static_cast<std::size_t>(len));
      // mcl stores the expanded column as floats before it looks at it.
      for (offset_t k = 0; k < len; ++k) column[k] = static_cast<float>(e.values()[b + k]);
      const auto d = detail::mcl::prune_column(column.data(), len, p, scratch);
      threshold[j] = d.threshold;
      row_ptr[static_cast<std::size_t>(j) + 1] = d.kept;
      my_chaos = std::max(my_chaos, d.chaos);
    }
#pragma omp critical
    chaos_max = std::max(chaos_max, my_chaos);
  }
  for (vertex_t j = 0; j < n; ++j) row_ptr[j + 1] += row_ptr[j];

  std::vector<vertex_t> col_idx(static_cast<std::size_t>(row_ptr[n]));
  std::vector<float> values(col_idx.size());
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads)
  for (vertex_t j = 0; j < n; ++j) {
    const offset_t b = e.row_ptr()[j], end = e.row_ptr()[j + 1];
    const offset_t out = row_ptr[j], out_end = row_ptr[j + 1];
    double mass = 0;
    offset_t o = out;
    for (offset_t k = b; k < end; ++k) {
      const float v = static_cast<float>(e.values()[k]);
      if (static_cast<double>(v) >= threshold[j]) {
        col_idx[o] = e.col_idx()[k];
        values[o++] = v;
        mass += v;
      }
    }
    // Renormalize after pruning (mclvScale), then inflate (mclvInflate):
    // each a float rounding of a double quotient or power.
    double powsum = 0;
    for (offset_t k = out; k < out_end; ++k) {
      float v = values[k];
      if (mass != 0) v = static_cast<float>(static_cast<double>(v) / mass);
      v = static_cast<float>(std::pow(static_cast<double>(v), r));
      values[k] = v;
      powsum += v;
    }
    if (powsum > 0)
      for (offset_t k = out; k < out_end; ++k)
        values[k] = static_cast<float>(static_cast<double>(values[k]) / powsum);
  }
  *chaos = chaos_max;
  return Csr<float>(n, n, std::move(row_ptr), std::move(col_idx), std::move(values));
}

MclResult mcl_cpu(Context& ctx, const Graph& g, const MclOptions& options) {
  const auto t0 = Clock::now();
  MclResult result;
  const int threads = ctx.threads();
  const auto params = detail::mcl::PruneParams::from(options);

  Csr<float> m = detail::mcl::start_matrix(g, threads);
  result.phases.setup = seconds_since(t0);
  // mcl keeps the inflation as a double read from a float.
  double inflation = static_cast<float>(options.inflation);
  result.max_nnz = m.nnz();
  for (int it = 1; it <= options.max_iterations; ++it) {
    const auto ti = Clock::now();
    SpgemmStats stats;
    const Csr<double> expanded =
        cpu::spgemm<PlusTimes<double>>(m.view(), m.view(), threads, &stats);
    const double t_expand = seconds_since(ti);
    float chaos = 0;
    m = prune_and_inflate(expanded, params, inflation, threads, &chaos);
    result.phases.expansion += t_expand;
    result.phases.pruning += seconds_since(ti) - t_expand;
    result.products += stats.intermediate_products;
    result.max_nnz = std::max<std::int64_t>(result.max_nnz, m.nnz());
    result.iterations = it;
    result.chaos = chaos;
    result.iteration_seconds.push_back(seconds_since(ti));
    if (it >= detail::mcl::inflation_bump_after) inflation *= detail::mcl::inflation_bump;
    const bool converged = static_cast<double>(chaos) < options.chaos_limit;
    result.converged = converged;
    if (options.on_iteration && !options.on_iteration(it, chaos, m.nnz())) break;
    if (converged) break;
  }
  const auto tr = Clock::now();
  result.cluster = detail::mcl::interpret(m, &result.n_clusters);
  result.phases.interpret = seconds_since(tr);
  result.seconds = seconds_since(t0);
  return result;
}

}  // namespace

MclResult mcl(Context& ctx, const Graph& g, const MclOptions& options) {
  detail::mcl::validate(options);
  if (ctx.device() == Device::cuda) {
#if defined(GRAPHRUN_HAVE_CUDA)
    return detail::mcl_cuda(ctx, g, options);
#else
    throw DeviceError("mcl: this build has no CUDA backend; use Device::cpu");
#endif
  }
  return mcl_cpu(ctx, g, options);
}

std::vector<std::vector<vertex_t>> cluster_lists(const MclResult& r) {
  std::vector<std::vector<vertex_t>> lists(static_cast<std::size_t>(r.n_clusters));
  for (std::size_t v = 0; v < r.cluster.size(); ++v)
    lists[static_cast<std::size_t>(r.cluster[v])].push_back(static_cast<vertex_t>(v));
  return lists;
}

}  // namespace graphrun
