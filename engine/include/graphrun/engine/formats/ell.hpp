// ELL (ELLPACK) as an SpMV format: every row padded to the longest one,
// stored column-major so that consecutive rows' j-th entries are adjacent
// (coalesced on a GPU, one stream per "column" on a CPU).
//
//   width                     the longest row's length
//   col_idx[j * n_rows + i]   column of entry j of row i, j = 0 .. width-1;
//                             -1 in a padding slot (j >= length of row i)
//   values [j * n_rows + i]   its value (0 in padding); EMPTY for a pattern
//
// Padding grows with the longest row, so ELL refuses (FormatError) a matrix
// whose padded size width * n_rows exceeds ell_max_fill * max(nnz, 1) slots,
// or does not fit in offset_t: a power-law graph would otherwise allocate
// its largest degree times its vertex count. Callers that choose formats
// fall back to CSR then.
#pragma once

#include <cstddef>
#include <vector>

#include "graphrun/engine/array_bytes.hpp"
#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/formats/host_layout.hpp"
#include "graphrun/engine/host_device.hpp"
#include "graphrun/engine/spmv_format_table.hpp"
#include "graphrun/engine/types.hpp"

namespace graphrun {

// At most this many stored slots per nonzero (padding included).
inline constexpr double ell_max_fill = 3.0;

// Whether a matrix of this shape fits ELL under ell_max_fill (and offset_t).
bool ell_fits(vertex_t n_rows, offset_t width, offset_t nnz) noexcept;

// Non-owning view: the one ELL view, on the host (Ell::view(), host pointers,
// Width = offset_t) and on the device (cuda::DeviceEll::view(), device
// pointers, Width = vertex_t: the device kernels count slots in 32 bits).
template <class T, class Width = offset_t>
struct EllView {
  static constexpr SpmvFormat format = SpmvFormat::ell;

  vertex_t n_rows = 0;
  vertex_t n_cols = 0;
  Width width = 0;
  const vertex_t* col_idx = nullptr;  // width * n_rows, column-major, -1 = padding
  const T* values = nullptr;          // nullptr for a pattern matrix

  GRAPHRUN_HD T value(offset_t slot) const { return values ? values[slot] : T(1); }
};

template <class T>
class Ell : public HostLayout<T> {
 public:
  Ell() = default;
  // ELL of a host CSR: width = its longest row; FormatError past the fill limit.
  static Ell from_csr(const CsrView<T>& a);
  static Ell from_csr(const Csr<T>& a) { return from_csr(a.view()); }
  // The first `width` entries of every row of `a` (fewer where the row is
  // shorter), with no fill limit: the ELL part of HYB. `width` must not be
  // negative, and width * n_rows must fit (SizeError otherwise).
  static Ell from_csr_truncated(const CsrView<T>& a, offset_t width);

  offset_t width() const noexcept { return width_; }
  const std::vector<vertex_t>& col_idx() const noexcept { return col_idx_; }

  EllView<T> view() const noexcept {
    return {this->n_rows_, this->n_cols_, width_, col_idx_.data(), data_or_null(this->values_)};
  }
  std::size_t bytes() const noexcept { return bytes_of(col_idx_, this->values_); }

 private:
  offset_t width_ = 0;
  std::vector<vertex_t> col_idx_;
};

extern template class Ell<float>;
extern template class Ell<double>;

}  // namespace graphrun
