// The reference SpGEMM: Gustavson's row-by-row algorithm, serial, with a dense
// accumulator of n_cols entries. Row i of C is the S-combination of the rows
// B(k,:) scaled by A(i,k), for k in A(i,:) in order; a column enters C when
// some product reaches it (even if the sum is the semiring's zero: SpGEMM
// keeps the structure). Columns are sorted at the end of each row.
// It is what the fast kernels are tested against; keep it obviously correct
// rather than fast.
#pragma once

#include <algorithm>
#include <vector>

#include "graphrun/engine/csr.hpp"
#include "graphrun/kernels/cpu/spgemm.hpp"  // check_spgemm_shapes, GRAPHRUN_SPGEMM_COMBOS
#include "graphrun/kernels/semiring_traits.hpp"

namespace graphrun::cpu {

template <class S, class T>
Csr<typename S::value_type> spgemm_reference(const CsrView<T>& a, const CsrView<T>& b) {
  using V = typename S::value_type;
  check_spgemm_shapes(a.n_rows, a.n_cols, b.n_rows, b.n_cols);
  std::vector<V> acc(static_cast<std::size_t>(b.n_cols));
  std::vector<char> seen(static_cast<std::size_t>(b.n_cols), 0);
  std::vector<vertex_t> touched;
  std::vector<offset_t> row_ptr(static_cast<std::size_t>(a.n_rows) + 1, 0);
  std::vector<vertex_t> col_idx;
  std::vector<V> values;
  for (vertex_t i = 0; i < a.n_rows; ++i) {
    touched.clear();
    for (offset_t ka = a.row_ptr[i]; ka < a.row_ptr[i + 1]; ++ka) {
      const vertex_t k = a.col_idx[ka];
      const V aik = semiring_entry<S>(a.value(ka));
      for (offset_t kb = b.row_ptr[k]; kb < b.row_ptr[k + 1]; ++kb) {
        const vertex_t j = b.col_idx[kb];
        const V p = S::mul(aik, semiring_entry<S>(b.value(kb)));
        if (!seen[j]) {
          seen[j] = 1;
          acc[j] = p;
          touched.push_back(j);
        } else {
          acc[j] = S::add(acc[j], p);
        }
      }
    }
    std::sort(touched.begin(), touched.end());
    for (const vertex_t j : touched) {
      col_idx.push_back(j);
      values.push_back(acc[j]);
      seen[j] = 0;
    }
    row_ptr[i + 1] = static_cast<offset_t>(col_idx.size());
  }
  return Csr<V>(a.n_rows, b.n_cols, std::move(row_ptr), std::move(col_idx), std::move(values));
}

#define GRAPHRUN_SPGEMM_REFERENCE_EXTERN(S, T)                                          \
  extern template Csr<typename S::value_type> spgemm_reference<S, T>(const CsrView<T>&, \
                                                                     const CsrView<T>&);
GRAPHRUN_SPGEMM_COMBOS(GRAPHRUN_SPGEMM_REFERENCE_EXTERN)
#undef GRAPHRUN_SPGEMM_REFERENCE_EXTERN

}  // namespace graphrun::cpu
