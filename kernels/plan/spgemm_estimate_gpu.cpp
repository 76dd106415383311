// The GPU half of estimate_spgemm: what the CUDA dispatch
// (kernels/cuda/spgemm_dispatch.cuh) and the dispatch of kernels/spgemm.hpp
// allocate on the device, from the row products counted on the host. Host
// code, built in every build: a product can be sized for a GPU on a machine
// that has none.
//
// Nothing here sizes a buffer by itself: the rows are grouped by the GPU's
// own policy (spgemm_gpu_policy.hpp, the functions its grouping kernels
// call) and the bytes come from the plan the dispatch allocates by
// (spgemm_gpu_plan.hpp). What this file adds is the order of the buffers'
// lives, for the peak, and the row totals at the bound on nnz(C).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "graphrun/kernels/cuda/spgemm.hpp"
#include "spgemm_estimate_phases.hpp"
#include "spgemm_gpu_plan.hpp"

namespace graphrun::spgemm_estimate_detail {

namespace {

using namespace cuda::spgemm_detail;

constexpr std::string_view kWhat = "spgemm: device bytes of A*B";

std::size_t add(std::size_t x, std::size_t y) { return checked_add(x, y, kWhat); }

// DeviceCsr's upload (engine/device_csr.hpp): row pointers, columns, values when present.
std::size_t uploaded_bytes(const SpgemmOperand& x) { return csr_bytes(x); }

}  // namespace

void estimate_gpu(const SpgemmOperand& a, const SpgemmOperand& b,
                  const std::vector<std::int64_t>& ip, std::size_t c_value_bytes,
                  SpgemmEstimate& e) {
  SpgemmMemoryEstimate& mem = e.memory;
  const vertex_t m = a.n_rows, n = b.n_cols;
  const auto mz = static_cast<std::size_t>(m);
  // The dispatch uploads A and B separately, even when B is A.
  mem.inputs = add(uploaded_bytes(a), uploaded_bytes(b));
  // C's row pointers, taken first and held to the end.
  const std::size_t c_ptr = c_row_ptr_bytes(mz);
  if (m == 0 || n == 0 || a.nnz == 0 || b.nnz == 0) {
    // The dispatch returns an empty C before any workspace.
    mem.output = c_ptr;
    mem.peak = mem.least = add(mem.inputs, c_ptr);
    return;
  }

  // SpgemmOptions{} as kernels/spgemm.hpp passes it (determinism changes no size).
  const Tuning tuning = tuning_for(cuda::SpgemmOptions{}, n);

  // The row totals, as the grouping kernels tally them. Symbolic: by IP
  // alone, exact. Numeric: rows grouped by nnz(C(i,:)), taken at its bound
  // min(IP, n_cols). The chunked layout budgets every row's two staging
  // copies, global or not: the largest row's share is the least a chunk holds.
  RowTotals totals;
  totals.nnz_c = e.nnz_c_bound;
  std::size_t sym_row_max = 0, chunk_row_max = 0;
  for (vertex_t i = 0; i < m; ++i) {
    const std::int64_t p = ip[i];
    if (p == 0) continue;
    const RowGroup sym = symbolic_row_group(p, n, tuning);
    if (sym.group == kGlobalGroup) {
      ++e.gpu_symbolic_global_rows;
      const auto slots = static_cast<std::int64_t>(sym.global_slots);
      totals.symbolic_global_slots = checked_add(totals.symbolic_global_slots, slots, kWhat);
      sym_row_max = std::max(sym_row_max, symbolic_tables_bytes(slots));
    }
    const RowGroup num = numeric_row_group(symbolic_bound(p, n), p, n, tuning);
    if (num.group == kGlobalGroup) {
      ++e.gpu_numeric_global_rows;
      totals.numeric_global_slots = checked_add(totals.numeric_global_slots,
                                                static_cast<std::int64_t>(num.global_slots), kWhat);
      totals.numeric_global_nnz =
          checked_add(totals.numeric_global_nnz, static_cast<std::int64_t>(num.global_nnz), kWhat);
    }
    chunk_row_max = std::max(
        chunk_row_max, numeric_tables_bytes(num.bound, static_cast<std::int64_t>(num.global_slots),
                                            c_value_bytes));
  }
  totals.numeric_global_rows = e.gpu_numeric_global_rows;

  const auto global_rows = static_cast<std::size_t>(totals.numeric_global_rows);
  const Buffers buf = plan_buffers(m, c_value_bytes, totals, cub_scan_bytes_bound(mz + 1),
                                   global_rows ? cub_segmented_sort_bytes_bound(global_rows) : 0);
  mem.analysis = buf.fixed;
  mem.symbolic = buf.symbolic;
  mem.numeric = buf.numeric;
  mem.output = add(buf.c_row_ptr, buf.c_entries);

  // Held throughout: the inputs, C's row pointers and the row workspace.
  // The symbolic tables are freed before C's entries and the numeric buffer
  // are taken (stream-ordered, so the pool reuses them).
  const std::size_t held = add(add(mem.inputs, buf.c_row_ptr), buf.fixed);
  mem.peak = add(held, std::max(buf.symbolic, add(buf.c_entries, buf.numeric)));

  // Chunked to one row each: the largest row's symbolic table; the largest
  // row's numeric share, with the sort's scratch sized for all of C's rows
  // as the chunked dispatch sizes it.
  const std::size_t sym_least = std::min(buf.symbolic, sym_row_max);
  std::size_t num_least = buf.numeric;
  if (global_rows > 0)
    num_least = std::min(num_least, numeric_buffer_bytes(add(chunk_row_max, kChunkPad),
                                                         cub_segmented_sort_bytes_bound(mz)));
  mem.least = add(held, std::max(sym_least, add(buf.c_entries, num_least)));
}

}  // namespace graphrun::spgemm_estimate_detail
