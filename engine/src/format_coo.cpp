#include <algorithm>

#include "graphrun/engine/formats/coo_format.hpp"

namespace graphrun {

template <class T>
CooMatrix<T> CooMatrix<T>::from_csr(const CsrView<T>& a) {
  CooMatrix<T> m;
  m.n_rows_ = a.n_rows;
  m.n_cols_ = a.n_cols;
  const auto nnz = static_cast<std::size_t>(a.nnz);
  m.row_idx_.resize(nnz);
  m.col_idx_.assign(a.col_idx, a.col_idx + nnz);
  if (a.values != nullptr) m.values_.assign(a.values, a.values + nnz);
#pragma omp parallel for schedule(dynamic, 1024)
  for (vertex_t i = 0; i < a.n_rows; ++i)
    std::fill(m.row_idx_.begin() + a.row_ptr[i], m.row_idx_.begin() + a.row_ptr[i + 1], i);
  return m;
}

template class CooMatrix<float>;
template class CooMatrix<double>;

}  // namespace graphrun
