#include <algorithm>
#include <cstdint>

#include "graphrun/engine/error.hpp"
#include "graphrun/engine/formats/hyb.hpp"

namespace graphrun {

offset_t hyb_ell_width(const RowStats& stats) noexcept {
  // Bell & Garland's break-even: ELL pays off only when enough rows (4096,
  // or a third of them) fill a column of slots.
  const std::int64_t threshold = std::max<std::int64_t>(4096, stats.n_rows / 3);
  std::int64_t at_least = 0;  // rows of length >= 2^(b-1), b from the top down
  for (int b = static_cast<int>(stats.histogram.size()) - 1; b >= 1; --b) {
    at_least += stats.histogram[b];
    if (at_least >= threshold) return offset_t{1} << (b - 1);
  }
  return 0;
}

template <class T>
Hyb<T> Hyb<T>::from_csr(const CsrView<T>& a) {
  return from_csr(a, hyb_ell_width(analyze(a)));
}

template <class T>
Hyb<T> Hyb<T>::from_csr(const CsrView<T>& a, offset_t ell_width) {
  if (ell_width < 0) throw ArgumentError("HYB ELL width must not be negative");
  Hyb<T> h;
  h.ell_ = Ell<T>::from_csr_truncated(a, ell_width);
  // The COO part: entries past the first K of every row, as a CSR of the
  // tails (row_ptr of the remainders) converted to COO.
  std::vector<offset_t> tail_ptr(static_cast<std::size_t>(a.n_rows) + 1, 0);
  for (vertex_t i = 0; i < a.n_rows; ++i) {
    const offset_t len = a.row_ptr[i + 1] - a.row_ptr[i];
    tail_ptr[i + 1] = tail_ptr[i] + std::max<offset_t>(0, len - ell_width);
  }
  const auto tail_nnz = static_cast<std::size_t>(tail_ptr[a.n_rows]);
  std::vector<vertex_t> tail_col(tail_nnz);
  std::vector<T> tail_val(a.values ? tail_nnz : 0);
#pragma omp parallel for schedule(dynamic, 1024)
  for (vertex_t i = 0; i < a.n_rows; ++i) {
    const offset_t from = a.row_ptr[i] + ell_width;
    for (offset_t k = tail_ptr[i]; k < tail_ptr[i + 1]; ++k) {
      tail_col[k] = a.col_idx[from + (k - tail_ptr[i])];
      if (a.values) tail_val[k] = a.values[from + (k - tail_ptr[i])];
    }
  }
  const CsrView<T> tails{a.n_rows,        a.n_cols,        static_cast<offset_t>(tail_nnz),
                         tail_ptr.data(), tail_col.data(), a.values ? tail_val.data() : nullptr};
  h.coo_ = CooMatrix<T>::from_csr(tails);
  return h;
}

template class Hyb<float>;
template class Hyb<double>;

}  // namespace graphrun
