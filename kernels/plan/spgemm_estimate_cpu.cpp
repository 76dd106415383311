// The CPU half of estimate_spgemm: what the CPU dispatch (kernels/cpu/spgemm.cpp)
// holds, from its own plan (cpu/spgemm_plan.hpp). The rows get their kinds
// from the dispatch's spgemm_row_kind, the tasks from its plan_tasks, the
// per-thread tables and B's row bitmaps their sizes from the same functions
// the dispatch allocates by; only B's bitmaps are not built, as their size
// alone is asked.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "../cpu/spgemm_plan.hpp"
#include "graphrun/kernels/cpu/spgemm.hpp"
#include "spgemm_estimate_phases.hpp"

namespace graphrun::spgemm_estimate_detail {

void estimate_cpu(const SpgemmOperand& a, const SpgemmOperand& b,
                  const std::vector<std::int64_t>& ip, std::size_t c_value_bytes, int threads,
                  SpgemmEstimate& e) {
  namespace plan = cpu::spgemm_detail;
  const vertex_t m = a.n_rows;

  // analyse(): the kinds, then the dispatch's own serial pass and task split.
  plan::Plan p;
  p.ip = ip;
  p.kind.resize(static_cast<std::size_t>(m));
  for (vertex_t i = 0; i < m; ++i)
    p.kind[i] = cpu::spgemm_row_kind(ip[i], a.row_ptr[i + 1] - a.row_ptr[i], b.n_cols);
  plan::plan_tasks(p, a, b, threads);
  for (int k = 0; k < 4; ++k) e.cpu_rows_per_kind[k] = p.rows_per_kind[k];
  e.cpu_tasks = static_cast<std::int64_t>(p.tasks.size());

  SpgemmMemoryEstimate& mem = e.memory;
  // The CLI passes the same matrix for B = A: the kernel reads it once.
  const bool same = a.row_ptr == b.row_ptr && a.col_idx == b.col_idx;
  mem.inputs = csr_bytes(a) + (same ? 0 : csr_bytes(b));
  // The plan: IP and kind per row, the tasks, and B's rows as bitmaps when
  // the dispatch makes them.
  mem.analysis = plan::plan_bytes(p, plan::b_row_bits_words(p, b));

  // The per-thread tables, allocated once before the symbolic phase and
  // held to the end of the numeric one. The symbolic phase uses the hash
  // keys and the dense bitmap; the numeric phase adds the hash values and
  // the n_cols dense accumulators.
  const plan::WorkspaceShape shape = plan::workspace_shape(p, b.n_cols);
  const auto t = static_cast<std::size_t>(threads);
  mem.symbolic = t * shape.symbolic_bytes();
  mem.numeric = t * shape.numeric_bytes(c_value_bytes);

  // spgemm(): C's row pointers (symbolic phase), then its columns and values,
  // here at the bound on nnz(C).
  const auto bound = static_cast<std::size_t>(e.nnz_c_bound);
  mem.output = checked_add(
      (static_cast<std::size_t>(m) + 1) * sizeof(offset_t),
      checked_mul(bound, sizeof(vertex_t) + c_value_bytes, std::string_view("spgemm: bytes of C")),
      "spgemm: bytes of C");

  // Nothing is freed before the numeric phase ends: the peak is the sum.
  mem.peak = mem.inputs + mem.analysis + mem.symbolic + mem.numeric + mem.output;
  mem.least = mem.peak;
}

}  // namespace graphrun::spgemm_estimate_detail
