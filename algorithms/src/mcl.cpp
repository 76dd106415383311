// Markov clustering on the CPU (van Dongen 2000; the loop of the mcl
// program, src/mcl/proc.c and expand.c): expansion by graphrun's hash
// SpGEMM, whose rows (mcl's columns) are pruned, renormalized and inflated
// as each comes out of the numeric phase, so that M·M is never stored and
// no symbolic phase runs (cpu::spgemm_rows): mcl, too, prunes each column
// as soon as it has expanded it. See mcl.hpp and mcl_parts.hpp.
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
#include <atomic>
#include <cmath>
#include <new>

#include "gpu_backend.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/kernels/cpu/spgemm.hpp"
#include "mcl_parts.hpp"

namespace graphrun {

namespace {}  // namespace

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

// mclvScale then mclvInflate on the kept entries of a column: divide by the
// kept mass, raise to the power r, divide by the new sum; each step a float
// rounding of a double quotient or power, as mcl.
void renormalize_inflate(float* v, offset_t n, double mass, double r) {
  double powsum = 0;
  for (offset_t k = 0; k < n; ++k) {
    float x = v[k];
    if (mass != 0) x = static_cast<float>(static_cast<double>(x) / mass);
    x = static_cast<float>(std::pow(static_cast<double>(x), r));
    v[k] = x;
    powsum += x;
  }
  if (powsum > 0)
    for (offset_t k = 0; k < n; ++k) v[k] = static_cast<float>(static_cast<double>(v[k]) / powsum);
}

// What one thread keeps of the columns it expanded, in the order it
// expanded them.
struct ThreadColumns {
  std::vector<vertex_t> rows;    // which columns, in order
  std::vector<offset_t> starts;  // where each begins in col/val
  std::vector<vertex_t> col;
  std::vector<float> val;
  std::vector<float> column, scratch;  // the expanded column as float; ranks
  float chaos = 0;
  bool out_of_memory = false;
  std::int64_t since_report = 0;  // columns not yet added to the progress count
};

// One iteration: every column of M·M computed (spgemm_rows, no symbolic
// phase, the product never stored), pruned, renormalized and inflated while
// it is in cache, then the kept columns gathered into the next iterand.
// *chaos gets the largest column chaos, *products the expansion's.
Csr<float> iterate(const Csr<float>& m, const detail::mcl::PruneParams& p, double r, int threads,
                   float* chaos, std::int64_t* products, StepProgress* progress) {
  const vertex_t n = m.n_rows();
  // Columns expanded so far, counted in batches so that the shared counter
  // is touched once per thousand columns, not once per column.
  constexpr std::int64_t progress_batch = 1024;
  std::atomic<std::int64_t> columns_done{0};
  std::vector<ThreadColumns> parts(static_cast<std::size_t>(threads));
  std::vector<offset_t> row_ptr(static_cast<std::size_t>(n) + 1, 0);
  const cpu::SpgemmRowSink<double> sink = [&](int t, vertex_t j, const vertex_t* col, double* val,
                                              offset_t len) {
    ThreadColumns& o = parts[static_cast<std::size_t>(t)];
    try {
      // mcl stores the expanded column as floats before it looks at it.
      o.column.resize(static_cast<std::size_t>(len));
      for (offset_t k = 0; k < len; ++k) o.column[k] = static_cast<float>(val[k]);
      const auto d = detail::mcl::prune_column(o.column.data(), len, p, o.scratch);
      o.chaos = std::max(o.chaos, d.chaos);
      const auto start = static_cast<offset_t>(o.col.size());
      o.rows.push_back(j);
      o.starts.push_back(start);
      double mass = 0;
      for (offset_t k = 0; k < len; ++k)
        if (static_cast<double>(o.column[k]) >= d.threshold) {
          o.col.push_back(col[k]);
          o.val.push_back(o.column[k]);
          mass += o.column[k];
        }
      const offset_t kept = static_cast<offset_t>(o.col.size()) - start;
      renormalize_inflate(o.val.data() + start, kept, mass, r);
      row_ptr[static_cast<std::size_t>(j) + 1] = kept;
      if (progress && ++o.since_report == progress_batch) {
        o.since_report = 0;
        const std::int64_t done =
            columns_done.fetch_add(progress_batch, std::memory_order_relaxed) + progress_batch;
        progress->set(static_cast<double>(done) / static_cast<double>(n));
      }
    } catch (const std::bad_alloc&) {
      o.out_of_memory = true;  // reported after the parallel region
    }
  };
  SpgemmStats stats;
  cpu::spgemm_rows<PlusTimes<double>>(m.view(), m.view(), threads, sink, &stats);
  *products = stats.intermediate_products;
  if (progress) progress->set(1.0);
  float chaos_max = 0;
  for (const auto& o : parts) {
    if (o.out_of_memory)
      throw SizeError("mcl: out of memory while keeping the pruned columns of iteration");
    chaos_max = std::max(chaos_max, o.chaos);
  }
  *chaos = chaos_max;
  for (vertex_t j = 0; j < n; ++j) row_ptr[j + 1] += row_ptr[j];
  std::vector<vertex_t> col_idx(static_cast<std::size_t>(row_ptr[n]));
  std::vector<float> values(col_idx.size());
  // Small iterands are copied by one thread: on a loaded machine a parallel
  // region can cost a scheduler time slice.
#pragma omp parallel for schedule(static, 1) \
    num_threads(threads) if (row_ptr[n] + n >= cpu_min_parallel_work)
  for (int t = 0; t < threads; ++t) {
    const ThreadColumns& o = parts[static_cast<std::size_t>(t)];
    for (std::size_t c = 0; c < o.rows.size(); ++c) {
      const offset_t from = o.starts[c];
      const offset_t to = c + 1 < o.rows.size() ? o.starts[c + 1] : offset_t(o.col.size());
      std::copy(o.col.begin() + from, o.col.begin() + to, col_idx.begin() + row_ptr[o.rows[c]]);
      std::copy(o.val.begin() + from, o.val.begin() + to, values.begin() + row_ptr[o.rows[c]]);
    }
  }
  return Csr<float>(n, n, std::move(row_ptr), std::move(col_idx), std::move(values));
}

MclResult mcl_cpu(Context& ctx, const Graph& g, const MclOptions& options) {
  const Stopwatch t0;
  MclResult result;
  const int threads = ctx.threads();
  const auto params = detail::mcl::PruneParams::from(options);

  Csr<float> m = detail::mcl::start_matrix(g, threads);
  result.phases.setup = t0.seconds();
  // mcl keeps the inflation as a double read from a float.
  double inflation = static_cast<float>(options.inflation);
  result.max_nnz = m.nnz();
  for (int it = 1; it <= options.max_iterations; ++it) {
    const Stopwatch ti;
    float chaos = 0;
    std::int64_t products = 0;
    if (options.progress) options.progress->start(it);
    m = iterate(m, params, inflation, threads, &chaos, &products, options.progress);
    // Expansion and pruning are one pass on the CPU: the time is booked as
    // expansion (MclPhaseSeconds says so).
    result.phases.expansion += ti.seconds();
    result.products += products;
    result.max_nnz = std::max<std::int64_t>(result.max_nnz, m.nnz());
    result.iterations = it;
    result.chaos = chaos;
    if (options.progress) options.progress->set_residual(chaos);
    result.iteration_seconds.push_back(ti.seconds());
    if (it >= detail::mcl::inflation_bump_after) inflation *= detail::mcl::inflation_bump;
    const bool converged = static_cast<double>(chaos) < options.chaos_limit;
    result.converged = converged;
    if (!detail::mcl::report_iteration(options, it, chaos, m.nnz(), t0.seconds())) break;
    if (converged) break;
  }
  const Stopwatch tr;
  result.cluster = detail::mcl::interpret(m, &result.n_clusters);
  result.phases.interpret = tr.seconds();
  result.seconds = t0.seconds();
  return result;
}

}  // namespace

MclResult mcl(Context& ctx, const Graph& g, const MclOptions& options) {
  detail::mcl::validate(options);
  if (ctx.device() == Device::cuda) {
    return detail::mcl_cuda(ctx, g, options);
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
