// SpMV on the GPU: y = A ⊕.⊗ x over a semiring, with an optional mask, in any
// of the formats of spmv_format.hpp.
//
//   DeviceCsr<double> a(host_csr);                              // upload once
//   cuda::SpmvOperator<double> op(a, SpmvFormat::automatic);    // derive the format once
//   op.apply<PlusTimes<double>>(x, y);                          // every iteration
//   op.apply<OrAnd>(frontier, next, Mask{visited, true});       // BFS pull
//
// x, y and mask bits are device pointers. The operator builds its derived
// format (ELL, HYB, JDS, SELL, COO, merge-path partition) on the device from
// the CSR it was given and keeps a reference to that CSR, which must outlive
// it. SpmvFormat::automatic asks choose_spmv_format(); a format that refuses
// the matrix (FormatError, e.g. ELL past its padding limit) or does not fit
// beside it (DeviceMemoryError: the device, or the cap of
// set_device_memory_cap) makes `automatic` fall back to csr-warp, which needs
// nothing but the CSR, and an explicit request throw.
//
// Semirings: PlusTimes, MinPlus, MaxTimes over T, and OrAnd; T is float or
// double. apply() only launches kernels on `stream` (it does not wait). The
// tiled formats (coo, hyb, merge-path) keep per-block scratch in the
// operator: calls on one operator must not overlap (one stream, or
// synchronized). Results are deterministic: no atomics, the same order of
// additions on every run. Included by CUDA sources only (and by GPU tests
// inside their CUDA-build block): declares nothing a build without CUDA needs.
//
// The kernels (kernels/cuda/spmv_*.cu, each format's cuda::detail::SpmvKernel
// in spmv_launch.cuh, dispatched through the format table): csr-thread, a thread per row;
// csr-warp, 2..32 threads per row (the power of two at or above the mean row
// length) reduced by shuffles; ell and jds, a thread per row over their
// column-major layouts; coo, a segmented reduction by row over tiles of
// entries; hyb, ell then coo accumulating; merge-path, Merrill & Garland's
// equal shares of rows + entries with a carry-out fix-up.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>

#include "graphrun/engine/device_csr.hpp"
#include "graphrun/engine/spmv_format.hpp"
#include "graphrun/kernels/mask.hpp"

namespace graphrun::cuda {

// Where x is past a third of the GPU's L2, SELL splits the matrix into
// equal column parts so that each pass gathers from a part of x that the
// L2 holds (sell_column_parts, engine/formats/sell.hpp); its rule weighs the
// bytes of each gathered x entry, which only the caller knows.
struct SpmvLayoutHints {
  int gather_bytes = 0;  // each x entry apply() gathers (4 for x in float; 0: sizeof(T))
  int column_parts = 0;  // SELL's parts (0: its rule)
};

template <class T>
class SpmvOperator {
 public:
  // threads_per_row: for csr-warp, 2..32 (a power of two) instead of the
  // width chosen from the mean row length (0); other formats ignore it.
  // row_of_entry: the row of each of a's entries where the caller has it
  // already (device_transpose can hand it over), or empty; COO keeps it as
  // its row index instead of writing one, other formats let it go.
  // rows: how a's rows lie, for SpmvFormat::automatic's choice.
  // layout: how the format may split a's columns (below).
  SpmvOperator(const DeviceCsr<T>& a, SpmvFormat format, int threads_per_row = 0,
               DeviceArray<vertex_t> row_of_entry = {}, RowOrder rows = RowOrder::as_loaded,
               SpmvLayoutHints layout = {});
  ~SpmvOperator();
  SpmvOperator(SpmvOperator&&) noexcept;
  SpmvOperator& operator=(SpmvOperator&&) noexcept;

  SpmvFormat format() const noexcept;    // the concrete format in use
  std::size_t bytes() const noexcept;    // device bytes of the derived format (beyond the CSR)
  int threads_per_row() const noexcept;  // CSR kernels: 1 (csr-thread) or the sub-warp width
  int column_parts() const noexcept;     // SELL: its column parts; other formats 1

  // x in the semiring's value type, or (X = float for PlusTimes<double>,
  // GRAPHRUN_CUDA_SPMV_GATHER_COMBOS) narrower, each entry widened as it is
  // gathered: the products and sums stay in the semiring's type.
  template <class S, class X = typename S::value_type>
  void apply(const X* x, typename S::value_type* y, Mask mask = {},
             cudaStream_t stream = nullptr) const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace graphrun::cuda
