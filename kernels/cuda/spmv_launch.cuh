// The SpMV kernel launchers behind cuda::SpmvOperator::apply, one family per
// file (spmv_csr.cu, spmv_coo.cu, spmv_ell.cu, spmv_jds.cu,
// spmv_merge_path.cu, spmv_sell.cu), each compiled once for the semiring / value type
// pairs of GRAPHRUN_CUDA_SPMV_COMBOS. All launch on `stream` and return
// without waiting. They take the formats' views (engine/formats/*.hpp), the
// same types as on the host, over device pointers.
//
// Below them, detail::SpmvKernel<F>: what the operator does for each format F
// of the table (engine/spmv_format_table.hpp), reached through
// visit_spmv_format. A specialization has
//
//   template <class T> using State = ...;   what build() derives, kept by the
//                                           operator (with bytes())
//   template <class T>
//   static State<T> build(const DeviceCsr<T>& a, const RowStats& stats, int threads_per_row);
//   template <class S, class T, class X>
//   static void apply(const State<T>&, const CsrView<T>& a, const X* x, V* y, Mask,
//                     Carries, cudaStream_t);      (X: V, or a narrower type widened
//                                                  as it is gathered)
//
// and, where not the defaults of SpmvKernelDefaults, carry_blocks(state)
// (per-block scratch slots apply needs; 0) and threads_per_row(state) (1).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/cuda/coo.hpp"
#include "graphrun/engine/cuda/csr_bins.hpp"
#include "graphrun/engine/cuda/ell.hpp"
#include "graphrun/engine/cuda/hyb.hpp"
#include "graphrun/engine/cuda/jds.hpp"
#include "graphrun/engine/cuda/merge_path.hpp"
#include "graphrun/engine/cuda/sell.hpp"
#include "graphrun/engine/device_csr.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/row_stats.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/engine/spmv_format_table.hpp"
#include "graphrun/kernels/combos.hpp"
#include "graphrun/kernels/mask.hpp"

namespace graphrun::cuda::detail {

// Merge-path and COO tiles: threads per block and items per thread.
inline constexpr int tile_block = 256;
inline constexpr int tile_items_per_thread = 4;
inline constexpr int tile_items = tile_block * tile_items_per_thread;

// Scratch for rows split between blocks: a row id (-1: none) and a partial
// value per block; values are stored in 8 bytes whatever the semiring.
struct Carries {
  vertex_t* row = nullptr;
  void* value = nullptr;
};

// CSR, `width` threads per row (1: thread per row; 2..32, a power of two:
// a sub-warp per row).
template <class S, class T, class X>
void launch_csr(const CsrView<T>& a, int width, const X* x, typename S::value_type* y, Mask mask,
                cudaStream_t stream);

// The sub-warp width csr-warp uses for a matrix with these row statistics
// (2..32; spmv_csr.cu has the measurements).
int csr_warp_width(const RowStats& s);

// CSR with its rows binned by length (csr-bins): one grid, a range of
// blocks per bin; writes every row the mask allows.
template <class S, class T, class X>
void launch_csr_bins(const DeviceCsrBins& s, const CsrView<T>& a, const X* x,
                     typename S::value_type* y, Mask mask, cudaStream_t stream);

// COO: a segmented reduction by row over tiles of entries. `accumulate`:
// y(i) = y(i) ⊕ (row i's entries) and rows without entries untouched (HYB's
// COO part after its ELL part); otherwise y(i) = row i's sum, S::zero() for
// rows without entries. `carries` holds coo_blocks(nnz) slots.
template <class S, class T, class X>
void launch_coo(const CooView<T>& a, bool accumulate, const X* x, typename S::value_type* y,
                Mask mask, Carries carries, cudaStream_t stream);
offset_t coo_blocks(offset_t nnz);

// ELL, a thread per row; writes every row the mask allows.
template <class S, class T, class X>
void launch_ell(const EllView<T, vertex_t>& a, const X* x, typename S::value_type* y, Mask mask,
                cudaStream_t stream);

// JDS, a thread per permuted row.
template <class S, class T, class X>
void launch_jds(const JdsView<T, vertex_t>& a, const X* x, typename S::value_type* y, Mask mask,
                cudaStream_t stream);

template <class S, class T, class X>
void launch_sell(const SellView<T>& a, const X* x, typename S::value_type* y, Mask mask,
                 cudaStream_t stream);

// Merge-path CSR over a partition of tile_items items per share; `carries`
// holds part.shares slots.
template <class S, class T, class X>
void launch_merge_path(const MergePathView<T>& part, const X* x, typename S::value_type* y,
                       Mask mask, Carries carries, cudaStream_t stream);

// ------------------------------------------------- the formats of the table

template <SpmvFormat F>
struct SpmvKernel;

struct SpmvKernelDefaults {
  template <class State>
  static offset_t carry_blocks(const State&) {
    return 0;
  }
  template <class State>
  static int threads_per_row(const State&) {
    return 1;
  }
  template <class State>
  static int column_parts(const State&) {
    return 1;
  }
};

// What a format's build may use besides the matrix and its statistics.
struct BuildHints {
  int threads_per_row = 0;  // csr-warp's width asked for (0: its own rule)
  // The row of every entry, where the caller has it (the transpose's sorted
  // keys): COO takes it instead of writing its own; empty otherwise.
  DeviceArray<vertex_t> row_of_entry;
  // Bytes of each x entry the applies will gather (0: the matrix's value
  // type) and SELL's column parts asked for (0: sell_column_parts' rule).
  int gather_bytes = 0;
  int column_parts = 0;

  int gather_width(int value_bytes) const { return gather_bytes > 0 ? gather_bytes : value_bytes; }
};

// The CSR kernels derive nothing: their state is the threads per row.
struct CsrRows {
  int width = 1;
  std::size_t bytes() const noexcept { return 0; }
};

struct SpmvCsrKernel : SpmvKernelDefaults {
  template <class T>
  using State = CsrRows;
  static int threads_per_row(const CsrRows& s) { return s.width; }
  template <class S, class T, class X>
  static void apply(const CsrRows& s, const CsrView<T>& a, const X* x, typename S::value_type* y,
                    Mask mask, Carries, cudaStream_t stream) {
    launch_csr<S, T, X>(a, s.width, x, y, mask, stream);
  }
};

template <>
struct SpmvKernel<SpmvFormat::csr_thread> : SpmvCsrKernel {
  template <class T>
  static CsrRows build(const DeviceCsr<T>&, const RowStats&, BuildHints&) {
    return {1};
  }
};

// threads_per_row: 0 for the width of csr_warp_width, else 2..32.
template <>
struct SpmvKernel<SpmvFormat::csr_warp> : SpmvCsrKernel {
  template <class T>
  static CsrRows build(const DeviceCsr<T>&, const RowStats& stats, BuildHints& hints) {
    return {hints.threads_per_row != 0 ? hints.threads_per_row : csr_warp_width(stats)};
  }
};

// csr-bins: the rows grouped by bin beside the CSR.
template <>
struct SpmvKernel<SpmvFormat::csr_bins> : SpmvKernelDefaults {
  template <class T>
  using State = DeviceCsrBins;
  template <class T>
  static DeviceCsrBins build(const DeviceCsr<T>& a, const RowStats&, BuildHints&) {
    return build_csr_bins(a);
  }
  template <class S, class T, class X>
  static void apply(const DeviceCsrBins& s, const CsrView<T>& a, const X* x,
                    typename S::value_type* y, Mask mask, Carries, cudaStream_t stream) {
    launch_csr_bins<S, T, X>(s, a, x, y, mask, stream);
  }
};

// COO: a row index beside the CSR's own columns and values.
template <>
struct SpmvKernel<SpmvFormat::coo> : SpmvKernelDefaults {
  template <class T>
  using State = DeviceCooRows;
  template <class T>
  static DeviceCooRows build(const DeviceCsr<T>& a, const RowStats&, BuildHints& hints) {
    return build_coo_rows(a, std::move(hints.row_of_entry));
  }
  static offset_t carry_blocks(const DeviceCooRows& s) { return coo_blocks(s.nnz()); }
  template <class S, class T, class X>
  static void apply(const DeviceCooRows& s, const CsrView<T>& a, const X* x,
                    typename S::value_type* y, Mask mask, Carries carries, cudaStream_t stream) {
    launch_coo<S, T, X>(s.view(a), false, x, y, mask, carries, stream);
  }
};

template <>
struct SpmvKernel<SpmvFormat::ell> : SpmvKernelDefaults {
  template <class T>
  using State = DeviceEll<T>;
  template <class T>
  static DeviceEll<T> build(const DeviceCsr<T>& a, const RowStats& stats, BuildHints&) {
    return build_ell(a, stats);
  }
  template <class S, class T, class X>
  static void apply(const DeviceEll<T>& s, const CsrView<T>&, const X* x, typename S::value_type* y,
                    Mask mask, Carries, cudaStream_t stream) {
    launch_ell<S, T, X>(s.view(), x, y, mask, stream);
  }
};

// HYB: the ELL part, then the COO part accumulating into the same rows.
template <>
struct SpmvKernel<SpmvFormat::hyb> : SpmvKernelDefaults {
  template <class T>
  using State = DeviceHyb<T>;
  template <class T>
  static DeviceHyb<T> build(const DeviceCsr<T>& a, const RowStats& stats, BuildHints&) {
    return build_hyb(a, stats);
  }
  template <class T>
  static offset_t carry_blocks(const DeviceHyb<T>& s) {
    return coo_blocks(s.coo.nnz());
  }
  template <class S, class T, class X>
  static void apply(const DeviceHyb<T>& s, const CsrView<T>&, const X* x, typename S::value_type* y,
                    Mask mask, Carries carries, cudaStream_t stream) {
    const HybView<T, vertex_t> v = s.view();
    launch_ell<S, T, X>(v.ell, x, y, mask, stream);
    launch_coo<S, T, X>(v.coo, true, x, y, mask, carries, stream);
  }
};

template <>
struct SpmvKernel<SpmvFormat::jds> : SpmvKernelDefaults {
  template <class T>
  using State = DeviceJds<T>;
  template <class T>
  static DeviceJds<T> build(const DeviceCsr<T>& a, const RowStats&, BuildHints&) {
    return build_jds(a);
  }
  template <class S, class T, class X>
  static void apply(const DeviceJds<T>& s, const CsrView<T>&, const X* x, typename S::value_type* y,
                    Mask mask, Carries, cudaStream_t stream) {
    launch_jds<S, T, X>(s.view(), x, y, mask, stream);
  }
};

// Merge-path: shares of tile_items items, a block each.
template <>
struct SpmvKernel<SpmvFormat::merge_path> : SpmvKernelDefaults {
  template <class T>
  using State = DeviceMergePath;
  template <class T>
  static DeviceMergePath build(const DeviceCsr<T>& a, const RowStats&, BuildHints&) {
    return build_merge_path(a, offset_t{tile_items});
  }
  static offset_t carry_blocks(const DeviceMergePath& s) { return s.shares; }
  template <class S, class T, class X>
  static void apply(const DeviceMergePath& s, const CsrView<T>& a, const X* x,
                    typename S::value_type* y, Mask mask, Carries carries, cudaStream_t stream) {
    launch_merge_path<S, T, X>(s.view(a), x, y, mask, carries, stream);
  }
};

// SELL-32-σ: built on the device (FormatError past its fill limit).
template <>
struct SpmvKernel<SpmvFormat::sell> : SpmvKernelDefaults {
  template <class T>
  using State = DeviceSell<T>;
  template <class T>
  static DeviceSell<T> build(const DeviceCsr<T>& a, const RowStats& stats, BuildHints& hints) {
    if (hints.column_parts > 0) return build_sell(a, sell_window(stats), hints.column_parts);
    const int gather = hints.gather_width(static_cast<int>(sizeof(T)));
    const int parts = sell_column_parts(a.n_cols(), a.nnz(), a.n_rows(), gather, l2_cache_bytes());
    try {
      return build_sell(a, sell_window(stats), parts);
    } catch (const FormatError&) {  // the parts' slices padded past the limit
      if (parts == 1) throw;
    } catch (const DeviceMemoryError&) {  // the parts' padding does not fit
      if (parts == 1) throw;
    }
    return build_sell(a, sell_window(stats), 1);
  }
  template <class T>
  static int column_parts(const DeviceSell<T>& s) {
    return s.n_parts;
  }
  template <class S, class T, class X>
  static void apply(const DeviceSell<T>& s, const CsrView<T>&, const X* x,
                    typename S::value_type* y, Mask mask, Carries, cudaStream_t stream) {
    launch_sell<S, T, X>(s.view(), x, y, mask, stream);
  }
};

}  // namespace graphrun::cuda::detail
