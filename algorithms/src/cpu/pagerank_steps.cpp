// PageRank's steps on the CPU (the driver is pagerank.cpp): each iteration
// is one pass over the rows of Aᵀ that computes the row's in-edge sum (the
// SpMV row kernel), r'(i), the L1 change, and the next x and dangling mass
// together. Reductions go through fixed parts whose partial sums are added
// in part order, so the same input and thread count give bit-identical
// ranks (OpenMP's reduction clause does not promise an order).
//
// The iterate is kept only as x = r ./ w, w(i) the out-weight of i (its
// out-degree unweighted), and as r(i) itself where w(i) is 0: a dangling
// vertex is no row's in-neighbour, so its x is never gathered. r(i) = x(i)
// w(i) is rebuilt where the pass needs it (the L1 change, the dangling mass)
// and once at the end. On an undirected unweighted graph w(i) is the length
// of row i of Aᵀ = A, which the pass reads anyway; elsewhere it is one array.
// A pass then streams 16 bytes a vertex besides the matrix (x(i) read, x'(i)
// written), where keeping r and 1/w took 32 (r read and written, 1/w read,
// x' written): on road graphs and meshes, whose rows hold 2-4 entries, the
// vertex streams are most of an iteration's bytes.
//
// Where x is past the caches and its gathers scattered (the passes that
// prefetch, cpu::prefetch_gathers) and the tolerance is loose enough, the
// rows gather x from a float copy of it, written beside x_next(i) by the
// same pass: half the cache lines for the random reads that are most of
// such an iteration (gapbs -u 20 on 2 threads, 50 ms an iteration against
// the GAP reference's 35 ms, which keeps its scores in float). Sums, the L1
// change, the iterate and the ranks stay double. Each x(j) read is then off
// by a relative 2^-24 at most, each y(i) too, so a pass moves the ranks by
// at most d 2^-24 in L1 and its fixed point by d / (1 - d) 2^-24 = 3.4e-7
// (d = 0.85). The ranks' distance from the fixed point is bounded by
// d / (1 - d) times the tolerance (Jacobi's bound): float gathers are taken
// only where the tolerance is at least 16 * 2^-24 (about 9.5e-7, so the
// default 1e-6), where they add at most 1/16 of that bound, unless
// PageRankOptions::gather asks for them (or for none).
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "../backend.hpp"
#include "cpu_backend.hpp"
#include "graphrun/algorithms/pagerank.hpp"
#include "graphrun/engine/csr_assembly.hpp"
#include "graphrun/engine/host_trace.hpp"
#include "graphrun/engine/prefault.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/engine/vertex_order.hpp"
#include "graphrun/kernels/cpu/partition.hpp"
#include "graphrun/kernels/cpu/spmv_csr.hpp"

namespace graphrun::detail {

namespace {

class CpuPageRankSteps final : public PageRankSteps {
 public:
  CpuPageRankSteps(const Context& ctx, const Graph& g, const PageRankSetup& setup,
                   PageRankResult& result)
      : o_(setup.options), threads_(ctx.threads()), n_(g.n_vertices()) {
    const Graph* graph = &g;
    std::vector<double> start;
    std::span<const double> start_values = o_.start;
    // automatic is none on the CPU: no ordering repays its renumbering
    // within a default run here (docs/performance.md), unless one is stored.
    const PageRankOrdering ordering =
        pagerank_ordering(g, o_.reorder, [] { return Reorder::none; });
    if (ordering.how != Reorder::none) {
      // Iterate on the renumbered graph (ids 0 .. n-1; only the matrix
      // matters here) and put the ranks back.
      const Stopwatch t_order;
      order_ = ordering.stored ? *ordering.stored
                               : vertex_order(g.adj().view(), ordering.how, !g.directed());
      renumbered_.emplace(permute(g.adj(), order_), std::vector<std::uint64_t>{}, g.directed(),
                          g.weighted());
      graph = &*renumbered_;
      if (!o_.start.empty()) {
        start = gather(o_.start, order_);
        start_values = start;
      }
      result.reorder = ordering.how;
      result.reorder_stored = ordering.stored != nullptr;
      result.reorder_seconds = t_order.seconds();
    }
    prepare(*graph, setup.weighted, setup.start_scale, start_values);
    result.float_gathers = float_gathers_;
    trace_.step("set up");
  }

  int max_batch() const noexcept override { return 1; }

  void iterate(int first, std::span<double> residuals) override {
    for (std::size_t i = 0; i < residuals.size(); ++i) {
      if (i > 0 && o_.progress) o_.progress->start(first + static_cast<int>(i));
      residuals[i] = step();
      trace_.step(omega_ != 0.0 ? "iteration (chebyshev)" : "iteration");
      if (residuals[i] < o_.tol) break;  // the driver reads no further
    }
  }

  std::vector<double> ranks(int) override {
    // After an accelerated step x holds x_k+1 = ω (y - x_k-1) + x_k-1 and
    // x_next x_k-1: the ranks are y, the Jacobi step whose L1 change met the
    // tolerance, so that their distance to the fixed point is bounded as
    // Jacobi's is (d / (1 - d) times that change). x_k+1 carries no such
    // bound: on Cornell5 (tol 1e-6) it was 2.4e-6 from the fixed point, y 1.3e-6.
    // r = x .* w (y .* w after an accelerated step), into the one vector of
    // the run made with std::vector's serial fill: the iteration's own are
    // left uninitialized and first written in parallel (vector_of).
    std::vector<double> r(static_cast<std::size_t>(n_));
    if (degree_weights_)
      finish<true>(r.data());
    else
      finish<false>(r.data());
    if (order_.empty()) return r;
    return scatter(std::span<const double>(r), order_);
  }

 private:
  // A vector of n, uninitialized (every element is written before it is
  // read), its pages faulted in on every core (prefault.hpp). std::vector's
  // serial fill of x, x_next, x_prev and their float copies was most of the
  // set-up: gapbs -u 20, 2 threads, 3.5 of 6.4 ms, and it does not shrink
  // with more threads.
  template <class T>
  std::unique_ptr<T[]> vector_of() const {
    auto v = detail::scratch<T>(static_cast<std::size_t>(n_));
    prefault_range(v.get(), static_cast<std::size_t>(n_) * sizeof(T));
    return v;
  }

  // w(i), the out-weight of i; 0 for a dangling vertex.
  template <bool DegreeWeights>
  double out_weight(vertex_t i) const {
    if constexpr (DegreeWeights)
      return static_cast<double>(at_.row_ptr[i + 1] - at_.row_ptr[i]);
    else
      return outw_[i];
  }

  template <bool DegreeWeights>
  void finish(double* r) {
    const double inv_omega = omega_ != 0.0 ? 1.0 / omega_ : 0.0;
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (vertex_t i = 0; i < n_; ++i) {
      const double w = out_weight<DegreeWeights>(i);
      const double xi = omega_ != 0.0 ? x_next_[i] + (x_[i] - x_next_[i]) * inv_omega : x_[i];
      r[i] = w != 0.0 ? xi * w : xi;
    }
  }

  void prepare(const Graph& g, bool weighted, double start_scale, std::span<const double> start) {
    const double inv_n = 1.0 / static_cast<double>(n_);
    // In-edges: row i of Aᵀ; a pattern view when weights are not used.
    at_ = g.transpose().view();
    if (!weighted) at_.values = nullptr;
    // w(i) from Aᵀ's row lengths where A = Aᵀ and edges count 1 (see the
    // top); else the out-weights, summed once, each row serially.
    degree_weights_ = !g.directed() && !weighted;
    if (!degree_weights_) {
      const CsrView<double> a = g.adj().view();
      outw_ = vector_of<double>();
#pragma omp parallel for num_threads(threads_) schedule(static)
      for (vertex_t j = 0; j < n_; ++j) {
        double w = 0.0;
        if (weighted) {
          for (offset_t k = a.row_ptr[j]; k < a.row_ptr[j + 1]; ++k) w += a.values[k];
        } else {
          w = static_cast<double>(a.row_ptr[j + 1] - a.row_ptr[j]);
        }
        outw_[j] = w;
      }
    }

    // The gather prefetched where x is past the caches and scattered
    // (cpu::prefetch_gathers; the same sums, the same bits).
    prefetch_ = cpu::prefetch_gathers(at_, static_cast<std::size_t>(n_) * sizeof(double), threads_);
    // The Gauss–Seidel sweep reads fresh ranks in double (float with it is
    // refused before this).
    float_gathers_ = o_.method != PageRankMethod::gauss_seidel && gathers_in_float(o_, prefetch_);

    // x for the current iterate, x_next for the one being built: rows read
    // x through Aᵀ's columns while writing their own x_next(i).
    x_ = vector_of<double>();
    x_next_ = vector_of<double>();
    if (o_.method == PageRankMethod::chebyshev) {
      // Zero: the first accelerated pass (ω = 1) reads it, ω (y - 0) + 0 = y.
      x_prev_ = vector_of<double>();
      double* const prev = x_prev_.get();
#pragma omp parallel for num_threads(threads_) schedule(static)
      for (vertex_t i = 0; i < n_; ++i) prev[i] = 0.0;
    }
    if (float_gathers_) {
      xf_ = vector_of<float>();
      xf_next_ = vector_of<float>();
    }

    // Parts of equal work (in-edges + rows), a few per thread handed out
    // dynamically; each part's partial sums land in its own slot and are
    // added in part order, so the ranks are bit-identical run to run for a
    // given thread count.
    // Gauss–Seidel: a part per thread, as long as possible, since a part
    // reads fresh ranks only from its own rows.
    const offset_t work = at_.nnz + n_;
    const bool gauss_seidel = o_.method == PageRankMethod::gauss_seidel;
    parts_ = threads_ <= 1 || work < cpu_min_parallel_work
                 ? 1
                 : static_cast<int>(std::min<offset_t>(offset_t{threads_} * (gauss_seidel ? 1 : 8),
                                                       std::max<offset_t>(1, work / 4096)));
    part_begin_.resize(static_cast<std::size_t>(parts_) + 1);
    for (int p = 0; p <= parts_; ++p)
      part_begin_[p] = cpu::partition_begin(at_.row_ptr, n_, parts_, p);
    part_err_.resize(parts_);
    part_dangling_.resize(parts_);

    // The starting x and dangling mass, by the parts (their sums in order).
    const auto start_part = [&]<bool DegreeWeights>(int p) {
      double dang = 0.0;
      for (vertex_t j = part_begin_[p]; j < part_begin_[p + 1]; ++j) {
        const double r =
            start_scale > 0.0 ? start[static_cast<std::size_t>(j)] * start_scale : inv_n;
        const double w = out_weight<DegreeWeights>(j);
        x_[j] = w != 0.0 ? r / w : r;
        if (float_gathers_) xf_[j] = static_cast<float>(x_[j]);
        if (w == 0.0) dang += r;
      }
      part_dangling_[p] = dang;
    };
#pragma omp parallel for num_threads(threads_) schedule(static, 1) if (parts_ > 1)
    for (int p = 0; p < parts_; ++p) {
      if (degree_weights_)
        start_part.template operator()<true>(p);
      else
        start_part.template operator()<false>(p);
    }
    dangling_ = 0.0;
    for (int p = 0; p < parts_; ++p) dangling_ += part_dangling_[p];
    // One pass per iteration: the in-edge sum of row i (the SpMV's row),
    // r'(i), its L1 change, and the next x(i) and dangling mass, so y is
    // never written and re-read and each iteration forks once.
  }

  // One iteration; returns its L1 change.
  double step() {
    parts_done_.store(0, std::memory_order_relaxed);
    const double d = o_.damping;
    const double base = (d * dangling_ + 1.0 - d) / static_cast<double>(n_);
    const bool pattern = at_.values == nullptr;
    if (o_.method == PageRankMethod::chebyshev) {
      // Jacobi steps (ω = 1) while the L1 change falls faster than the
      // Chebyshev rate d / (1 + √(1 - d²)) an iteration: on an expander
      // (R-MAT, uniform random) the error's modes are far inside [-d, d]
      // and Jacobi already beats a recurrence made for the whole interval
      // (gapbs -u 20: 10 iterations, 22 with it from the start). Then ω_1 =
      // 1, ω_2 = 1 / (1 - d²/2), ω_k+1 = 1 / (1 - d² ω_k / 4), tending to
      // 2 / (1 + √(1 - d²)). A graph with more than one component has an
      // error mode at exactly d (its components' shares), so there the
      // switch comes after a few iterations.
      const double rho2 = d * d;
      const double chebyshev_rate = d / (1.0 + std::sqrt(1.0 - rho2));
      if (omega_ != 0.0)
        omega_ = omega_ == 1.0 ? 1.0 / (1.0 - rho2 / 2.0) : 1.0 / (1.0 - rho2 * omega_ / 4.0);
      else if (last_err_ > 0.0 && before_last_err_ > 0.0 &&
               last_err_ > chebyshev_rate * before_last_err_)
        omega_ = 1.0;
    }
    if (o_.method == PageRankMethod::gauss_seidel)
      dispatch<Kind::sweep>(base, pattern);
    else if (omega_ != 0.0)
      dispatch<Kind::chebyshev>(base, pattern);
    else
      dispatch<Kind::jacobi>(base, pattern);
    double err = 0.0;
    dangling_ = 0.0;
    for (int p = 0; p < parts_; ++p) {
      err += part_err_[p];
      dangling_ += part_dangling_[p];
    }
    if (omega_ != 0.0) {
      // (x_k-1, x_k, x_k+1) -> (x_k, x_k+1, free)
      x_prev_.swap(x_);
      x_.swap(x_next_);
    } else {
      x_.swap(x_next_);
    }
    xf_.swap(xf_next_);  // only x's float copy is gathered: no x_prev one
    before_last_err_ = last_err_;
    last_err_ = err;
    return err;
  }

  // Part p's rows: the Jacobi step y(i) = d in_sum(i) + base and its L1
  // change |y(i) - r(i)|, the next iterate (y(i); with Chebyshev, in x's
  // scale, ω (y(i) / w(i) - x_prev(i)) + x_prev(i), x and x_prev read only,
  // so that the three rotate) into x_next(i), and the dangling mass, the
  // part's sums in its own slots; with FloatCopy, x_next(i) also into
  // xf_next(i) for the next pass's gathers.
  template <bool Chebyshev, bool DegreeWeights, bool FloatCopy = false, class InSum>
  void update_part(int p, double base, InSum in_sum) {
    const double d = o_.damping;
    const double omega = omega_;
    double err = 0.0, dang = 0.0;
    for (vertex_t i = part_begin_[p]; i < part_begin_[p + 1]; ++i) {
      const double w = out_weight<DegreeWeights>(i);
      const double scale = w != 0.0 ? w : 1.0;  // r(i) = x(i) scale
      // 1 / scale apart from the row's sum, off the path from the sum to
      // x_next(i): a Gauss–Seidel sweep's next rows may read x_next(i), and
      // with yi / scale the division's latency was on that path (the sweep
      // 4-6% slower on web-NotreDame and luxembourg_osm).
      const double inv_scale = 1.0 / scale;
      const double yi = d * in_sum(i) + base;
      err += std::abs(yi - x_[i] * scale);
      double xi = yi * inv_scale;
      if constexpr (Chebyshev) xi = omega * (xi - x_prev_[i]) + x_prev_[i];
      x_next_[i] = xi;
      if constexpr (FloatCopy) xf_next_[i] = static_cast<float>(xi);
      if (w == 0.0) dang += xi;
    }
    part_err_[p] = err;
    part_dangling_[p] = dang;
    if (o_.progress)
      o_.progress->set((parts_done_.fetch_add(1, std::memory_order_relaxed) + 1) /
                       static_cast<double>(parts_));
  }

  enum class Kind { jacobi, chebyshev, sweep };

  template <Kind K>
  void dispatch(double base, bool pattern) {
    if (pattern && degree_weights_)
      run<K, true, true>(base);
    else if (pattern)
      run<K, true, false>(base);
    else
      run<K, false, false>(base);  // weighted: w from outw_
  }

  template <Kind K, bool Pattern, bool DegreeWeights>
  void run(double base) {
    if constexpr (K == Kind::sweep)
      sweep<Pattern, DegreeWeights>(base);
    else
      pass<K == Kind::chebyshev, Pattern, DegreeWeights>(base);
  }

  template <bool Chebyshev, bool Pattern, bool DegreeWeights>
  void pass(double base) {
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 1) if (parts_ > 1)
    for (int p = 0; p < parts_; ++p) {
      if (float_gathers_)
        update_part<Chebyshev, DegreeWeights, true>(p, base, [this](vertex_t i) {
          return cpu::detail::spmv_row<PlusTimes<double>, Pattern, double, true, float>(at_, i,
                                                                                        xf_.get());
        });
      else if (prefetch_)
        update_part<Chebyshev, DegreeWeights>(p, base, [this](vertex_t i) {
          return cpu::detail::spmv_row<PlusTimes<double>, Pattern, double, true>(at_, i, x_.get());
        });
      else
        update_part<Chebyshev, DegreeWeights>(p, base, [this](vertex_t i) {
          return cpu::detail::spmv_row<PlusTimes<double>, Pattern, double>(at_, i, x_.get());
        });
    }
  }

  // The Gauss–Seidel sweep: part p's rows in order, reading x_next for the
  // in-neighbours j of its own rows that come before i (already updated in
  // this sweep) and x for the rest (the sweep before). Which value a row
  // reads depends only on the parts, never on the schedule.
  template <bool Pattern, bool DegreeWeights>
  void sweep(double base) {
#pragma omp parallel for num_threads(threads_) schedule(static, 1) if (parts_ > 1)
    for (int p = 0; p < parts_; ++p) {
      const vertex_t lo = part_begin_[p];
      const auto fresh = reinterpret_cast<std::uintptr_t>(x_next_.get());
      const auto old = reinterpret_cast<std::uintptr_t>(x_.get());
      update_part<false, DegreeWeights>(p, base, [this, lo, fresh, old](vertex_t i) {
        // lo <= j < i as one unsigned compare, and the array picked by
        // masking its address rather than by a branch (which GCC emits for
        // a ?: of the two pointers): on a web graph an in-neighbour is in
        // the block or not at random, and the branch missed so often that
        // the sweep ran at 0.79 ms an iteration against the Jacobi pass's
        // 0.33 (web-NotreDame, 16 threads).
        const auto before_i = static_cast<std::uint32_t>(i - lo);
        double sum = 0.0;
        for (offset_t k = at_.row_ptr[i]; k < at_.row_ptr[i + 1]; ++k) {
          const vertex_t j = at_.col_idx[k];
          const std::uintptr_t take_fresh =
              std::uintptr_t{0} - (static_cast<std::uint32_t>(j - lo) < before_i);
          const double xj = reinterpret_cast<const double*>(old ^ ((fresh ^ old) & take_fresh))[j];
          sum += Pattern ? xj : at_.values[k] * xj;
        }
        return sum;
      });
    }
  }

  // GRAPHRUN_TRACE: the set-up, then every iteration. First, so that its
  // clock starts before anything is made.
  HostTrace trace_{"pagerank"};
  const PageRankOptions& o_;
  int threads_;
  vertex_t n_;
  std::vector<vertex_t> order_;  // order_[new] = input vertex; empty: none
  std::optional<Graph> renumbered_;
  CsrView<double> at_{};
  // w where it is not Aᵀ's row lengths (degree_weights_); the iterate as x
  // (see the top), the next one, and for Chebyshev the one before.
  bool degree_weights_ = false;
  bool prefetch_ = false;       // the pass prefetches its gathers (cpu::prefetch_gathers)
  bool float_gathers_ = false;  // and gathers them from xf_ (see the top)
  std::unique_ptr<double[]> outw_, x_, x_next_, x_prev_;
  std::unique_ptr<float[]> xf_, xf_next_;  // x and x_next in float, with float_gathers_
  // Chebyshev: the ω of the step under way or last taken; 0 for a Jacobi
  // step (and always for the other methods), so the recurrence has started
  // exactly when it is not 0.
  double omega_ = 0.0;
  double last_err_ = 0.0, before_last_err_ = 0.0;  // the last two L1 changes
  double dangling_ = 0.0;
  int parts_ = 1;
  std::vector<vertex_t> part_begin_;
  std::vector<double> part_err_, part_dangling_;
  std::atomic<int> parts_done_{0};  // for options.progress
};

}  // namespace

std::unique_ptr<PageRankSteps> CpuSteps::pagerank(Context& ctx, const Graph& g,
                                                  const PageRankSetup& setup,
                                                  PageRankResult& result) {
  return std::make_unique<CpuPageRankSteps>(ctx, g, setup, result);
}

}  // namespace graphrun::detail
