// The plan of the CPU SpGEMM (cpu/spgemm.hpp): what the dispatch in
// spgemm.cpp decides before any row of C is computed. IP and a kind per row,
// the row tasks the threads take, B's rows as bitmaps when they pay, and the
// size of every buffer the call holds: the per-thread tables (Workspace) and
// the plan itself.
//
// The memory estimate (plan/spgemm_estimate_cpu.cpp) builds the same plan
// from the same row products and reads its sizes here, so the estimate and
// the call cannot drift apart. Nothing here depends on the semiring or the
// entry type: rows are planned from the structure of A and B alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "graphrun/engine/types.hpp"
#include "graphrun/kernels/cpu/spgemm.hpp"
#include "graphrun/kernels/spgemm_estimate.hpp"

namespace graphrun::cpu::spgemm_detail {

// Rows [begin, end), handed to one thread at a time; `work` orders them.
struct Task {
  vertex_t begin, end;
  std::int64_t work;
};

// B cut into `count` vertical strips of `width` columns (the last may be
// narrower), for spgemm_rows' long dense rows (SpgemmTuning::strip_cols).
// Strip s is a CSR of B's rows restricted to columns [s * width, (s + 1) *
// width), with columns relative to s * width in 16 bits: row k of strip s
// is [row_ptr[s * (n_rows + 1) + k], row_ptr[s * (n_rows + 1) + k + 1]).
// Empty (count 0) when no row is expanded that way. Built by
// spgemm_row_strip.hpp, which reads B's values.
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
  Strips strips;  // spgemm_rows only
};

// Phase 1 of the call: IP and kind per row (in parallel where the analysis
// is large enough), then plan_tasks and build_b_row_bits.
Plan analyse(const SpgemmOperand& a, const SpgemmOperand& b, int threads);

// The serial pass over rows whose IP and kind are set: totals (Σ IP checked
// for overflow), rows per kind, the largest hash table, whether any row is
// dense, whether the work is worth a parallel region, and the tasks, cut
// where their work reaches an even share and sorted heaviest first.
void plan_tasks(Plan& p, const SpgemmOperand& a, const SpgemmOperand& b, int threads);

// Words of B's row bitmaps when the plan makes them (0 when not): a row of
// B has on average at least row_bits_min_fill entries per bitmap word (then
// ORing words beats setting bits), and the bitmaps stay small
// (row_bits_max_bytes).
std::size_t b_row_bits_words(const Plan& p, const SpgemmOperand& b);
void build_b_row_bits(Plan& p, const SpgemmOperand& b);

// Bytes the plan holds while rows are computed: IP and kind per row, the
// tasks (as the vector holds them), and B's row bitmaps of `row_bits_words`.
std::size_t plan_bytes(const Plan& p, std::size_t row_bits_words);

// The per-thread tables: a hash table (keys, and values in the numeric
// phase) for the longest hash row, and where any row is dense a bitmap of
// n_cols bits and n_cols accumulators. Sized once per call, before any row.
struct WorkspaceShape {
  std::size_t hash_slots = 0;
  std::size_t bitmap_words = 0;
  std::size_t dense_cols = 0;
  // What one thread holds in the symbolic phase (keys, bitmap) and what the
  // numeric phase adds (values beside the keys, the accumulators).
  std::size_t symbolic_bytes() const;
  std::size_t numeric_bytes(std::size_t value_bytes) const;
};
WorkspaceShape workspace_shape(const Plan& p, std::int64_t n_cols);

}  // namespace graphrun::cpu::spgemm_detail
