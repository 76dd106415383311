// What C = A ⊕.⊗ B will cost, counted before any product is formed: from the
// row pointers of B and the row pointers and columns of A alone, in
// O(n_rows(A) + nnz(A)) on one thread. `graphrun spgemm --estimate` prints it.
//
//   SpgemmEstimate e = estimate_spgemm<PlusTimes<double>>(a.view(), b.view(),
//                                                         {.device = Device::cuda});
//   if (e.memory.peak > free_bytes) ...
//
// Exact: IP(i) = Σ_{k ∈ A(i,:)} nnz(B(k,:)), their total and largest row (the
// figures SpgemmStats reports after the product), the CPU's row kinds and
// tasks, and every byte count sized by IP alone: the inputs, the row
// analysis, the CPU's per-thread tables, the GPU's symbolic hash tables.
//
// A bound: nnz(C) <= Σ_i min(IP(i), n_cols(B)), since a row of C has no more
// distinct columns than products, nor than B has columns; equal exactly when
// no two products of a row land in the same column (B diagonal, or A with one
// entry per row). Whatever is sized by nnz(C) is counted at that bound: C
// itself, and on the GPU the numeric phase's global hash tables and staging
// (rows are placed in the numeric groups as if nnz(C(i,:)) reached its bound;
// with the default tuning a larger row only ever moves to a larger group).
//
// The byte counts are those of the plans the dispatches allocate by, called
// here with the row products counted above: kernels/cpu/spgemm_plan.hpp for
// the CPU and kernels/plan/spgemm_gpu_plan.hpp for the GPU (the estimate's
// sources are kernels/plan/spgemm_estimate*.cpp). The one exception is the
// scratch CUB sizes for itself on the GPU (a scan's tile states, a segmented
// sort's segment lists), which the estimate over-counts by a few bytes per
// row. Memory a pool or allocator keeps beyond what is asked for is not
// counted.
#pragma once

#include <cstddef>
#include <cstdint>

#include "graphrun/engine/context.hpp"
#include "graphrun/engine/csr.hpp"

namespace graphrun {

// The structure of one input and the bytes of each stored value (0 for a
// pattern matrix, which has none).
struct SpgemmOperand {
  vertex_t n_rows = 0;
  vertex_t n_cols = 0;
  offset_t nnz = 0;
  const offset_t* row_ptr = nullptr;
  const vertex_t* col_idx = nullptr;
  std::size_t value_bytes = 0;
};

template <class T>
SpgemmOperand spgemm_operand(const CsrView<T>& m) {
  return {m.n_rows, m.n_cols, m.nnz, m.row_ptr, m.col_idx, m.values ? sizeof(T) : 0};
}

struct SpgemmEstimateOptions {
  Device device = Device::cpu;
  int threads = 1;  // CPU: the threads the product would run on (one table set each)
};

// Bytes the product holds on its device, by what they are for. The phases
// overlap: `peak` is the most held at once, not the sum.
struct SpgemmMemoryEstimate {
  std::size_t inputs = 0;    // A and B as the call holds them (the GPU uploads both)
  std::size_t analysis = 0;  // the row analysis: IP per row, row kinds or groups, offsets
  std::size_t symbolic = 0;  // the symbolic phase's hash tables and bitmaps
  std::size_t numeric = 0;   // the numeric phase's tables, accumulators and staging
  std::size_t output = 0;    // C at the nnz bound: row pointers, columns, values
  std::size_t peak = 0;      // the most held at once, over the whole call
  // The least the call can run in: on the GPU, with the hash tables and
  // staging cut into chunks of one row each (the call chunks when the whole
  // does not fit; one row over what is left makes it fail); on the CPU,
  // which never chunks, the peak.
  std::size_t least = 0;
};

struct SpgemmEstimate {
  std::int64_t intermediate_products = 0;  // Σ_i IP(i), exact
  std::int64_t max_row_products = 0;       // max_i IP(i), exact
  std::int64_t nnz_c_bound = 0;            // Σ_i min(IP(i), n_cols(B)) >= nnz(C)
  std::int64_t product_rows = 0;           // rows with IP(i) > 0 (the others are empty in C)
  // CPU: rows per SpgemmRowKind (empty, copy, hash, dense) and row tasks, as
  // the CPU kernel's SpgemmStats reports them; zero for the GPU.
  std::int64_t cpu_rows_per_kind[4] = {0, 0, 0, 0};
  std::int64_t cpu_tasks = 0;
  // GPU: rows whose hash tables live in global memory in the symbolic phase
  // (exact) and, at the nnz bound, in the numeric phase; zero for the CPU.
  std::int64_t gpu_symbolic_global_rows = 0;
  std::int64_t gpu_numeric_global_rows = 0;
  SpgemmMemoryEstimate memory;  // on options.device
};

// The estimate for C = A·B with values of `c_value_bytes` bytes (the
// semiring's value type). ArgumentError when A's columns do not match B's
// rows; SizeError when Σ IP overflows 64 bits.
SpgemmEstimate estimate_spgemm(const SpgemmOperand& a, const SpgemmOperand& b,
                               std::size_t c_value_bytes, const SpgemmEstimateOptions& options);

template <class S, class T>
SpgemmEstimate estimate_spgemm(const CsrView<T>& a, const CsrView<T>& b,
                               const SpgemmEstimateOptions& options = {}) {
  return estimate_spgemm(spgemm_operand(a), spgemm_operand(b), sizeof(typename S::value_type),
                         options);
}

}  // namespace graphrun
