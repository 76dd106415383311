// estimate_spgemm: the row products, counted once from the row pointers, then
// the chosen device's byte counts (spgemm_estimate_cpu.cpp,
// spgemm_estimate_gpu.cpp), each from its backend's plan. Serial on purpose: it is O(nnz(A)), a
// small share of what the product itself costs, and runs before the caller knows whether the
// product fits.
#include "graphrun/kernels/spgemm_estimate.hpp"

#include <algorithm>
#include <vector>

#include "graphrun/kernels/cpu/spgemm.hpp"
#include "spgemm_estimate_phases.hpp"

namespace graphrun {

SpgemmEstimate estimate_spgemm(const SpgemmOperand& a, const SpgemmOperand& b,
                               std::size_t c_value_bytes, const SpgemmEstimateOptions& options) {
  check_spgemm_shapes(a.n_rows, a.n_cols, b.n_rows, b.n_cols);
  SpgemmEstimate e;
  // IP(i) as both kernels' analysis phases count it: each is at most
  // nnz(A(i,:)) * n_rows(B) < 2^62, and the total is checked.
  std::vector<std::int64_t> ip(static_cast<std::size_t>(a.n_rows), 0);
  for (vertex_t i = 0; i < a.n_rows; ++i) {
    std::int64_t row = 0;
    for (offset_t ka = a.row_ptr[i]; ka < a.row_ptr[i + 1]; ++ka) {
      const vertex_t k = a.col_idx[ka];
      row += b.row_ptr[k + 1] - b.row_ptr[k];
    }
    ip[i] = row;
    e.intermediate_products =
        checked_add(e.intermediate_products, row, "spgemm: intermediate products of A*B");
    e.max_row_products = std::max(e.max_row_products, row);
    // No overflow: each term is at most its row's IP, whose sum was checked.
    e.nnz_c_bound += std::min<std::int64_t>(row, b.n_cols);
    e.product_rows += row > 0;
  }
  switch (options.device) {
    case Device::cpu:
      spgemm_estimate_detail::estimate_cpu(a, b, ip, c_value_bytes, std::max(1, options.threads),
                                           e);
      break;
    case Device::cuda:
      spgemm_estimate_detail::estimate_gpu(a, b, ip, c_value_bytes, e);
      break;
  }
  return e;
}

}  // namespace graphrun
