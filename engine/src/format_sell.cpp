#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string>

#include "graphrun/engine/error.hpp"
#include "graphrun/engine/formats/ell.hpp"
#include "graphrun/engine/formats/sell.hpp"

namespace graphrun {

vertex_t sell_window(const RowStats& stats) noexcept {
  return stats.cv <= 0.25 ? sell_chunk : vertex_t{1024};
}

void check_sell_window(vertex_t window) {
  if (window <= 0 || window % sell_chunk != 0)
    throw ArgumentError("SELL window must be a positive multiple of " + std::to_string(sell_chunk) +
                        ", not " + std::to_string(window));
}

void check_sell_fits(offset_t slots, offset_t last_width, vertex_t n_rows, offset_t nnz) {
  const offset_t past_last_row = offset_t{sell_slices(n_rows)} * sell_chunk - n_rows;
  if (static_cast<double>(slots - past_last_row * last_width) <=
      ell_max_fill * static_cast<double>(std::max<offset_t>(nnz, 1)))
    return;
  char limit[32];
  std::snprintf(limit, sizeof limit, "%g", ell_max_fill);
  throw FormatError("SELL refused: " + std::to_string(n_rows) + " rows in slices of " +
                    std::to_string(sell_chunk) + " would take " + std::to_string(slots) +
                    " slots, more than " + limit + " per nonzero (" + std::to_string(nnz) +
                    " nonzeros)");
}

template <class T>
Sell<T> Sell<T>::from_csr(const CsrView<T>& a) {
  return from_csr(a, sell_window(analyze(a)));
}

template <class T>
Sell<T> Sell<T>::from_csr(const CsrView<T>& a, vertex_t window) {
  check_sell_window(window);
  Sell<T> m;
  m.n_rows_ = a.n_rows;
  m.n_cols_ = a.n_cols;
  m.nnz_ = a.nnz;
  const vertex_t n = a.n_rows;
  auto len = [&](vertex_t i) { return a.row_ptr[i + 1] - a.row_ptr[i]; };
  // perm: each window's rows by decreasing length, stable.
  m.perm_.resize(static_cast<std::size_t>(n));
  std::iota(m.perm_.begin(), m.perm_.end(), vertex_t{0});
  for (vertex_t w = 0; w < n; w += std::min(window, n - w)) {
    const auto first = m.perm_.begin() + w;
    std::stable_sort(first, first + std::min(window, n - w),
                     [&](vertex_t p, vertex_t q) { return len(p) > len(q); });
  }
  const vertex_t slices = sell_slices(n);
  m.slice_ptr_.assign(static_cast<std::size_t>(slices) + 1, 0);
  for (vertex_t s = 0; s < slices; ++s)
    m.slice_ptr_[s + 1] = m.slice_ptr_[s] + offset_t{sell_chunk} * len(m.perm_[s * sell_chunk]);
  const offset_t slots = m.slice_ptr_[slices];
  const offset_t last_width =
      slices == 0 ? 0 : (slots - m.slice_ptr_[slices - 1]) / offset_t{sell_chunk};
  check_sell_fits(slots, last_width, n, a.nnz);
  const auto size = checked_cast<std::size_t>(slots, "SELL slots");
  m.col_idx_.assign(size, vertex_t{-1});
  if (a.values != nullptr) m.values_.assign(size, T(0));
#pragma omp parallel for schedule(static)
  for (vertex_t r = 0; r < n; ++r) {
    const vertex_t i = m.perm_[r];
    const offset_t base = m.slice_ptr_[r / sell_chunk] + r % sell_chunk;
    const offset_t begin = a.row_ptr[i];
    for (offset_t j = 0; j < len(i); ++j) {
      m.col_idx_[base + j * sell_chunk] = a.col_idx[begin + j];
      if (a.values != nullptr) m.values_[base + j * sell_chunk] = a.values[begin + j];
    }
  }
  return m;
}

template class Sell<float>;
template class Sell<double>;

}  // namespace graphrun
