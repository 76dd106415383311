// JDS (jagged diagonal storage) as an SpMV format: rows sorted by decreasing
// length, then stored "diagonal" by diagonal, where diagonal d holds the d-th
// entry of every row long enough to have one.
//
//   perm[r]                  the row stored at position r, r = 0 .. n_rows-1:
//                            longest first, ties in row order (a stable
//                            sort), empty rows last
//   n_diag                   the longest row's length
//   jd_ptr[d] .. jd_ptr[d+1] diagonal d, d = 0 .. n_diag-1; it has count_d
//                            = jd_ptr[d+1] - jd_ptr[d] entries: one per row
//                            longer than d, i.e. positions r < count_d
//   col_idx[jd_ptr[d] + r]   column of entry d of row perm[r]
//   values [jd_ptr[d] + r]   its value; EMPTY for a pattern matrix
//
// No padding (count_d shrinks instead) and every diagonal is a contiguous
// run over consecutive sorted rows; y(perm[r]) accumulates entry d of
// position r.
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

// Non-owning view: the one JDS view, on the host (Jds::view(), host pointers,
// Diag = offset_t) and on the device (cuda::DeviceJds::view(), device
// pointers, Diag = vertex_t: the device kernel counts diagonals in 32 bits).
template <class T, class Diag = offset_t>
struct JdsView {
  static constexpr SpmvFormat format = SpmvFormat::jds;

  vertex_t n_rows = 0;
  vertex_t n_cols = 0;
  offset_t nnz = 0;
  Diag n_diag = 0;
  const vertex_t* perm = nullptr;    // n_rows
  const offset_t* jd_ptr = nullptr;  // n_diag + 1
  const vertex_t* col_idx = nullptr;
  const T* values = nullptr;  // nullptr for a pattern matrix

  GRAPHRUN_HD T value(offset_t k) const { return values ? values[k] : T(1); }
};

template <class T>
class Jds : public HostLayout<T> {
 public:
  Jds() : jd_ptr_(1, 0) {}
  // JDS of a host CSR.
  static Jds from_csr(const CsrView<T>& a);
  static Jds from_csr(const Csr<T>& a) { return from_csr(a.view()); }

  offset_t nnz() const noexcept { return static_cast<offset_t>(col_idx_.size()); }
  offset_t n_diag() const noexcept { return static_cast<offset_t>(jd_ptr_.size()) - 1; }
  const std::vector<vertex_t>& perm() const noexcept { return perm_; }
  const std::vector<offset_t>& jd_ptr() const noexcept { return jd_ptr_; }
  const std::vector<vertex_t>& col_idx() const noexcept { return col_idx_; }

  JdsView<T> view() const noexcept {
    return {this->n_rows_, this->n_cols_,  nnz(),           n_diag(),
            perm_.data(),  jd_ptr_.data(), col_idx_.data(), data_or_null(this->values_)};
  }
  std::size_t bytes() const noexcept { return bytes_of(perm_, jd_ptr_, col_idx_, this->values_); }

 private:
  std::vector<vertex_t> perm_;
  std::vector<offset_t> jd_ptr_;
  std::vector<vertex_t> col_idx_;
};

extern template class Jds<float>;
extern template class Jds<double>;

}  // namespace graphrun
