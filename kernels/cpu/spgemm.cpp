// The dispatch of the CPU SpGEMM (see cpu/spgemm.hpp for the phases): the
// plan (spgemm_plan.hpp: IP and kind per row, tasks, table sizes), the
// per-thread tables, the OpenMP regions over tasks, C's row pointers and
// its allocation. Each row is handed to the agent of its kind:
//
//   copy   C(i,:) = A(i,k)·B(k,:), here (no accumulator)
//   hash   spgemm_row_hash.hpp    an open-addressing table
//   dense  spgemm_row_dense.hpp   a bitmap and dense accumulators
//          spgemm_row_strip.hpp   spgemm_rows' long dense rows, B in strips
//
// The agents are the hot loops; the dispatch decides, allocates and
// schedules, and computes no entry of C itself but the copies.
#include "graphrun/kernels/cpu/spgemm.hpp"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <new>
#include <string>
#include <vector>

#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/kernels/spgemm_estimate.hpp"
#include "spgemm_plan.hpp"
#include "spgemm_row_common.hpp"
#include "spgemm_row_dense.hpp"
#include "spgemm_row_hash.hpp"
#include "spgemm_row_strip.hpp"

namespace graphrun::cpu {

namespace spgemm_detail {
namespace {

template <class S, class T>
class SpgemmKernel : RowOperands<S, T> {
 public:
  using V = typename S::value_type;

  SpgemmKernel(const CsrView<T>& a, const CsrView<T>& b, int threads)
      : RowOperands<S, T>(a, b), threads_(threads), hash_(a, b), dense_(a, b), strips_(a, b) {}

  // spgemm_rows: B's strips for its long dense rows, where they pay.
  void build_strips(Plan& p) const { strips_.build(p, threads_); }

  // Phase 2: nnz of every row of C, written to row_ptr[i + 1].
  void symbolic(const Plan& p, std::vector<Workspace<V>>& ws, offset_t* row_ptr) const {
    for_each_row(p, ws,
                 [&](int, vertex_t i, Workspace<V>& w) { row_ptr[i + 1] = symbolic_row(p, i, w); });
  }

  // Phase 3: C's columns (sorted) and values, rows in place.
  void numeric(const Plan& p, std::vector<Workspace<V>>& ws, const offset_t* row_ptr,
               vertex_t* col_idx, V* values) const {
    for_each_row(p, ws, [&](int, vertex_t i, Workspace<V>& w) {
      numeric_row(p, i, w, col_idx + row_ptr[i], values + row_ptr[i], row_ptr[i + 1] - row_ptr[i]);
    });
  }

  // The numeric phase alone, each row into the thread's buffers and then to
  // `sink` (spgemm_rows). The rows that go through B's strips are gathered
  // into batches, each swept strip by strip (StripRows::numeric_batch), and
  // handed to `sink` when their batch is done.
  void stream(const Plan& p, std::vector<Workspace<V>>& ws, offset_t longest,
              const SpgemmRowSink<V>& sink) const {
    // One more than the longest row: the strip path's read-out writes a slot
    // past the row's last entry before it knows it is the last. Each thread
    // sizes its own on its first row, so the pages are its own.
    std::vector<RowBuffers> bufs(ws.size());
    const offset_t batch_entries = std::max<offset_t>(
        longest + 1, SpgemmTuning::strip_batch_bytes / offset_t{sizeof(vertex_t) + sizeof(V)});
    for_each_task(p, ws, [&](int t, const Task& task, Workspace<V>& w) {
      RowBuffers& b = bufs[t];
      if (b.col.empty()) {
        b.col.resize(static_cast<std::size_t>(longest) + 1);
        b.val.resize(static_cast<std::size_t>(longest) + 1);
      }
      for (vertex_t i = task.begin; i < task.end; ++i) {
        if (!uses_strips(p, i)) {
          const offset_t len = numeric_row(p, i, w, b.col.data(), b.val.data(), -1);
          sink(t, i, b.col.data(), b.val.data(), len);
          continue;
        }
        const offset_t room = std::min<offset_t>(p.ip[i], b_.n_cols) + 1;
        if (b.batch_used + room > batch_entries) flush_batch(p, w, b, t, sink);
        if (b.batch_col.empty()) {
          b.batch_col.resize(static_cast<std::size_t>(batch_entries));
          b.batch_val.resize(static_cast<std::size_t>(batch_entries));
        }
        b.rows.push_back(i);
        b.starts.push_back(b.batch_used);
        b.batch_used += room;
      }
      flush_batch(p, w, b, t, sink);
    });
  }

 private:
  // A thread's output buffers: one row's, and a batch of strip rows'.
  struct RowBuffers {
    std::vector<vertex_t> col;
    std::vector<V> val;
    std::vector<vertex_t> rows;    // the batch's rows, in order
    std::vector<offset_t> starts;  // where each begins in batch_col/batch_val
    offset_t batch_used = 0;
    std::vector<vertex_t> batch_col;
    std::vector<V> batch_val;
    std::vector<offset_t> len;  // per row of the batch, from numeric_batch
  };

  bool uses_strips(const Plan& p, vertex_t i) const {
    if constexpr (StripRows<S, T>::capable)
      return p.kind[i] == SpgemmRowKind::dense && p.strips.count > 0 && p.ip[i] >= p.strips.min_ip;
    return false;
  }

  // The batch's rows computed strip by strip, then each to `sink`. (Only
  // the strip path's semiring and type ever fill a batch.)
  void flush_batch(const Plan& p, Workspace<V>& w, RowBuffers& b, int t,
                   const SpgemmRowSink<V>& sink) const {
    const int n = static_cast<int>(b.rows.size());
    if (n == 0) return;
    if constexpr (StripRows<S, T>::capable) {
      b.len.resize(b.rows.size());
      strips_.numeric_batch(p.strips, w, b.rows.data(), n, b.starts.data(), b.batch_col.data(),
                            b.batch_val.data(), b.len.data());
      for (int r = 0; r < n; ++r)
        sink(t, b.rows[r], b.batch_col.data() + b.starts[r], b.batch_val.data() + b.starts[r],
             b.len[r]);
    } else {
      (void)p, (void)w, (void)t, (void)sink;
    }
    b.rows.clear();
    b.starts.clear();
    b.batch_used = 0;
  }

  // f(thread, task, the thread's workspace) for every task of the plan,
  // handed out one at a time.
  template <class TaskFn>
  void for_each_task(const Plan& p, std::vector<Workspace<V>>& ws, TaskFn&& f) const {
    const int n_tasks = static_cast<int>(p.tasks.size());
#pragma omp parallel num_threads(threads_) if (p.parallel)
    {
      const int t = omp_get_thread_num();
      Workspace<V>& w = ws[t];
#pragma omp for schedule(dynamic, 1)
      for (int task = 0; task < n_tasks; ++task) f(t, p.tasks[task], w);
    }
  }

  using Operands = RowOperands<S, T>;
  using Operands::a_, Operands::b_, Operands::a_entry, Operands::b_entry;

  // f(thread, i, the thread's workspace) for every row of the plan's tasks:
  // tasks handed out one at a time, a task's rows in order.
  template <class RowFn>
  void for_each_row(const Plan& p, std::vector<Workspace<V>>& ws, RowFn&& f) const {
    for_each_task(p, ws, [&](int t, const Task& task, Workspace<V>& w) {
      for (vertex_t i = task.begin; i < task.end; ++i) f(t, i, w);
    });
  }

  // nnz(C(i,:)), from the agent of the row's kind.
  offset_t symbolic_row(const Plan& p, vertex_t i, Workspace<V>& w) const {
    const offset_t a_begin = a_.row_ptr[i], a_end = a_.row_ptr[i + 1];
    switch (p.kind[i]) {
      case SpgemmRowKind::empty:
        return 0;
      case SpgemmRowKind::copy: {
        const vertex_t k = a_.col_idx[a_begin];
        return b_.row_ptr[k + 1] - b_.row_ptr[k];
      }
      case SpgemmRowKind::hash:
        return hash_.symbolic(p, i, w, a_begin, a_end);
      case SpgemmRowKind::dense:
        return dense_.symbolic(p, i, w, a_begin, a_end);
    }
    return 0;
  }

  // Row i of C into out_col/out_val; returns its length. `len` is that
  // length when the symbolic phase knows it, or -1 (spgemm_rows): the row
  // kernels then count the columns as they insert them.
  offset_t numeric_row(const Plan& p, vertex_t i, Workspace<V>& w, vertex_t* out_col, V* out_val,
                       offset_t len) const {
    const offset_t a_begin = a_.row_ptr[i], a_end = a_.row_ptr[i + 1];
    switch (p.kind[i]) {
      case SpgemmRowKind::empty:
        return 0;
      case SpgemmRowKind::copy: {
        const vertex_t k = a_.col_idx[a_begin];
        const V aik = a_entry(a_begin);
        const offset_t b0 = b_.row_ptr[k];
        len = b_.row_ptr[k + 1] - b0;
        for (offset_t t = 0; t < len; ++t) {
          out_col[t] = b_.col_idx[b0 + t];
          out_val[t] = S::mul(aik, b_entry(b0 + t));
        }
        return len;
      }
      case SpgemmRowKind::hash:
        return hash_.numeric(p, i, w, out_col, out_val, len, a_begin, a_end);
      case SpgemmRowKind::dense:
        // (The rows that use B's strips never come here: stream() batches them.)
        if (b_.n_cols / 64 + 1 <= p.ip[i])
          return dense_.numeric_many(w, out_col, out_val, a_begin, a_end);
        return dense_.numeric(w, out_col, out_val, len, a_begin, a_end);
    }
    return 0;
  }

  int threads_;
  HashRows<S, T> hash_;
  DenseRows<S, T> dense_;
  StripRows<S, T> strips_;
};

// A vector of n entries, or SizeError saying what did not fit.
template <class X>
std::vector<X> allocate(offset_t n, const char* what) {
  try {
    return std::vector<X>(static_cast<std::size_t>(n));
  } catch (const std::bad_alloc&) {
    throw SizeError(std::string("spgemm: cannot allocate ") + what + " (" + std::to_string(n) +
                    " entries of " + std::to_string(sizeof(X)) + " bytes)");
  } catch (const std::length_error&) {
    throw SizeError(std::string("spgemm: ") + what + " is too large (" + std::to_string(n) +
                    " entries)");
  }
}

// Refuses (SizeError) a C larger than the machine's physical memory before
// allocating it: with overcommit the allocation itself could succeed and the
// process be killed while C is filled, with no message.
void check_fits_in_memory(offset_t nnz, std::size_t bytes_per_entry) {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return;  // unknown: let the allocation decide
  const double bytes = static_cast<double>(nnz) * static_cast<double>(bytes_per_entry);
  const double memory = static_cast<double>(pages) * static_cast<double>(page);
  if (bytes > memory)
    throw SizeError("spgemm: C has " + std::to_string(nnz) + " entries (" +
                    std::to_string(static_cast<long long>(bytes / 1e9)) +
                    " GB), more than this machine's memory (" +
                    std::to_string(static_cast<long long>(memory / 1e9)) + " GB)");
}

// One hash table (and dense row, where a kind needs one) per thread, sized
// by the plan; SizeError naming the sizes where they cannot be allocated.
template <class V>
std::vector<Workspace<V>> thread_workspaces(const Plan& plan, vertex_t n_cols, int threads,
                                            V zero) {
  try {
    return make_workspaces(workspace_shape(plan, n_cols), threads, zero);
  } catch (const std::bad_alloc&) {
    throw SizeError("spgemm: cannot allocate the per-thread tables (" +
                    std::to_string(plan.max_hash_slots) + " hash slots, " +
                    std::to_string(plan.any_dense ? n_cols : 0) + " dense columns per thread)");
  }
}

// Phase 1 of both entry points, timed: the shapes checked, the kernel over
// (a, b) and its plan, with B's strips where `strips` (spgemm_rows).
template <class S, class T>
struct Planned {
  Planned(const CsrView<T>& a, const CsrView<T>& b, int threads_asked, bool strips)
      : threads(checked_threads(a, b, threads_asked)), kernel(a, b, threads) {
    plan = analyse(spgemm_operand(a), spgemm_operand(b), threads);
    if (strips) kernel.build_strips(plan);
    analysis_ms = t0.ms();
  }

  static int checked_threads(const CsrView<T>& a, const CsrView<T>& b, int asked) {
    check_spgemm_shapes(a.n_rows, a.n_cols, b.n_rows, b.n_cols);
    return std::max(1, asked);
  }

  Stopwatch t0;
  int threads;
  SpgemmKernel<S, T> kernel;
  Plan plan;
  double analysis_ms = 0;
};

// What the plan tells the caller about a product.
void plan_stats(const Plan& plan, SpgemmStats& stats) {
  stats.intermediate_products = plan.total_ip;
  stats.max_row_products = plan.max_ip;
  for (int g = 0; g < 4; ++g) stats.rows_per_group[g] = plan.rows_per_kind[g];
  stats.tasks = static_cast<int>(plan.tasks.size());
}

}  // namespace
}  // namespace spgemm_detail

using spgemm_detail::allocate;
using spgemm_detail::check_fits_in_memory;
using spgemm_detail::Plan;
using spgemm_detail::plan_stats;
using spgemm_detail::Planned;
using spgemm_detail::SpgemmKernel;
using spgemm_detail::thread_workspaces;
using spgemm_detail::Workspace;
using spgemm_detail::workspace_shape;

template <class S, class T>
Csr<typename S::value_type> spgemm(const CsrView<T>& a, const CsrView<T>& b, int threads,
                                   SpgemmStats* stats) {
  using V = typename S::value_type;
  const Stopwatch t_start;
  const Planned<S, T> planned(a, b, threads, false);
  const SpgemmKernel<S, T>& kernel = planned.kernel;
  const Plan& plan = planned.plan;
  threads = planned.threads;

  Stopwatch t0;
  std::vector<Workspace<V>> ws = thread_workspaces<V>(plan, b.n_cols, threads, S::zero());
  std::vector<offset_t> row_ptr = allocate<offset_t>(offset_t{a.n_rows} + 1, "C's row pointers");
  kernel.symbolic(plan, ws, row_ptr.data());
  // Exclusive scan of the row lengths; nnz(C) <= Σ IP, already checked.
  for (vertex_t i = 0; i < a.n_rows; ++i) row_ptr[i + 1] += row_ptr[i];
  const double symbolic_ms = t0.ms();

  const offset_t nnz = row_ptr[a.n_rows];
  check_fits_in_memory(nnz, sizeof(vertex_t) + sizeof(V));
  t0.restart();
  std::vector<vertex_t> col_idx = allocate<vertex_t>(nnz, "C's column indices");
  std::vector<V> values = allocate<V>(nnz, "C's values");
  kernel.numeric(plan, ws, row_ptr.data(), col_idx.data(), values.data());
  const double numeric_ms = t0.ms();
  ws.clear();

  Csr<V> c(a.n_rows, b.n_cols, std::move(row_ptr), std::move(col_idx), std::move(values));
  if (stats) {
    plan_stats(plan, *stats);
    stats->nnz_c = nnz;
    stats->chunks = 1;
    stats->analysis_ms = planned.analysis_ms;
    stats->symbolic_ms = symbolic_ms;
    stats->numeric_ms = numeric_ms;
    stats->sort_ms = 0;  // inside numeric_ms (see the header)
    stats->total_ms = t_start.ms();
  }
  return c;
}

template <class S, class T>
void spgemm_rows(const CsrView<T>& a, const CsrView<T>& b, int threads,
                 const SpgemmRowSink<typename S::value_type>& sink, SpgemmStats* stats) {
  using V = typename S::value_type;
  const Stopwatch t_start;
  const Planned<S, T> planned(a, b, threads, true);
  const Plan& plan = planned.plan;
  // The longest row any thread may hold: min(IP, n_cols).
  offset_t longest = 0;
  for (const std::int64_t ip : plan.ip) longest = std::max<offset_t>(longest, ip);
  longest = std::min<offset_t>(longest, b.n_cols);
  const Stopwatch t0;
  std::vector<Workspace<V>> ws = thread_workspaces<V>(plan, b.n_cols, planned.threads, S::zero());
  planned.kernel.stream(plan, ws, longest, sink);
  if (stats) {
    *stats = SpgemmStats{};
    plan_stats(plan, *stats);
    stats->strip_rows = plan.strips.rows;
    stats->strips = plan.strips.count;
    stats->analysis_ms = planned.analysis_ms;
    stats->numeric_ms = t0.ms();
    stats->total_ms = t_start.ms();
  }
}

#define GRAPHRUN_SPGEMM_CPU_INSTANTIATE(S, T)                                                  \
  template Csr<typename S::value_type> spgemm<S, T>(const CsrView<T>&, const CsrView<T>&, int, \
                                                    SpgemmStats*);                             \
  template void spgemm_rows<S, T>(const CsrView<T>&, const CsrView<T>&, int,                   \
                                  const SpgemmRowSink<typename S::value_type>&, SpgemmStats*);
GRAPHRUN_SPGEMM_COMBOS(GRAPHRUN_SPGEMM_CPU_INSTANTIATE)
#undef GRAPHRUN_SPGEMM_CPU_INSTANTIATE

}  // namespace graphrun::cpu
