// Markov clustering's steps on the CPU (the driver is mcl.cpp): expansion
// by graphrun's hash SpGEMM, whose rows (mcl's columns) are pruned,
// renormalized and inflated as each comes out of the numeric phase, so that
// M·M is never stored and no symbolic phase runs (cpu::spgemm_rows): mcl,
// too, prunes each column as soon as it has expanded it (src/mcl/proc.c and
// expand.c).
//
// Expansion runs as PlusTimes<double> over the float iterand: products and
// sums in double, rounded to float once, which is what mcl does for the
// columns it expands sparsely. (For columns it expands into a dense vector
// mcl rounds each product to float first; the difference is in the last
// bit of a float.) Columns are independent and each is computed by one
// thread in a fixed order, so the result does not depend on the thread
// count, as mcl's does not depend on -te.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <new>

#include "../mcl_parts.hpp"
#include "cpu_backend.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/kernels/cpu/spgemm.hpp"

namespace graphrun::detail {

namespace {

// mclvScale then mclvInflate on the kept entries of a column: divide by the
// kept mass, raise to the power r, divide by the new sum; each step a float
// rounding of a double quotient or power, as mcl.
void renormalize_inflate(float* v, offset_t n, double mass, double r) {
  double powsum = 0;
  // The square of a float is exact in double (48 significant bits), so
  // x * x is the value pow(x, 2.0) returns, without the call (6% of a
  // one-thread run at mcl's default -I 2).
  const bool square = r == 2.0;
  for (offset_t k = 0; k < n; ++k) {
    float x = v[k];
    if (mass != 0) x = static_cast<float>(static_cast<double>(x) / mass);
    const auto xd = static_cast<double>(x);
    x = static_cast<float>(square ? xd * xd : std::pow(xd, r));
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
Csr<float> iterate(const Csr<float>& m, const mcl::PruneParams& p, double r, int threads,
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
      const auto d = mcl::prune_column(o.column.data(), len, p, o.scratch);
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

class CpuMclSteps final : public MclSteps {
 public:
  CpuMclSteps(const Context& ctx, const Graph& g, const MclOptions& options)
      : threads_(ctx.threads()),
        params_(mcl::PruneParams::from(options)),
        m_(mcl::start_matrix(g, threads_)) {}

  std::int64_t nnz() const override { return m_.nnz(); }

  MclStep iterate(double inflation, StepProgress* progress) override {
    const Stopwatch t;
    MclStep s;
    m_ = graphrun::detail::iterate(m_, params_, inflation, threads_, &s.chaos, &s.products,
                                   progress);
    // Expansion and pruning are one pass here: all of it is expansion.
    s.expansion_seconds = t.seconds();
    s.nnz = m_.nnz();
    return s;
  }

  Csr<float> limit() override { return std::move(m_); }

 private:
  int threads_;
  mcl::PruneParams params_;
  Csr<float> m_;
};

}  // namespace

std::unique_ptr<MclSteps> CpuSteps::mcl(Context& ctx, const Graph& g, const MclOptions& options) {
  return std::make_unique<CpuMclSteps>(ctx, g, options);
}

}  // namespace graphrun::detail
