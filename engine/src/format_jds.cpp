#include <algorithm>

#include "graphrun/engine/formats/jds.hpp"

namespace graphrun {

template <class T>
Jds<T> Jds<T>::from_csr(const CsrView<T>& a) {
  Jds<T> m;
  m.n_rows_ = a.n_rows;
  m.n_cols_ = a.n_cols;
  const auto n = static_cast<std::size_t>(a.n_rows);
  auto len = [&](vertex_t i) { return a.row_ptr[i + 1] - a.row_ptr[i]; };
  offset_t n_diag = 0;
  for (vertex_t i = 0; i < a.n_rows; ++i) n_diag = std::max(n_diag, len(i));

  // perm: a stable counting sort by decreasing length. rows_longer[d] =
  // number of rows of length > d, which is also count_d, the size of
  // diagonal d.
  std::vector<offset_t> rows_of_length(static_cast<std::size_t>(n_diag) + 1, 0);
  for (vertex_t i = 0; i < a.n_rows; ++i) ++rows_of_length[len(i)];
  // first[l]: the position of the first row of length l (longest first).
  std::vector<offset_t> first(static_cast<std::size_t>(n_diag) + 1, 0);
  offset_t pos = 0;
  for (offset_t l = n_diag; l >= 0; --l) {
    first[l] = pos;
    pos += rows_of_length[l];
  }
  m.perm_.resize(n);
  for (vertex_t i = 0; i < a.n_rows; ++i) m.perm_[first[len(i)]++] = i;

  // jd_ptr[d + 1] - jd_ptr[d] = rows longer than d.
  m.jd_ptr_.assign(static_cast<std::size_t>(n_diag) + 1, 0);
  offset_t longer = static_cast<offset_t>(n) - rows_of_length[0];  // rows longer than 0
  for (offset_t d = 0; d < n_diag; ++d) {
    m.jd_ptr_[d + 1] = m.jd_ptr_[d] + longer;
    longer -= rows_of_length[d + 1];
  }

  const auto nnz = static_cast<std::size_t>(a.nnz);
  m.col_idx_.resize(nnz);
  if (a.values) m.values_.resize(nnz);
  const offset_t* jd = m.jd_ptr_.data();
  const vertex_t* perm = m.perm_.data();
  vertex_t* col = m.col_idx_.data();
  T* val = m.values_.data();
#pragma omp parallel for schedule(dynamic, 1024)
  for (vertex_t r = 0; r < a.n_rows; ++r) {
    const vertex_t i = perm[r];
    const offset_t begin = a.row_ptr[i];
    for (offset_t d = 0; d < len(i); ++d) {
      col[jd[d] + r] = a.col_idx[begin + d];
      if (a.values) val[jd[d] + r] = a.values[begin + d];
    }
  }
  return m;
}

template class Jds<float>;
template class Jds<double>;

}  // namespace graphrun
