#include <algorithm>
#include <cstdio>
#include <string>

#include "graphrun/engine/error.hpp"
#include "graphrun/engine/formats/ell.hpp"

namespace graphrun {

bool ell_fits(vertex_t n_rows, offset_t width, offset_t nnz) noexcept {
  offset_t slots;
  if (__builtin_mul_overflow(width, offset_t{n_rows}, &slots)) return false;
  return static_cast<double>(slots) <=
         ell_max_fill * static_cast<double>(std::max<offset_t>(nnz, 1));
}

namespace {
offset_t longest_row(const offset_t* row_ptr, vertex_t n_rows) {
  offset_t width = 0;
#pragma omp parallel for reduction(max : width) schedule(static)
  for (vertex_t i = 0; i < n_rows; ++i) width = std::max(width, row_ptr[i + 1] - row_ptr[i]);
  return width;
}
}  // namespace

template <class T>
Ell<T> Ell<T>::from_csr(const CsrView<T>& a) {
  const offset_t width = longest_row(a.row_ptr, a.n_rows);
  if (!ell_fits(a.n_rows, width, a.nnz)) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", ell_max_fill);
    throw FormatError("ELL refused: " + std::to_string(a.n_rows) + " rows padded to width " +
                      std::to_string(width) + " would take more than " + limit +
                      " slots per nonzero (" + std::to_string(a.nnz) + " nonzeros)");
  }
  return from_csr_truncated(a, width);
}

template <class T>
Ell<T> Ell<T>::from_csr_truncated(const CsrView<T>& a, offset_t width) {
  if (width < 0) throw ArgumentError("ELL width must not be negative");
  const offset_t slots = checked_mul(width, offset_t{a.n_rows}, "ELL slots (width * rows)");
  const auto size = checked_cast<std::size_t>(slots, "ELL slots (width * rows)");
  Ell<T> e;
  e.n_rows_ = a.n_rows;
  e.n_cols_ = a.n_cols;
  e.width_ = width;
  e.col_idx_.resize(size);
  if (a.values != nullptr) e.values_.resize(size);
  const offset_t n = a.n_rows;
  vertex_t* col = e.col_idx_.data();
  T* val = e.values_.data();
  // Row-parallel fill; each row writes its own slots j * n + i.
#pragma omp parallel for schedule(static)
  for (vertex_t i = 0; i < a.n_rows; ++i) {
    const offset_t begin = a.row_ptr[i];
    const offset_t len = std::min(a.row_ptr[i + 1] - begin, width);
    for (offset_t j = 0; j < width; ++j) {
      const offset_t slot = j * n + i;
      if (j < len) {
        col[slot] = a.col_idx[begin + j];
        if (val) val[slot] = a.values[begin + j];
      } else {
        col[slot] = -1;
        if (val) val[slot] = T(0);
      }
    }
  }
  return e;
}

template class Ell<float>;
template class Ell<double>;

}  // namespace graphrun
