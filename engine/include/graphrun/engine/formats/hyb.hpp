// HYB (hybrid ELL + COO, Bell & Garland, SC'09) as an SpMV format: the first
// K entries of every row in ELL, the rest of each longer row in COO.
//
//   ell   an Ell<T> of width K (engine/formats/ell.hpp): entry j < K of row i
//         at j * n_rows + i, column -1 in padding
//   coo   a CooMatrix<T> (engine/formats/coo_format.hpp) holding, for each row
//         longer than K, its entries K, K+1, ..., sorted by (row, col)
//
// K keeps ELL's regular part dense and sends the tail of a skewed row
// distribution to COO, so no row is padded to the longest.
#pragma once

#include <cstddef>

#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/formats/coo_format.hpp"
#include "graphrun/engine/formats/ell.hpp"
#include "graphrun/engine/row_stats.hpp"
#include "graphrun/engine/spmv_format_table.hpp"

namespace graphrun {

// The ELL width K of HYB, Bell & Garland's rule (as in CUSP): the largest K
// such that at least max(4096, n_rows / 3) rows have length >= K; 0 (all
// COO) when even K = 1 has too few rows. Below 4096 rows ELL is not worth
// its padding, and with at least a third of the rows reaching K, the ELL
// part holds at most 3 slots per entry it stores. K is read off the RowStats
// log2 histogram, so it is a power of two: a row in bucket b has length in
// [2^(b-1), 2^b), and K is rounded down to the lower bound of the last bucket
// b whose rows and all longer ones number at least the threshold.
offset_t hyb_ell_width(const RowStats& stats) noexcept;

// Non-owning view: the one HYB view, on the host (Hyb::view()) and on the
// device (cuda::DeviceHyb::view(), Width = vertex_t as for ELL).
template <class T, class Width = offset_t>
struct HybView {
  static constexpr SpmvFormat format = SpmvFormat::hyb;

  EllView<T, Width> ell;
  CooView<T> coo;
};

template <class T>
class Hyb {
 public:
  Hyb() = default;
  // HYB of a host CSR with K = hyb_ell_width(analyze(a)).
  static Hyb from_csr(const CsrView<T>& a);
  static Hyb from_csr(const Csr<T>& a) { return from_csr(a.view()); }
  // HYB with an explicit ELL width K >= 0 (ArgumentError if negative).
  static Hyb from_csr(const CsrView<T>& a, offset_t ell_width);

  vertex_t n_rows() const noexcept { return ell_.n_rows(); }
  vertex_t n_cols() const noexcept { return ell_.n_cols(); }
  offset_t ell_width() const noexcept { return ell_.width(); }
  const Ell<T>& ell() const noexcept { return ell_; }
  const CooMatrix<T>& coo() const noexcept { return coo_; }

  HybView<T> view() const noexcept { return {ell_.view(), coo_.view()}; }
  std::size_t bytes() const noexcept { return ell_.bytes() + coo_.bytes(); }

 private:
  Ell<T> ell_;
  CooMatrix<T> coo_;
};

extern template class Hyb<float>;
extern template class Hyb<double>;

}  // namespace graphrun
