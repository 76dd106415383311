// Hash-based multi-phase SpGEMM on the CPU (see cpu/spgemm.hpp for the
// phases). The row kernels are the hot loops; the rest is planning: row
// kinds, tasks, workspace sizes, C's row pointers.
//
// Hash tables are open addressing with linear probing, keys are column ids
// (-1 = free), the slot is the upper bits of a Fibonacci (multiplicative)
// hash, so runs of neighbouring columns spread over the table. Tables are
// cleared after every row by refilling only the row's own slots.
#include "graphrun/kernels/cpu/spgemm.hpp"

#include <omp.h>
#include <unistd.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <new>
#include <numeric>
#include <type_traits>
#include <vector>

#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/kernels/semiring_traits.hpp"

namespace graphrun::cpu {

namespace {

// Slot of column j in a table of 2^(32 - shift) slots.
inline std::uint32_t hash_slot(vertex_t j, int shift) {
  return (static_cast<std::uint32_t>(j) * 0x9E3779B1u) >> shift;
}

inline int hash_shift(std::int64_t slots) {
  return 32 - std::countr_zero(static_cast<std::uint64_t>(slots));
}

// Sorts a row's columns: insertion sort for short rows (most rows of sparse
// products), where std::sort's set-up costs more than the sort.
inline void sort_columns(vertex_t* col, offset_t len) {
  if (len > 24) {
    std::sort(col, col + len);
    return;
  }
  for (offset_t t = 1; t < len; ++t) {
    const vertex_t x = col[t];
    offset_t u = t;
    for (; u > 0 && col[u - 1] > x; --u) col[u] = col[u - 1];
    col[u] = x;
  }
}

// Per-thread scratch, sized once per call before any row runs.
template <class V>
struct Workspace {
  std::vector<vertex_t> keys;  // hash table keys, -1 = free
  std::vector<V> vals;         // hash table values (numeric phase)
  std::vector<std::uint64_t>
      bits;            // dense: columns seen in this row (1 bit each), zero between rows
  std::vector<V> acc;  // dense: the running sum of column j, S::zero() between rows
};

struct Task {
  vertex_t begin, end;
  std::int64_t work;
};

// B cut into `count` vertical strips of `width` columns (the last may be
// narrower), for spgemm_rows' long dense rows (SpgemmTuning::strip_cols).
// Strip s is a CSR of B's rows restricted to columns [s * width, (s + 1) *
// width), with columns relative to s * width in 16 bits: row k of strip s
// is [row_ptr[s * (n_rows + 1) + k], row_ptr[s * (n_rows + 1) + k + 1]).
// Empty (count 0) when no row is expanded that way.
struct Strips {
  int count = 0;
  vertex_t width = 0;
  std::int64_t min_ip = 0;  // rows of kind dense with at least this IP use them
  std::int64_t rows = 0;    // how many rows that is
  std::vector<offset_t> row_ptr;
  std::vector<std::uint16_t> col;
  std::vector<float> val;
};

struct Plan {
  std::vector<std::int64_t> ip;     // IP(i)
  std::vector<SpgemmRowKind> kind;  // per row
  std::vector<Task> tasks;          // heaviest first
  std::int64_t total_ip = 0;
  std::int64_t max_ip = 0;
  std::int64_t rows_per_kind[4] = {0, 0, 0, 0};
  std::int64_t max_hash_slots = 0;  // the largest table any hash row needs
  bool any_dense = false;
  bool parallel = false;  // enough work to be worth a parallel region
  // B's rows as bitmaps (n_cols / 64 + 1 words each) when B is narrow and
  // its rows are long: the symbolic phase then ORs whole rows instead of
  // setting one bit per product. Empty when not worth it.
  std::vector<std::uint64_t> b_row_bits;
  Strips strips;  // spgemm_rows only (SpgemmKernel::build_strips)
};

template <class S, class T>
class SpgemmKernel {
 public:
  using V = typename S::value_type;
  using Tuning = SpgemmTuning;
  // The strip path reads rows out by their non-zero sums, which needs sums
  // that are zero only where there is no product: float entries multiplied
  // and added in double, all positive (a product of two positive floats is
  // a positive double: no underflow, no overflow).
  static constexpr bool strip_capable =
      std::is_same_v<S, PlusTimes<double>> && std::is_same_v<T, float>;

  SpgemmKernel(const CsrView<T>& a, const CsrView<T>& b, int threads)
      : a_(a), b_(b), threads_(threads) {}

  // Phase 1: IP per row, row kinds, tasks, workspace sizes.
  Plan analyse() const {
    Plan p;
    const vertex_t n = a_.n_rows;
    p.ip.resize(static_cast<std::size_t>(n));
    p.kind.resize(static_cast<std::size_t>(n));
    // Each IP(i) is at most nnz(A(i,:)) * n_rows(B) < 2^62: no overflow per
    // row. The total is summed with a check below.
    const bool parallel_analysis = threads_ > 1 && a_.nnz + a_.n_rows >= Tuning::min_parallel_work;
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 4096) if (parallel_analysis)
    for (vertex_t i = 0; i < n; ++i) {
      std::int64_t ip = 0;
      for (offset_t ka = a_.row_ptr[i]; ka < a_.row_ptr[i + 1]; ++ka) {
        const vertex_t k = a_.col_idx[ka];
        ip += b_.row_ptr[k + 1] - b_.row_ptr[k];
      }
      p.ip[i] = ip;
      p.kind[i] = kind_of(ip, a_.row_ptr[i + 1] - a_.row_ptr[i]);
    }
    // Serial pass: totals, workspace sizes and tasks (O(n), a small share of
    // the product).
    std::int64_t total_work = 0;
    for (vertex_t i = 0; i < n; ++i) {
      const std::int64_t ip = p.ip[i];
      p.total_ip = checked_add(p.total_ip, ip, "spgemm: intermediate products of A*B");
      p.max_ip = std::max(p.max_ip, ip);
      const auto kind = p.kind[i];
      ++p.rows_per_kind[static_cast<int>(kind)];
      if (kind == SpgemmRowKind::hash)
        p.max_hash_slots =
            std::max(p.max_hash_slots, spgemm_table_slots(std::min<std::int64_t>(ip, b_.n_cols)));
      if (kind == SpgemmRowKind::dense) p.any_dense = true;
      total_work = checked_add(total_work, row_work(p, i), "spgemm: work of A*B");
    }
    p.parallel = threads_ > 1 && total_work >= Tuning::min_parallel_work;
    const std::int64_t target = std::max<std::int64_t>(
        Tuning::min_task_work, total_work / (Tuning::tasks_per_thread * threads_));
    std::int64_t work = 0;
    vertex_t begin = 0;
    for (vertex_t i = 0; i < n; ++i) {
      work += row_work(p, i);
      if (work >= target || i + 1 == n) {
        p.tasks.push_back({begin, i + 1, work});
        begin = i + 1;
        work = 0;
      }
    }
    // Heaviest first, so that a task holding a huge row starts at once and
    // the small ones fill in around it (ties keep row order: determinism of
    // the schedule is not needed for the result, only for reproducible timings).
    std::stable_sort(p.tasks.begin(), p.tasks.end(),
                     [](const Task& x, const Task& y) { return x.work > y.work; });
    build_b_row_bits(p);
    return p;
  }

  // B's rows as bitmaps, when a row of B has on average at least
  // row_bits_min_fill entries per bitmap word (then ORing words beats setting
  // bits), and the bitmaps stay small (row_bits_max_bytes).
  void build_b_row_bits(Plan& p) const {
    const std::int64_t words = b_.n_cols / 64 + 1;
    const std::int64_t bytes = static_cast<std::int64_t>(b_.n_rows) * words * 8;
    if (!p.any_dense || b_.n_rows == 0 || bytes > Tuning::row_bits_max_bytes ||
        b_.nnz < Tuning::row_bits_min_fill * words * b_.n_rows)
      return;
    p.b_row_bits.assign(static_cast<std::size_t>(b_.n_rows * words), 0);
    for (vertex_t k = 0; k < b_.n_rows; ++k) {
      std::uint64_t* row = p.b_row_bits.data() + k * words;
      for (offset_t kb = b_.row_ptr[k]; kb < b_.row_ptr[k + 1]; ++kb)
        row[b_.col_idx[kb] >> 6] |= std::uint64_t{1} << (b_.col_idx[kb] & 63);
    }
  }

  // spgemm_rows: whether the long dense rows are expanded strip by strip
  // (SpgemmTuning::strip_cols), and if so B's strips, in p.strips. Only when
  // the rows that would use them have many products per entry of B (the
  // copy is two passes over B), B's rows are long enough to make runs of
  // some length in each strip, and every entry of A and B is positive. A
  // copy that does not fit in memory leaves the rows on the bitmap path.
  void build_strips(Plan& p) const {
    if constexpr (strip_capable) {
      if (!p.any_dense || b_.n_cols == 0 || b_.n_rows == 0) return;
      const std::int64_t count = (b_.n_cols + Tuning::strip_cols - 1) / Tuning::strip_cols;
      if (b_.nnz < Tuning::strip_min_row_entries * count * b_.n_rows) return;
      const std::int64_t min_ip = Tuning::strip_min_products_per_col * b_.n_cols;
      std::int64_t rows = 0, ip = 0;
      for (vertex_t i = 0; i < a_.n_rows; ++i)
        if (p.kind[i] == SpgemmRowKind::dense && p.ip[i] >= min_ip) {
          ++rows;
          ip += p.ip[i];
        }
      if (ip < Tuning::strip_min_products_per_entry * b_.nnz) return;
      if (!all_positive(a_, p.parallel) || !all_positive(b_, p.parallel)) return;
      Strips& s = p.strips;
      const vertex_t width = static_cast<vertex_t>((b_.n_cols + count - 1) / count);
      const vertex_t n = b_.n_rows;
      const std::size_t stride = static_cast<std::size_t>(n) + 1;
      try {
        s.row_ptr.assign(static_cast<std::size_t>(count) * stride, 0);
        s.col.resize(static_cast<std::size_t>(b_.nnz));
        s.val.resize(static_cast<std::size_t>(b_.nnz));
      } catch (const std::bad_alloc&) {
        p.strips = Strips{};
        return;
      }
      // Entries of row k in strip t go to row_ptr[t * stride + k + 1]; one
      // scan of the whole array then gives every strip's row pointers, each
      // strip starting where the one before it ends.
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 1024) if (p.parallel)
      for (vertex_t k = 0; k < n; ++k)
        for (offset_t kb = b_.row_ptr[k]; kb < b_.row_ptr[k + 1]; ++kb)
          ++s.row_ptr[static_cast<std::size_t>(b_.col_idx[kb] / width) * stride + k + 1];
      for (std::size_t x = 1; x < s.row_ptr.size(); ++x) s.row_ptr[x] += s.row_ptr[x - 1];
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 1024) if (p.parallel)
      for (vertex_t k = 0; k < n; ++k) {
        int t = -1;
        offset_t out = 0;
        for (offset_t kb = b_.row_ptr[k]; kb < b_.row_ptr[k + 1]; ++kb) {
          const vertex_t j = b_.col_idx[kb];
          if (j / width != t) {  // columns are sorted: strips come in order
            t = j / width;
            out = s.row_ptr[static_cast<std::size_t>(t) * stride + k];
          }
          s.col[out] = static_cast<std::uint16_t>(j - t * width);
          s.val[out] = static_cast<float>(b_.value(kb));
          ++out;
        }
      }
      s.count = static_cast<int>(count);
      s.width = width;
      s.min_ip = min_ip;
      s.rows = rows;
    } else {
      (void)p;
    }
  }

  // The per-thread tables (one Workspace per thread), allocated here, before
  // any parallel region, so that a failed allocation is an exception the
  // caller sees rather than a crash inside OpenMP.
  std::vector<Workspace<V>> workspaces(const Plan& p) const {
    std::vector<Workspace<V>> ws(static_cast<std::size_t>(threads_));
    for (Workspace<V>& w : ws) {
      w.keys.assign(static_cast<std::size_t>(p.max_hash_slots), vertex_t{-1});
      w.vals.resize(static_cast<std::size_t>(p.max_hash_slots));
      if (p.any_dense) {
        w.bits.assign(static_cast<std::size_t>(b_.n_cols) / 64 + 1, 0);
        w.acc.assign(static_cast<std::size_t>(b_.n_cols), S::zero());
      }
    }
    return ws;
  }

  // Phase 2: nnz of every row of C, written to row_ptr[i + 1].
  void symbolic(const Plan& p, std::vector<Workspace<V>>& ws, offset_t* row_ptr) const {
    const int n_tasks = static_cast<int>(p.tasks.size());
#pragma omp parallel num_threads(threads_) if (p.parallel)
    {
      Workspace<V>& w = ws[omp_get_thread_num()];
#pragma omp for schedule(dynamic, 1)
      for (int t = 0; t < n_tasks; ++t)
        for (vertex_t i = p.tasks[t].begin; i < p.tasks[t].end; ++i)
          row_ptr[i + 1] = symbolic_row(p, i, w);
    }
  }

  // Phase 3: C's columns (sorted) and values, rows in place.
  void numeric(const Plan& p, std::vector<Workspace<V>>& ws, const offset_t* row_ptr,
               vertex_t* col_idx, V* values) const {
    const int n_tasks = static_cast<int>(p.tasks.size());
#pragma omp parallel num_threads(threads_) if (p.parallel)
    {
      Workspace<V>& w = ws[omp_get_thread_num()];
#pragma omp for schedule(dynamic, 1)
      for (int t = 0; t < n_tasks; ++t)
        for (vertex_t i = p.tasks[t].begin; i < p.tasks[t].end; ++i)
          numeric_row(p, i, w, col_idx + row_ptr[i], values + row_ptr[i],
                      row_ptr[i + 1] - row_ptr[i]);
    }
  }

  // The numeric phase alone, each row into the thread's buffers and then to
  // `sink` (spgemm_rows).
  void stream(const Plan& p, std::vector<Workspace<V>>& ws, offset_t longest,
              const SpgemmRowSink<V>& sink) const {
    const int n_tasks = static_cast<int>(p.tasks.size());
#pragma omp parallel num_threads(threads_) if (p.parallel)
    {
      const int t = omp_get_thread_num();
      Workspace<V>& w = ws[t];
      // One more than the longest row: the strip path's read-out writes a
      // slot past the row's last entry before it knows it is the last.
      std::vector<vertex_t> col(static_cast<std::size_t>(longest) + 1);
      std::vector<V> val(static_cast<std::size_t>(longest) + 1);
#pragma omp for schedule(dynamic, 1)
      for (int task = 0; task < n_tasks; ++task)
        for (vertex_t i = p.tasks[task].begin; i < p.tasks[task].end; ++i) {
          const offset_t len = numeric_row(p, i, w, col.data(), val.data(), -1);
          sink(t, i, col.data(), val.data(), len);
        }
    }
  }

 private:
  SpgemmRowKind kind_of(std::int64_t ip, offset_t a_len) const {
    return spgemm_row_kind(ip, a_len, b_.n_cols);
  }

  std::int64_t row_work(const Plan& p, vertex_t i) const {
    return p.ip[i] + (a_.row_ptr[i + 1] - a_.row_ptr[i]) + 1;
  }

  // Every entry > 0 (a pattern's entries are 1): NaN, zeros and negatives fail.
  static bool all_positive(const CsrView<T>& m, bool parallel) {
    if (!m.values) return true;
    bool ok = true;
#pragma omp parallel for reduction(&& : ok) schedule(static) if (parallel)
    for (offset_t k = 0; k < m.nnz; ++k)
      ok = ok && m.values[k] > T(0) && std::isfinite(m.values[k]);
    return ok;
  }

  V a_entry(offset_t ka) const { return semiring_entry<S>(a_.value(ka)); }
  V b_entry(offset_t kb) const { return semiring_entry<S>(b_.value(kb)); }

  offset_t symbolic_row(const Plan& p, vertex_t i, Workspace<V>& w) const {
    const offset_t a_begin = a_.row_ptr[i], a_end = a_.row_ptr[i + 1];
    switch (p.kind[i]) {
      case SpgemmRowKind::empty:
        return 0;
      case SpgemmRowKind::copy: {
        const vertex_t k = a_.col_idx[a_begin];
        return b_.row_ptr[k + 1] - b_.row_ptr[k];
      }
      case SpgemmRowKind::hash: {
        const std::int64_t slots = spgemm_table_slots(std::min<std::int64_t>(p.ip[i], b_.n_cols));
        const int shift = hash_shift(slots);
        const std::uint32_t mask = static_cast<std::uint32_t>(slots - 1);
        vertex_t* keys = w.keys.data();
        offset_t count = 0;
        for (offset_t ka = a_begin; ka < a_end; ++ka) {
          const vertex_t k = a_.col_idx[ka];
          for (offset_t kb = b_.row_ptr[k]; kb < b_.row_ptr[k + 1]; ++kb) {
            const vertex_t j = b_.col_idx[kb];
            std::uint32_t h = hash_slot(j, shift);
            while (keys[h] != j) {
              if (keys[h] == -1) {
                keys[h] = j;
                ++count;
                break;
              }
              h = (h + 1) & mask;
            }
          }
        }
        std::fill(keys, keys + slots, vertex_t{-1});
        return count;
      }
      case SpgemmRowKind::dense: {
        std::uint64_t* bits = w.bits.data();
        const std::int64_t words = b_.n_cols / 64 + 1;
        if (!p.b_row_bits.empty()) {
          // Narrow B with long rows: OR B's row bitmaps, count, clear.
          for (offset_t ka = a_begin; ka < a_end; ++ka) {
            const std::uint64_t* row = p.b_row_bits.data() + a_.col_idx[ka] * words;
            for (std::int64_t wi = 0; wi < words; ++wi) bits[wi] |= row[wi];
          }
          offset_t count = 0;
          for (std::int64_t wi = 0; wi < words; ++wi) {
            count += std::popcount(bits[wi]);
            bits[wi] = 0;
          }
          return count;
        }
        if (words <= p.ip[i]) {
          // Fewer bitmap words than products: only set bits, then count and
          // clear them all with popcount (one or-store per product).
          for (offset_t ka = a_begin; ka < a_end; ++ka) {
            const vertex_t k = a_.col_idx[ka];
            for (offset_t kb = b_.row_ptr[k]; kb < b_.row_ptr[k + 1]; ++kb) {
              const vertex_t j = b_.col_idx[kb];
              bits[j >> 6] |= std::uint64_t{1} << (j & 63);
            }
          }
          offset_t count = 0;
          for (std::int64_t wi = 0; wi < words; ++wi) {
            count += std::popcount(bits[wi]);
            bits[wi] = 0;
          }
          return count;
        }
        // Else count first touches, then clear the bits by walking the
        // products again (they are still in cache).
        offset_t count = 0;
        for (offset_t ka = a_begin; ka < a_end; ++ka) {
          const vertex_t k = a_.col_idx[ka];
          for (offset_t kb = b_.row_ptr[k]; kb < b_.row_ptr[k + 1]; ++kb) {
            const vertex_t j = b_.col_idx[kb];
            const std::uint64_t bit = std::uint64_t{1} << (j & 63);
            count += (bits[j >> 6] & bit) == 0;
            bits[j >> 6] |= bit;
          }
        }
        for (offset_t ka = a_begin; ka < a_end; ++ka) {
          const vertex_t k = a_.col_idx[ka];
          for (offset_t kb = b_.row_ptr[k]; kb < b_.row_ptr[k + 1]; ++kb)
            bits[b_.col_idx[kb] >> 6] = 0;
        }
        return count;
      }
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
        return numeric_hash_row(p, i, w, out_col, out_val, len, a_begin, a_end);
      case SpgemmRowKind::dense:
        if constexpr (strip_capable)
          if (p.strips.count > 0 && p.ip[i] >= p.strips.min_ip)
            return numeric_strip_row(p.strips, w, out_col, out_val, a_begin, a_end);
        if (b_.n_cols / 64 + 1 <= p.ip[i])
          return numeric_dense_row_many(w, out_col, out_val, a_begin, a_end);
        return numeric_dense_row(w, out_col, out_val, len, a_begin, a_end);
    }
    return 0;
  }

  offset_t numeric_hash_row(const Plan& p, vertex_t i, Workspace<V>& w, vertex_t* out_col,
                            V* out_val, offset_t len, offset_t a_begin, offset_t a_end) const {
    const std::int64_t slots = spgemm_table_slots(std::min<std::int64_t>(p.ip[i], b_.n_cols));
    const int shift = hash_shift(slots);
    const std::uint32_t mask = static_cast<std::uint32_t>(slots - 1);
    vertex_t* keys = w.keys.data();
    V* vals = w.vals.data();
    offset_t inserted = 0;
    for (offset_t ka = a_begin; ka < a_end; ++ka) {
      const vertex_t k = a_.col_idx[ka];
      const V aik = a_entry(ka);
      for (offset_t kb = b_.row_ptr[k]; kb < b_.row_ptr[k + 1]; ++kb) {
        const vertex_t j = b_.col_idx[kb];
        const V prod = S::mul(aik, b_entry(kb));
        std::uint32_t h = hash_slot(j, shift);
        while (true) {
          if (keys[h] == j) {
            vals[h] = S::add(vals[h], prod);
            break;
          }
          if (keys[h] == -1) {
            keys[h] = j;
            vals[h] = prod;
            ++inserted;
            break;
          }
          h = (h + 1) & mask;
        }
      }
    }
    if (len < 0) len = inserted;
    // Compact the keys into C, sort them, then fetch each value by its key.
    offset_t n = 0;
    for (std::int64_t s = 0; s < slots && n < len; ++s)
      if (keys[s] != -1) out_col[n++] = keys[s];
    sort_columns(out_col, len);
    for (offset_t t = 0; t < len; ++t) {
      const vertex_t j = out_col[t];
      std::uint32_t h = hash_slot(j, shift);
      while (keys[h] != j) h = (h + 1) & mask;
      out_val[t] = vals[h];
    }
    std::fill(keys, keys + slots, vertex_t{-1});
    return len;
  }

  // Writes the columns set in bitmap words first_word..last_word, in order,
  // with their accumulated values, and clears bits and accumulators behind it
  // (S::zero() again) for the next row.
  static offset_t read_out_bitmap(std::uint64_t* bits, V* acc, std::int64_t first_word,
                                  std::int64_t last_word, vertex_t* out_col, V* out_val) {
    offset_t t = 0;
    for (std::int64_t wi = first_word; wi <= last_word; ++wi) {
      std::uint64_t x = bits[wi];
      bits[wi] = 0;
      while (x) {
        const vertex_t j = static_cast<vertex_t>(wi * 64 + std::countr_zero(x));
        out_col[t] = j;
        out_val[t] = acc[j];
        acc[j] = S::zero();
        ++t;
        x &= x - 1;
      }
    }
    return t;
  }

  // A dense row with more products than bitmap words (few columns, long
  // rows): no branch per product. Every product is added to its accumulator
  // (S::zero() between rows, so the first addition gives the product itself)
  // and sets its bit; the row is then read out by scanning the whole bitmap,
  // resetting bits and accumulators behind it. The first-touch branch of the
  // general path below mispredicts about once per column of C.
  offset_t numeric_dense_row_many(Workspace<V>& w, vertex_t* out_col, V* out_val, offset_t a_begin,
                                  offset_t a_end) const {
    std::uint64_t* bits = w.bits.data();
    V* acc = w.acc.data();
    for (offset_t ka = a_begin; ka < a_end; ++ka) {
      const vertex_t k = a_.col_idx[ka];
      const V aik = a_entry(ka);
      // B's row end in a register: acc's stores could alias row_ptr as far
      // as the compiler knows, and it would reload the bound every product.
      const offset_t kb_end = b_.row_ptr[k + 1];
      for (offset_t kb = b_.row_ptr[k]; kb < kb_end; ++kb) {
        const vertex_t j = b_.col_idx[kb];
        acc[j] = S::add(acc[j], S::mul(aik, b_entry(kb)));
        bits[j >> 6] |= std::uint64_t{1} << (j & 63);
      }
    }
    return read_out_bitmap(bits, acc, 0, b_.n_cols / 64, out_col, out_val);
  }

  // A long dense row against B's strips (SpgemmTuning::strip_cols): for
  // each strip in turn, every product of the row that falls in it is added
  // to the strip's accumulators (in the order k runs through A(i,:), as on
  // the other paths, so the sums are the same to the bit), then the strip's
  // non-zero sums are written out in column order and the accumulators
  // zeroed behind. While one row of the strip is summed, the next one is
  // prefetched: the strips of a row are short runs that the hardware
  // prefetcher would meet cold, each from DRAM when B is large.
  offset_t numeric_strip_row(const Strips& s, Workspace<V>& w, vertex_t* out_col, V* out_val,
                             offset_t a_begin, offset_t a_end) const {
    V* acc = w.acc.data();
    const std::uint16_t* col = s.col.data();
    const float* val = s.val.data();
    offset_t t = 0;
    for (int strip = 0; strip < s.count; ++strip) {
      const offset_t* row_ptr = s.row_ptr.data() + static_cast<std::size_t>(strip) *
                                                       (static_cast<std::size_t>(b_.n_rows) + 1);
      for (offset_t ka = a_begin; ka < a_end; ++ka) {
        const vertex_t k = a_.col_idx[ka];
        const V aik = a_entry(ka);
        const offset_t kb_begin = row_ptr[k], kb_end = row_ptr[k + 1];
        if (ka + 1 < a_end) {
          const vertex_t next = a_.col_idx[ka + 1];
          prefetch_lines(col + row_ptr[next], col + row_ptr[next + 1]);
          prefetch_lines(val + row_ptr[next], val + row_ptr[next + 1]);
        }
        add_products(acc, aik, col, val, kb_begin, kb_end);
      }
      const vertex_t first = static_cast<vertex_t>(strip) * s.width;
      const vertex_t width = std::min(s.width, b_.n_cols - first);
      // Branch-free: the slot at t is overwritten until a non-zero sum
      // claims it (hence the spare slot past the row in stream()).
      for (vertex_t j = 0; j < width; ++j) {
        const V x = acc[j];
        out_col[t] = first + j;
        out_val[t] = x;
        t += x != S::zero();
        acc[j] = S::zero();
      }
    }
    return t;
  }

  // acc[col[kb]] += aik * val[kb] for kb in [begin, end), in that order.
  // With SSE2, two entries of B are widened and multiplied at once (a
  // product of two floats is exact in double, so this is the scalar loop's
  // arithmetic, as is an FMA the compiler may form): about 7% fewer cycles
  // per product than the scalar loop, which spends a zeroing, a conversion
  // and a multiply on each.
  static void add_products(V* acc, V aik, const std::uint16_t* col, const float* val,
                           offset_t begin, offset_t end) {
    offset_t kb = begin;
#if defined(__SSE2__)
    const __m128d a2 = _mm_set1_pd(aik);
    for (; kb + 2 <= end; kb += 2) {
      // Two floats as one 8-byte load; memcpy, since val + kb is only
      // 4-byte aligned (the compiler makes it one unaligned movsd).
      double two;
      std::memcpy(&two, val + kb, sizeof two);
      const __m128 pair = _mm_castpd_ps(_mm_set_sd(two));
      const __m128d p = _mm_mul_pd(a2, _mm_cvtps_pd(pair));
      V* x0 = acc + col[kb];
      V* x1 = acc + col[kb + 1];
      _mm_store_sd(x0, _mm_add_sd(_mm_load_sd(x0), p));
      _mm_store_sd(x1, _mm_add_sd(_mm_load_sd(x1), _mm_unpackhi_pd(p, p)));
    }
#endif
    for (; kb < end; ++kb)
      acc[col[kb]] = S::add(acc[col[kb]], S::mul(aik, static_cast<V>(val[kb])));
  }

  // Asks for the cache lines of [begin, end) ahead of their use, into L2
  // (the accumulators keep L1).
  template <class X>
  static void prefetch_lines(const X* begin, const X* end) {
    constexpr std::uintptr_t line = 64;
    const auto last = reinterpret_cast<std::uintptr_t>(end);
    for (auto a = reinterpret_cast<std::uintptr_t>(begin) & ~(line - 1); a < last; a += line)
      __builtin_prefetch(reinterpret_cast<const void*>(a), 0, 2);
  }

  // Gustavson with a bitmap of the columns seen (n_cols bits: 32 KiB covers
  // 2^18 columns, so it stays in L1 where int markers would not) and dense
  // accumulators. The row is read out in column order either by scanning the
  // bitmap words between its lowest and highest column (ctz per hit), or by
  // sorting the columns collected on first touch, whichever is cheaper:
  // words vs L log L. Both leave the bitmap all zero for the next row.
  offset_t numeric_dense_row(Workspace<V>& w, vertex_t* out_col, V* out_val, offset_t len,
                             offset_t a_begin, offset_t a_end) const {
    std::uint64_t* bits = w.bits.data();
    V* acc = w.acc.data();
    offset_t n = 0;
    vertex_t lo = b_.n_cols, hi = 0;
    for (offset_t ka = a_begin; ka < a_end; ++ka) {
      const vertex_t k = a_.col_idx[ka];
      const V aik = a_entry(ka);
      for (offset_t kb = b_.row_ptr[k]; kb < b_.row_ptr[k + 1]; ++kb) {
        const vertex_t j = b_.col_idx[kb];
        const V prod = S::mul(aik, b_entry(kb));
        std::uint64_t& word = bits[j >> 6];
        const std::uint64_t bit = std::uint64_t{1} << (j & 63);
        if (!(word & bit)) {
          word |= bit;
          acc[j] = prod;
          out_col[n++] = j;
          lo = std::min(lo, j);
          hi = std::max(hi, j);
        } else {
          acc[j] = S::add(acc[j], prod);
        }
      }
    }
    if (len < 0) len = n;
    if (len == 0) return 0;
    const std::int64_t words = (hi >> 6) - (lo >> 6) + 1;
    if (words <= len * static_cast<std::int64_t>(std::bit_width(static_cast<std::uint64_t>(len)))) {
      read_out_bitmap(bits, acc, lo >> 6, hi >> 6, out_col, out_val);
    } else {
      sort_columns(out_col, len);
      for (offset_t t = 0; t < len; ++t) {
        const vertex_t j = out_col[t];
        out_val[t] = acc[j];
        acc[j] = S::zero();
        bits[j >> 6] = 0;
      }
    }
    return len;
  }

  const CsrView<T>& a_;
  const CsrView<T>& b_;
  int threads_;
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

}  // namespace

template <class S, class T>
Csr<typename S::value_type> spgemm(const CsrView<T>& a, const CsrView<T>& b, int threads,
                                   SpgemmStats* stats) {
  using V = typename S::value_type;
  check_spgemm_shapes(a.n_rows, a.n_cols, b.n_rows, b.n_cols);
  threads = std::max(1, threads);
  const Stopwatch t_start;
  SpgemmKernel<S, T> kernel(a, b, threads);

  Stopwatch t0;
  const Plan plan = kernel.analyse();
  const double analysis_ms = t0.ms();

  t0.restart();
  std::vector<Workspace<V>> ws;
  try {
    ws = kernel.workspaces(plan);
  } catch (const std::bad_alloc&) {
    throw SizeError("spgemm: cannot allocate the per-thread tables (" +
                    std::to_string(plan.max_hash_slots) + " hash slots, " +
                    std::to_string(plan.any_dense ? b.n_cols : 0) + " dense columns per thread)");
  }
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
    stats->intermediate_products = plan.total_ip;
    stats->max_row_products = plan.max_ip;
    stats->nnz_c = nnz;
    for (int g = 0; g < 4; ++g) stats->rows_per_group[g] = plan.rows_per_kind[g];
    stats->tasks = static_cast<int>(plan.tasks.size());
    stats->chunks = 1;
    stats->analysis_ms = analysis_ms;
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
  check_spgemm_shapes(a.n_rows, a.n_cols, b.n_rows, b.n_cols);
  threads = std::max(1, threads);
  const Stopwatch t_start;
  SpgemmKernel<S, T> kernel(a, b, threads);
  Stopwatch t0;
  Plan plan = kernel.analyse();
  kernel.build_strips(plan);
  const double analysis_ms = t0.ms();
  // The longest row any thread may hold: min(IP, n_cols).
  offset_t longest = 0;
  for (const std::int64_t ip : plan.ip) longest = std::max<offset_t>(longest, ip);
  longest = std::min<offset_t>(longest, b.n_cols);
  t0.restart();
  std::vector<Workspace<V>> ws;
  try {
    ws = kernel.workspaces(plan);
  } catch (const std::bad_alloc&) {
    throw SizeError("spgemm: cannot allocate the per-thread tables (" +
                    std::to_string(plan.max_hash_slots) + " hash slots, " +
                    std::to_string(plan.any_dense ? b.n_cols : 0) + " dense columns per thread)");
  }
  kernel.stream(plan, ws, longest, sink);
  if (stats) {
    *stats = SpgemmStats{};
    stats->intermediate_products = plan.total_ip;
    stats->max_row_products = plan.max_ip;
    for (int g = 0; g < 4; ++g) stats->rows_per_group[g] = plan.rows_per_kind[g];
    stats->strip_rows = plan.strips.rows;
    stats->tasks = static_cast<int>(plan.tasks.size());
    stats->analysis_ms = analysis_ms;
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
