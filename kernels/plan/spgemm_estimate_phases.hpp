// The per-device halves of estimate_spgemm (spgemm_estimate.hpp): each takes
// the row products counted once by spgemm_estimate.cpp and fills in what its
// backend would allocate. Internal to graphrun_kernels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "graphrun/kernels/spgemm_estimate.hpp"

namespace graphrun::spgemm_estimate_detail {

// Bytes of one input as a Csr holds it: row pointers, columns, values.
inline std::size_t csr_bytes(const SpgemmOperand& m) {
  const auto rows = static_cast<std::size_t>(m.n_rows) + 1;
  const auto nnz = static_cast<std::size_t>(m.nnz);
  return rows * sizeof(offset_t) + nnz * sizeof(vertex_t) + nnz * m.value_bytes;
}

// kernels/cpu/spgemm.cpp: row kinds, tasks and the per-thread tables, by
// the CPU dispatch's own plan (cpu/spgemm_plan.hpp).
void estimate_cpu(const SpgemmOperand& a, const SpgemmOperand& b,
                  const std::vector<std::int64_t>& ip, std::size_t c_value_bytes, int threads,
                  SpgemmEstimate& e);

// kernels/cuda/spgemm.cu: the row groups, the pool buffers and C, by the
// GPU dispatch's own plan (spgemm_gpu_plan.hpp).
void estimate_gpu(const SpgemmOperand& a, const SpgemmOperand& b,
                  const std::vector<std::int64_t>& ip, std::size_t c_value_bytes,
                  SpgemmEstimate& e);

}  // namespace graphrun::spgemm_estimate_detail
