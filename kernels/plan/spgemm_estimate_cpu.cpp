// The CPU half of estimate_spgemm: what SpgemmKernel (kernels/cpu/spgemm.cpp)
// allocates, replayed from the row products. Row kinds and table sizes come
// from the kernel's own cpu::spgemm_row_kind() and cpu::spgemm_table_slots();
// the task split repeats analyse() there, and tests compare it with the
// kernel's SpgemmStats (rows per kind, tasks), so a change to one that is not
// made to the other fails a test.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "graphrun/kernels/cpu/spgemm.hpp"
#include "spgemm_estimate_phases.hpp"

namespace graphrun::spgemm_estimate_detail {

namespace {

using Tuning = cpu::SpgemmTuning;
using Kind = cpu::SpgemmRowKind;

// Mirrors of spgemm.cpp's private structs, for their sizes.
struct Task {
  vertex_t begin, end;
  std::int64_t work;
};

}  // namespace

void estimate_cpu(const SpgemmOperand& a, const SpgemmOperand& b,
                  const std::vector<std::int64_t>& ip, std::size_t c_value_bytes, int threads,
                  SpgemmEstimate& e) {
  const vertex_t m = a.n_rows;
  const std::int64_t n = b.n_cols;
  const auto v = c_value_bytes;
  const auto t = static_cast<std::size_t>(threads);

  // analyse(): kinds, the largest hash table, whether any row is dense, and
  // the tasks, cut where their work reaches the target.
  std::int64_t max_hash_slots = 0, total_work = 0;
  bool any_dense = false;
  for (vertex_t i = 0; i < m; ++i) {
    const Kind kind = cpu::spgemm_row_kind(ip[i], a.row_ptr[i + 1] - a.row_ptr[i], n);
    ++e.cpu_rows_per_kind[static_cast<int>(kind)];
    if (kind == Kind::hash)
      max_hash_slots =
          std::max(max_hash_slots, cpu::spgemm_table_slots(std::min<std::int64_t>(ip[i], n)));
    any_dense |= kind == Kind::dense;
    total_work += ip[i] + (a.row_ptr[i + 1] - a.row_ptr[i]) + 1;
  }
  const std::int64_t target = std::max<std::int64_t>(
      Tuning::min_task_work, total_work / (Tuning::tasks_per_thread * threads));
  std::int64_t work = 0;
  for (vertex_t i = 0; i < m; ++i) {
    work += ip[i] + (a.row_ptr[i + 1] - a.row_ptr[i]) + 1;
    if (work >= target || i + 1 == m) {
      ++e.cpu_tasks;
      work = 0;
    }
  }

  SpgemmMemoryEstimate& mem = e.memory;
  // The CLI passes the same matrix for B = A: the kernel reads it once.
  const bool same = a.row_ptr == b.row_ptr && a.col_idx == b.col_idx;
  mem.inputs = csr_bytes(a) + (same ? 0 : csr_bytes(b));

  // Plan: ip and kind per row, the tasks (push_back doubles the vector's
  // capacity), and B's rows as bitmaps when build_b_row_bits() makes them.
  const auto words = static_cast<std::size_t>(n / 64 + 1);
  std::size_t b_row_bits = 0;
  const auto row_bits_bytes =
      static_cast<std::int64_t>(b.n_rows) * static_cast<std::int64_t>(words) * 8;
  if (any_dense && b.n_rows > 0 && row_bits_bytes <= Tuning::row_bits_max_bytes &&
      b.nnz >= Tuning::row_bits_min_fill * static_cast<std::int64_t>(words) * b.n_rows)
    b_row_bits = static_cast<std::size_t>(row_bits_bytes);
  mem.analysis = static_cast<std::size_t>(m) * (sizeof(std::int64_t) + sizeof(Kind)) +
                 std::bit_ceil(static_cast<std::size_t>(e.cpu_tasks)) * sizeof(Task) + b_row_bits;

  // workspaces(): per thread, allocated once before the symbolic phase and
  // held to the end of the numeric one. The symbolic phase uses the hash
  // keys and the dense bitmap; the numeric phase adds the hash values and
  // the n_cols dense accumulators.
  const auto slots = static_cast<std::size_t>(max_hash_slots);
  const auto cols = static_cast<std::size_t>(n);
  mem.symbolic = t * (slots * sizeof(vertex_t) + (any_dense ? words * sizeof(std::uint64_t) : 0));
  mem.numeric = t * (slots * v + (any_dense ? cols * v : 0));

  // spgemm(): C's row pointers (symbolic phase), then its columns and values,
  // here at the bound on nnz(C).
  const auto bound = static_cast<std::size_t>(e.nnz_c_bound);
  mem.output =
      checked_add((static_cast<std::size_t>(m) + 1) * sizeof(offset_t),
                  checked_mul(bound, sizeof(vertex_t) + v, std::string_view("spgemm: bytes of C")),
                  "spgemm: bytes of C");

  // Nothing is freed before the numeric phase ends: the peak is the sum.
  mem.peak = mem.inputs + mem.analysis + mem.symbolic + mem.numeric + mem.output;
  mem.least = mem.peak;
}

}  // namespace graphrun::spgemm_estimate_detail
