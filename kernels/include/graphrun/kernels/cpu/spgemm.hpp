// SpGEMM on the CPU: C = A ⊕.⊗ B by the hash-based multi-phase algorithm,
// with OpenMP over row tasks.
//
//   C(i,j) = S::add over k of S::mul(A(i,k), B(k,j))   (only where some k exists)
//
// Phases (timed separately in SpgemmStats):
//   1. analysis   IP(i) = Σ_{k ∈ A(i,:)} nnz(B(k,:)), the intermediate products
//                 of row i (64-bit; their total is checked for overflow); each
//                 row gets a kind from IP and the shape (SpgemmRowKind below);
//                 rows are cut into contiguous tasks of about equal IP, and the
//                 tasks are handed out heaviest first (dynamic scheduling), so
//                 one huge row does not end up last on a busy thread.
//   2. symbolic   the distinct columns of each row, counted by insertion into
//                 a per-thread hash table sized to min(IP, n_cols) rounded up to
//                 a power of two (twice that, for short probes), or into a
//                 per-thread bitmap of n_cols bits (dense rows); a scan gives
//                 C's row pointers; C is allocated exactly.
//   3. numeric    the same insertion with accumulation of A(i,k)·B(k,j) (in
//                 the table, or in n_cols dense accumulators), then the row's
//                 columns are written to C in sorted order: sorted after
//                 compaction, or for a dense row read out of the bitmap word by
//                 word when that is cheaper than sorting. The sort is done per
//                 row while the row is still in cache: its time is part of
//                 numeric_ms, and sort_ms stays 0 on the CPU.
//
// Every row is computed by one thread, in an order fixed by A and B alone
// (products of a column are added in the order k runs through A(i,:)), so C
// is bit-identical whatever the thread count, and equal to the Gustavson
// reference (spgemm_reference.hpp) summation for summation. (Rows with many
// products per column start their sums from S::zero(), which must be the
// identity of S::add on the values that occur: a lone product -0.0 comes out
// as +0.0 in PlusTimes; MaxTimes, whose zero is 0, would need non-negative
// values, and is not instantiated.)
//
// Memory: per-thread workspace allocated once per call (hash table sized for
// the longest hash row, and an n_cols bitmap and accumulators when some row
// is dense); nothing is allocated inside the row loops. A C too large for the
// index types or for memory throws SizeError naming the size.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <string>

#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/kernels/combos.hpp"
#include "graphrun/kernels/spgemm_stats.hpp"

namespace graphrun {

// A·B needs A's columns to match B's rows; ArgumentError naming both shapes.
inline void check_spgemm_shapes(vertex_t a_rows, vertex_t a_cols, vertex_t b_rows,
                                vertex_t b_cols) {
  if (a_cols != b_rows)
    throw ArgumentError("spgemm: A is " + std::to_string(a_rows) + "x" + std::to_string(a_cols) +
                        " and B is " + std::to_string(b_rows) + "x" + std::to_string(b_cols) +
                        ": A*B needs as many columns in A as rows in B");
}

namespace cpu {

// How a row of C is computed, chosen from IP(i), nnz(A(i,:)) and n_cols.
enum class SpgemmRowKind : std::uint8_t {
  empty,  // IP = 0: nothing to do
  copy,   // A(i,:) has one entry k: C(i,:) = A(i,k)·B(k,:), already sorted
  hash,   // a per-thread open-addressing table of at most hash_max_slots
  dense   // a bitmap of n_cols bits and n_cols accumulators (Gustavson)
};

// The CPU tuning, in one place (measured with `graphrun bench spgemm`, see
// docs/bench/spgemm-cpu.md).
struct SpgemmTuning {
  // Longest hash table (slots) before a row goes dense: keys and values of
  // 4096 slots (48 KiB in double) stay in L1/L2 together with B's rows.
  static constexpr std::int64_t hash_max_slots = 4096;
  // With at most this many columns the bitmap (32 KiB) stays in L1 and every
  // row of two or more entries in A goes dense: no hashing, no probing, and a
  // word scan instead of a sort for long rows. Measured against hash tables
  // for all rows of products wider than 8192 columns: geometric mean over
  // R-MAT 14, ca-CondMat, luxembourg_osm, p2p-Gnutella30, ca-HepTh and
  // PGPgiantcompo went from 0.89-1.02x to 1.55-1.62x of GraphBLAS (2 threads).
  static constexpr std::int64_t dense_always_cols = 1 << 18;
  // Dense workspace only up to this many columns (bitmap + accumulators per
  // thread); wider products use hash tables sized to their longest row.
  static constexpr std::int64_t dense_max_cols = std::int64_t{1} << 26;
  // The symbolic phase ORs B's rows as bitmaps (instead of setting a bit per
  // product) when B's rows hold at least this many entries per 64-column
  // word on average, and the bitmaps of all of B's rows fit in this many bytes.
  static constexpr std::int64_t row_bits_min_fill = 4;
  static constexpr std::int64_t row_bits_max_bytes = std::int64_t{1} << 24;
  // Below this much work (intermediate products + entries of A + rows) one
  // thread does it all: waking the others costs more than it saves. Measured
  // at 2 threads: on a quiet machine 2^18 beat 2^20 (luxembourg_osm,
  // p2p-Gnutella, cond-mat, as-22july06: 1.02-1.07x -> 1.37-1.43x of
  // GraphBLAS as a geometric mean); on a machine loaded by other jobs a
  // parallel region can cost a scheduler time slice (ms), and 2^15 left
  // luxembourg_osm at 0.6x.
  static constexpr std::int64_t min_parallel_work = 1 << 18;
  // spgemm_rows, PlusTimes<double> over float entries that are all positive:
  // the long dense rows are expanded against a copy of B cut into vertical
  // strips of at most strip_cols columns, one strip after the other, so that
  // a strip's accumulators (32 KiB of double) stay in L1 while B's rows
  // stream past; positive products cannot sum to zero, so a row is read out
  // by scanning the strip's accumulators for non-zeros, with no bitmap to
  // keep. On MCL's dense iterands (LFR, mu = 0.5: rows of ~1000 of 10,000
  // columns) this took the expansion from about 1.5 to 0.8-0.9 ns per
  // product (docs/experiments.md).
  static constexpr std::int64_t strip_cols = 4096;
  // A row goes strip by strip when it has at least this many products per
  // column of C (each strip's read-out scans all its columns)...
  static constexpr std::int64_t strip_min_products_per_col = 2;
  // ...and B's rows hold on average at least this many entries...
  static constexpr std::int64_t strip_min_row_entries = 16;
  // ...and B is cut into no more strips than leave this many entries of a
  // row of B in each on average: a strip of a row is one run, whose row
  // pointers and prefetch cost the same however short it is. With runs of
  // 60 entries (string-v12-human's iterand, 300 entries per row, in five
  // strips of 4,096 columns) those costs outweighed accumulators in L1: one
  // strip, its accumulators in L2, took the expansion from 3.4 to 2.6 s on
  // 2 threads, and yeast-ppi-biogrid, MIT8 and ca-HepPh gained 2-10% from
  // the same cap (docs/experiments.md).
  static constexpr std::int64_t strip_min_run = 256;
  // ...and those rows have this many products per entry of B, to pay for
  // the copy of B.
  static constexpr std::int64_t strip_min_products_per_entry = 16;
  // Where B is large, its strips are cut narrower than strip_cols, to about
  // this many bytes each (columns, values), and the long rows go through
  // them in batches, strip by strip: each strip is then read from DRAM once
  // per batch and from cache by the batch's other rows, instead of once per
  // row. Without it an iterand of tens of MB streams from DRAM for every
  // row and the expansion is bound by DRAM bandwidth (yeast-ppi-biogrid:
  // 64 GB for 10.7e9 products). Sized to a share of a last-level cache that
  // other threads and processes use too; narrower strips stop at
  // strip_min_run.
  static constexpr std::int64_t strip_bytes = std::int64_t{8} << 20;
  // A batch takes rows until their outputs (up to min(IP, n_cols) entries
  // each) would pass this many bytes, which stay beside the strip in cache.
  static constexpr std::int64_t strip_batch_bytes = std::int64_t{4} << 20;
  // Tasks per thread: enough for dynamic scheduling to even out the load.
  static constexpr std::int64_t tasks_per_thread = 32;
  // Least work (IP + entries of A) in a task, so small products do not pay
  // scheduling overhead per row.
  static constexpr std::int64_t min_task_work = 1 << 13;
};

// Slots of the hash table for a row with at most `distinct` distinct columns:
// twice that, rounded up to a power of two (load factor <= 1/2), at least 8.
inline std::int64_t spgemm_table_slots(std::int64_t distinct) {
  return static_cast<std::int64_t>(
      std::bit_ceil(static_cast<std::uint64_t>(std::max<std::int64_t>(8, 2 * distinct))));
}

// The kind of row i of C, from IP(i), nnz(A(i,:)) and B's column count. The
// kernel and spgemm --estimate both ask here.
inline SpgemmRowKind spgemm_row_kind(std::int64_t ip, offset_t a_len, std::int64_t n_cols) {
  if (ip == 0) return SpgemmRowKind::empty;
  if (a_len == 1) return SpgemmRowKind::copy;
  if (n_cols <= SpgemmTuning::dense_always_cols) return SpgemmRowKind::dense;
  if (spgemm_table_slots(std::min(ip, n_cols)) <= SpgemmTuning::hash_max_slots ||
      n_cols > SpgemmTuning::dense_max_cols)
    return SpgemmRowKind::hash;
  return SpgemmRowKind::dense;
}

// C = A ⊕.⊗ B on `threads` OpenMP threads (>= 1). Requires a.n_cols ==
// b.n_rows (ArgumentError otherwise). Entries enter the semiring through
// semiring_entry<S>; a pattern input (values == nullptr) has all-one entries.
// C always has values.
template <class S, class T>
Csr<typename S::value_type> spgemm(const CsrView<T>& a, const CsrView<T>& b, int threads,
                                   SpgemmStats* stats = nullptr);

// Receives one row of C: its columns (sorted) and values, which the sink
// may change in place, from the thread (0 .. threads-1) that computed it.
// Called concurrently from the OpenMP threads; must not throw.
template <class V>
using SpgemmRowSink =
    std::function<void(int thread, vertex_t row, const vertex_t* col, V* val, offset_t len)>;

// The rows of C = A ⊕.⊗ B, each handed to `sink` as soon as it is computed,
// and C itself never stored: the analysis and the numeric phase alone, with
// no symbolic phase (a row's length is counted while it is computed, in a
// per-thread buffer of the longest row's bound). For consumers that filter
// or transform rows on the fly, as MCL's pruning does. Rows arrive in no
// fixed order; each is the same as spgemm() computes it. stats: products,
// tasks, analysis_ms, numeric_ms (the sink's time included), total_ms.
template <class S, class T>
void spgemm_rows(const CsrView<T>& a, const CsrView<T>& b, int threads,
                 const SpgemmRowSink<typename S::value_type>& sink, SpgemmStats* stats = nullptr);

#define GRAPHRUN_SPGEMM_CPU_EXTERN(S, T)                                                         \
  extern template Csr<typename S::value_type> spgemm<S, T>(const CsrView<T>&, const CsrView<T>&, \
                                                           int, SpgemmStats*);                   \
  extern template void spgemm_rows<S, T>(const CsrView<T>&, const CsrView<T>&, int,              \
                                         const SpgemmRowSink<typename S::value_type>&,           \
                                         SpgemmStats*);
GRAPHRUN_SPGEMM_COMBOS(GRAPHRUN_SPGEMM_CPU_EXTERN)
#undef GRAPHRUN_SPGEMM_CPU_EXTERN

}  // namespace cpu
}  // namespace graphrun
