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

void check_sell_parts(vertex_t parts) {
  if (parts < 1)
    throw ArgumentError("SELL column parts must be at least 1, not " + std::to_string(parts));
}

int sell_column_parts(vertex_t n_cols, offset_t nnz, vertex_t n_rows, int gather_bytes,
                      std::int64_t cache_bytes) noexcept {
  if (cache_bytes <= 0 || gather_bytes <= 0 || n_rows <= 0) return 1;
  const std::int64_t part_bytes = std::max<std::int64_t>(cache_bytes / 3, 1);
  const std::int64_t x_bytes = std::int64_t{n_cols} * gather_bytes;
  const std::int64_t for_cache = (x_bytes + part_bytes - 1) / part_bytes;
  // (mean + 1) / 4: a uniform graph's mean of 31.99 after its repeats are
  // dropped still takes 8 parts.
  const std::int64_t for_rows =
      std::max<std::int64_t>((nnz + n_rows) / (std::int64_t{4} * n_rows), 1);
  return static_cast<int>(std::clamp<std::int64_t>(std::min(for_cache, for_rows), 1, 64));
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
Sell<T> Sell<T>::from_csr(const CsrView<T>& a, vertex_t window, vertex_t parts) {
  check_sell_window(window);
  check_sell_parts(parts);
  Sell<T> m;
  m.n_rows_ = a.n_rows;
  m.n_cols_ = a.n_cols;
  m.nnz_ = a.nnz;
  m.n_parts_ = parts;
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
  // Row i's entries in part p: [entry(i, p), entry(i, p + 1)).
  auto entry = [&](vertex_t i, vertex_t p) {
    return sell_part_entry(a.row_ptr, a.col_idx, a.n_cols, parts, i, p);
  };
  const vertex_t slices = sell_slices(n);
  const std::size_t part_slices = static_cast<std::size_t>(slices) * parts;
  m.slice_ptr_.assign(part_slices + 1, 0);
  offset_t last_width = 0;
  for (vertex_t p = 0; p < parts; ++p)
    for (vertex_t s = 0; s < slices; ++s) {
      offset_t width = 0;
      for (vertex_t r = s * sell_chunk; r < std::min(n, (s + 1) * sell_chunk); ++r)
        width = std::max(width, entry(m.perm_[r], p + 1) - entry(m.perm_[r], p));
      const std::size_t at = std::size_t(p) * slices + s;
      m.slice_ptr_[at + 1] = m.slice_ptr_[at] + offset_t{sell_chunk} * width;
      if (s == slices - 1) last_width += width;
    }
  const offset_t slots = m.slice_ptr_[part_slices];
  check_sell_fits(slots, last_width, n, a.nnz);
  const auto size = checked_cast<std::size_t>(slots, "SELL slots");
  m.col_idx_.assign(size, vertex_t{-1});
  if (a.values != nullptr) m.values_.assign(size, T(0));
#pragma omp parallel for schedule(static)
  for (vertex_t r = 0; r < n; ++r) {
    const vertex_t i = m.perm_[r];
    for (vertex_t p = 0; p < parts; ++p) {
      const offset_t base = m.slice_ptr_[std::size_t(p) * slices + r / sell_chunk] + r % sell_chunk;
      const offset_t begin = entry(i, p), end = entry(i, p + 1);
      for (offset_t j = 0; j < end - begin; ++j) {
        m.col_idx_[base + j * sell_chunk] = a.col_idx[begin + j];
        if (a.values != nullptr) m.values_[base + j * sell_chunk] = a.values[begin + j];
      }
    }
  }
  return m;
}

template class Sell<float>;
template class Sell<double>;

}  // namespace graphrun
