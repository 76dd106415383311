// CSR in device memory: the same three arrays as Csr<T> (row_ptr, col_idx,
// values; values empty for a pattern matrix), owned by DeviceArrays. The graph
// is uploaded once; kernels take view(), whose pointers are device pointers.
//
//   DeviceCsr<double> d(host_csr);        // upload
//   cuda::SpmvOperator<double> op(d, SpmvFormat::automatic);
//   Csr<double> back = d.download();
//
// Defined in CUDA builds only (included by sources under cuda/ folders).
#pragma once

#include <span>
#include <vector>

#include "graphrun/engine/array_bytes.hpp"
#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/graph.hpp"
#include "graphrun/engine/row_stats.hpp"
#include "graphrun/engine/vertex_order.hpp"

namespace graphrun {

template <class T>
class DeviceCsr {
 public:
  DeviceCsr() = default;
  // Uploads a host matrix (the one upload of CSR to the device; values only
  // where the matrix has them).
  explicit DeviceCsr(const CsrView<T>& a)
      : n_rows_(a.n_rows),
        n_cols_(a.n_cols),
        row_ptr_(std::span<const offset_t>(a.row_ptr, static_cast<std::size_t>(a.n_rows) + 1)),
        col_idx_(std::span<const vertex_t>(a.col_idx, static_cast<std::size_t>(a.nnz))),
        values_(a.values
                    ? DeviceArray<T>(std::span<const T>(a.values, static_cast<std::size_t>(a.nnz)))
                    : DeviceArray<T>()) {}
  explicit DeviceCsr(const Csr<T>& a) : DeviceCsr(a.view()) {}
  // Takes already-filled device arrays (a kernel's output); values may be empty.
  DeviceCsr(vertex_t n_rows, vertex_t n_cols, DeviceArray<offset_t> row_ptr,
            DeviceArray<vertex_t> col_idx, DeviceArray<T> values)
      : n_rows_(n_rows),
        n_cols_(n_cols),
        row_ptr_(std::move(row_ptr)),
        col_idx_(std::move(col_idx)),
        values_(std::move(values)) {}

  vertex_t n_rows() const noexcept { return n_rows_; }
  vertex_t n_cols() const noexcept { return n_cols_; }
  offset_t nnz() const noexcept { return static_cast<offset_t>(col_idx_.size()); }
  bool is_pattern() const noexcept { return values_.size() == 0; }

  CsrView<T> view() const noexcept {
    return {n_rows_,         n_cols_,         nnz(),
            row_ptr_.data(), col_idx_.data(), is_pattern() ? nullptr : values_.data()};
  }
  const DeviceArray<offset_t>& row_ptr() const noexcept { return row_ptr_; }
  const DeviceArray<vertex_t>& col_idx() const noexcept { return col_idx_; }
  const DeviceArray<T>& values() const noexcept { return values_; }

  std::size_t bytes() const noexcept { return bytes_of(row_ptr_, col_idx_, values_); }

  Csr<T> download() const {
    return Csr<T>(n_rows_, n_cols_, row_ptr_.download(), col_idx_.download(), values_.download());
  }

 private:
  vertex_t n_rows_ = 0;
  vertex_t n_cols_ = 0;
  DeviceArray<offset_t> row_ptr_;
  DeviceArray<vertex_t> col_idx_;
  DeviceArray<T> values_;
};

// Uploads `a` with values even where it is a pattern (ones then), for
// libraries that multiply stored values, as cuSPARSE does.
template <class T>
DeviceCsr<T> upload_with_values(const CsrView<T>& a) {
  if (a.values) return DeviceCsr<T>(a);
  const std::vector<T> ones(static_cast<std::size_t>(a.nnz), T(1));
  CsrView<T> valued = a;
  valued.values = ones.data();
  return DeviceCsr<T>(valued);
}

// A graph's adjacency in GPU memory (Graph::device_adjacency): values
// present when the graph is weighted.
struct DeviceAdjacency {
  DeviceCsr<double> csr;
};

// Aᵀ, built on the device (engine/src/cuda/transpose.cu): the same arrays
// as uploading the host's a.transpose(), columns sorted within each row.
// `row_of_entry`, when given, receives the row of each of Aᵀ's entries (the
// sort's keys, a by-product: COO's row index, cuda::build_coo_rows).
// Returns when it is done on `stream`.
template <class T>
DeviceCsr<T> device_transpose(const DeviceCsr<T>& a, CUstream_st* stream = nullptr,
                              DeviceArray<vertex_t>* row_of_entry = nullptr);

// Row statistics computed on the device (engine/src/cuda/row_stats.cu): the
// same figures as analyze(a.view()) on the host, without copying row_ptr
// back.
template <class T>
RowStats analyze(const DeviceCsr<T>& a);

// The ordering vertex_order(a.view(), how) gives on the host (order[new] =
// old), computed on the device for the degree family
// (engine/src/cuda/vertex_order.cu); rcm is computed on the host from a
// copy of the pattern, and so is rabbit (`symmetric` as for vertex_order).
// Returns when it is done on `stream`.
template <class T>
DeviceArray<vertex_t> device_vertex_order(const DeviceCsr<T>& a, Reorder how,
                                          CUstream_st* stream = nullptr, bool symmetric = false);

// permute(a, order) on the device: B(i, j) = A(order[i], order[j]). With
// sort_columns false each row keeps its old row's entry order (columns
// renamed, not sorted): not a valid Csr, but all a transpose needs, which
// sorts them anyway. Returns when it is done on `stream`.
template <class T>
DeviceCsr<T> device_permute(const DeviceCsr<T>& a, const DeviceArray<vertex_t>& order,
                            bool sort_columns = true, CUstream_st* stream = nullptr);

}  // namespace graphrun
