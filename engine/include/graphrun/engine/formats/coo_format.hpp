// COO as an SpMV format: one (row, col, value) triple per stored entry,
// built from CSR and therefore sorted by (row, col).
//
//   row_idx[k], col_idx[k]   k = 0 .. nnz-1, sorted by (row, col), unique
//   values[k]                the entry; EMPTY for a pattern matrix (all ones)
//
// Unlike the assembly Coo<T> (engine/coo.hpp: any order, duplicates), this
// one is a faithful copy of a Csr<T> in another layout: it exists so that
// every nonzero is an independent work item (the GPU gives each a thread,
// and a segmented reduction by row finishes the sums). The device's COO
// (engine/cuda/coo.hpp) has the same arrays and the same view.
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

// Non-owning view: the one COO view, on the host (CooMatrix::view(), host
// pointers) and on the device (cuda::DeviceCoo::view(), device pointers).
template <class T>
struct CooView {
  static constexpr SpmvFormat format = SpmvFormat::coo;

  vertex_t n_rows = 0;
  vertex_t n_cols = 0;
  offset_t nnz = 0;
  const vertex_t* row_idx = nullptr;
  const vertex_t* col_idx = nullptr;
  const T* values = nullptr;  // nullptr for a pattern matrix
  // The rows with no entry, ascending, where the builder lists them (the
  // device's build_coo: what an SpMV without accumulation sets to the
  // semiring's zero); nullptr and 0 otherwise (host COO, HYB's COO part).
  const vertex_t* empty_rows = nullptr;
  vertex_t n_empty = 0;

  GRAPHRUN_HD T value(offset_t k) const { return values ? values[k] : T(1); }
};

template <class T>
class CooMatrix : public HostLayout<T> {
 public:
  CooMatrix() = default;
  // The entries of `a` (a host CSR) in row-major COO order.
  static CooMatrix from_csr(const CsrView<T>& a);
  static CooMatrix from_csr(const Csr<T>& a) { return from_csr(a.view()); }

  offset_t nnz() const noexcept { return static_cast<offset_t>(col_idx_.size()); }
  const std::vector<vertex_t>& row_idx() const noexcept { return row_idx_; }
  const std::vector<vertex_t>& col_idx() const noexcept { return col_idx_; }

  CooView<T> view() const noexcept {
    return {this->n_rows_,   this->n_cols_,   nnz(),
            row_idx_.data(), col_idx_.data(), data_or_null(this->values_)};
  }
  std::size_t bytes() const noexcept { return bytes_of(row_idx_, col_idx_, this->values_); }

 private:
  std::vector<vertex_t> row_idx_;
  std::vector<vertex_t> col_idx_;
};

extern template class CooMatrix<float>;
extern template class CooMatrix<double>;

}  // namespace graphrun
