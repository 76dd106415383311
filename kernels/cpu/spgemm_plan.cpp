// The CPU SpGEMM's plan (spgemm_plan.hpp): the analysis phase and the sizes
// of what the call holds. O(n_rows(A) + nnz(A)), a small share of the product.
#include "spgemm_plan.hpp"

#include <algorithm>
#include <cstdint>

#include "graphrun/engine/types.hpp"

namespace graphrun::cpu::spgemm_detail {

namespace {

using Tuning = SpgemmTuning;

// What a row costs a task: its products, its entries of A, and one for the
// row itself (empty rows are not free).
std::int64_t row_work(const Plan& p, const SpgemmOperand& a, vertex_t i) {
  return p.ip[i] + (a.row_ptr[i + 1] - a.row_ptr[i]) + 1;
}

}  // namespace

Plan analyse(const SpgemmOperand& a, const SpgemmOperand& b, int threads) {
  Plan p;
  const vertex_t n = a.n_rows;
  p.ip.resize(static_cast<std::size_t>(n));
  p.kind.resize(static_cast<std::size_t>(n));
  // Each IP(i) is at most nnz(A(i,:)) * n_rows(B) < 2^62: no overflow per
  // row. The total is summed with a check in plan_tasks.
  const bool parallel_analysis = threads > 1 && a.nnz + a.n_rows >= Tuning::min_parallel_work;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 4096) if (parallel_analysis)
  for (vertex_t i = 0; i < n; ++i) {
    std::int64_t ip = 0;
    for (offset_t ka = a.row_ptr[i]; ka < a.row_ptr[i + 1]; ++ka) {
      const vertex_t k = a.col_idx[ka];
      ip += b.row_ptr[k + 1] - b.row_ptr[k];
    }
    p.ip[i] = ip;
    p.kind[i] = spgemm_row_kind(ip, a.row_ptr[i + 1] - a.row_ptr[i], b.n_cols);
  }
  plan_tasks(p, a, b, threads);
  build_b_row_bits(p, b);
  return p;
}

void plan_tasks(Plan& p, const SpgemmOperand& a, const SpgemmOperand& b, int threads) {
  const vertex_t n = a.n_rows;
  std::int64_t total_work = 0;
  for (vertex_t i = 0; i < n; ++i) {
    const std::int64_t ip = p.ip[i];
    p.total_ip = checked_add(p.total_ip, ip, "spgemm: intermediate products of A*B");
    p.max_ip = std::max(p.max_ip, ip);
    const auto kind = p.kind[i];
    ++p.rows_per_kind[static_cast<int>(kind)];
    if (kind == SpgemmRowKind::hash)
      p.max_hash_slots =
          std::max(p.max_hash_slots, spgemm_table_slots(std::min<std::int64_t>(ip, b.n_cols)));
    if (kind == SpgemmRowKind::dense) p.any_dense = true;
    total_work = checked_add(total_work, row_work(p, a, i), "spgemm: work of A*B");
  }
  p.parallel = threads > 1 && total_work >= Tuning::min_parallel_work;
  const std::int64_t target = std::max<std::int64_t>(
      Tuning::min_task_work, total_work / (Tuning::tasks_per_thread * threads));
  std::int64_t work = 0;
  vertex_t begin = 0;
  for (vertex_t i = 0; i < n; ++i) {
    work += row_work(p, a, i);
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
}

std::size_t b_row_bits_words(const Plan& p, const SpgemmOperand& b) {
  const std::int64_t words = b.n_cols / 64 + 1;
  const std::int64_t bytes = static_cast<std::int64_t>(b.n_rows) * words * 8;
  if (!p.any_dense || b.n_rows == 0 || bytes > Tuning::row_bits_max_bytes ||
      b.nnz < Tuning::row_bits_min_fill * words * b.n_rows)
    return 0;
  return static_cast<std::size_t>(b.n_rows * words);
}

void build_b_row_bits(Plan& p, const SpgemmOperand& b) {
  const std::size_t all_words = b_row_bits_words(p, b);
  if (all_words == 0) return;
  const std::int64_t words = b.n_cols / 64 + 1;
  p.b_row_bits.assign(all_words, 0);
  for (vertex_t k = 0; k < b.n_rows; ++k) {
    std::uint64_t* row = p.b_row_bits.data() + k * words;
    for (offset_t kb = b.row_ptr[k]; kb < b.row_ptr[k + 1]; ++kb)
      row[b.col_idx[kb] >> 6] |= std::uint64_t{1} << (b.col_idx[kb] & 63);
  }
}

std::size_t plan_bytes(const Plan& p, std::size_t row_bits_words) {
  return p.ip.size() * sizeof(std::int64_t) + p.kind.size() * sizeof(SpgemmRowKind) +
         p.tasks.capacity() * sizeof(Task) + row_bits_words * sizeof(std::uint64_t);
}

std::size_t WorkspaceShape::symbolic_bytes() const {
  return hash_slots * sizeof(vertex_t) + bitmap_words * sizeof(std::uint64_t);
}

std::size_t WorkspaceShape::numeric_bytes(std::size_t value_bytes) const {
  return hash_slots * value_bytes + dense_cols * value_bytes;
}

WorkspaceShape workspace_shape(const Plan& p, std::int64_t n_cols) {
  WorkspaceShape s;
  s.hash_slots = static_cast<std::size_t>(p.max_hash_slots);
  if (p.any_dense) {
    s.bitmap_words = static_cast<std::size_t>(n_cols) / 64 + 1;
    s.dense_cols = static_cast<std::size_t>(n_cols);
  }
  return s;
}

}  // namespace graphrun::cpu::spgemm_detail
