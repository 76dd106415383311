// SELL-C-σ (Kreutzer, Hager, Wellein, Fehske, Bishop, SIAM J. Sci. Comput.
// 36(5), 2014) as an SpMV format: the rows cut into slices of C = 32
// consecutive positions, each slice stored column-major like a small ELL
// padded to its own longest row; with a window σ > 32, the rows of every
// window of σ positions sorted by decreasing length first, so that a slice
// holds rows of like length and pads little. A GPU warp takes a slice, a
// lane a row.
//
//   perm[r]                          the row stored at position r: window w
//                                    (positions w σ .. w σ + σ - 1) holds rows
//                                    w σ .. w σ + σ - 1, longest first, ties in
//                                    row order (a stable sort)
//   slice_ptr[s] .. slice_ptr[s+1]   slice s's slots: C × its width, the
//                                    length of its longest row (the first,
//                                    with one column part)
//   col_idx[slice_ptr[s] + j C + l]  column of entry j of row perm[s C + l];
//                                    -1 in a padding slot (j >= that row's
//                                    length, or a position past the last row)
//                                    (with column parts: s = p n_slices + s',
//                                    and "entry j" the j-th of the row's
//                                    entries in part p)
//   values [same]                    its value (0 in padding); EMPTY for a pattern
//
// Against ELL: a slice pads only to its own rows, so one long row costs its
// own slice, not the whole matrix; against HYB: no second part for the long
// rows; against JDS: a row's result goes to a row of its own window, so a
// warp's stores fall within σ rows instead of anywhere. The window is the
// trade: sorting packs a warp's lanes, but spreads its stores over σ rows
// (each its own 32-byte sector), which on a uniform random graph (lengths
// within ±20% of the mean) cost more than the packing saved
// (sell_window, below). Padding is bounded: past ell_max_fill slots per entry
// (a hub beside 31 short rows in its slice, repeated) the format is refused
// (FormatError), as ELL is.
//
// Column parts. Where x is larger than the GPU's L2 can hold, the gathers of
// rows spread over all of x miss it; SELL then splits its columns into P
// parts, [p n_cols / P, (p + 1) n_cols / P), each stored as above (its own
// slices and widths, the one perm), and y = A_0 x_0 + ... + A_{P-1} x_{P-1}
// one part after another, each gathering from a P-th of x (cache blocking,
// as Im, Yelick and Vuduc's Sparsity for the CPU's caches). Every part past
// the first reads and writes y once more; sell_column_parts (below) weighs
// that. Part p's slice s is slice p n_slices + s of slice_ptr.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "graphrun/engine/array_bytes.hpp"
#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/first_at_least.hpp"
#include "graphrun/engine/formats/host_layout.hpp"
#include "graphrun/engine/host_device.hpp"
#include "graphrun/engine/row_stats.hpp"
#include "graphrun/engine/spmv_format_table.hpp"
#include "graphrun/engine/types.hpp"

namespace graphrun {

// Rows per slice (a warp).
inline constexpr vertex_t sell_chunk = 32;

// The window σ for rows of these statistics: sell_chunk (no sorting past the
// slice's own rows) where row lengths vary little (cv <= 0.25), else 1024.
// Measured on an H100 (scripts/sell-probe.cu, the same kernel on a uniform
// random graph, 4M rows of 32 entries on average, cv 0.18, x in float): σ = 32
// 1.088 ms (38% padding: slots no lane loads), 256 1.088, 1024 1.103,
// 4096 1.107, the whole matrix (JDS's order) 1.138; with 16M rows 11.40,
// 11.76, 11.92, 12.00, 12.60 ms. Where lengths vary more, unsorted slices
// leave most lanes idle behind each slice's longest row.
vertex_t sell_window(const RowStats& stats) noexcept;

// The column parts for x entries of `gather_bytes` bytes on a device whose
// L2 holds `cache_bytes`: enough that each part's slice of x takes at most a
// third of the L2, and at most (mean row + 1) / 4 parts (a part's rows must
// keep enough entries to fill its slices). 1 where the
// whole of x fits, or cache_bytes <= 0 (the CPU). Measured on an H100 (50 MB
// of L2; scripts/split-probe.cu, a uniform random graph of 32 entries a row,
// x in double): 4M rows, 1 part 1.530 ms, 2 parts 1.116 ms, 3 1.128, 4 1.149;
// 16M rows, x in float: 1 part 11.45 ms, 2 6.39, 3 4.91, 4 4.55, 8 4.73; in
// double 14.68, 11.80, 9.17, 6.91 and 4.87 ms with 8 parts. The best in each
// case gathers from 16 MB of x a part, a third of that L2: the H100's L2 is
// two halves and a line read from SMs of both may take a place in each.
int sell_column_parts(vertex_t n_cols, offset_t nnz, vertex_t n_rows, int gather_bytes,
                      std::int64_t cache_bytes) noexcept;

// Non-owning view: the one SELL view, on the host (Sell::view()) and on the
// device (cuda::DeviceSell::view()).
template <class T>
struct SellView {
  static constexpr SpmvFormat format = SpmvFormat::sell;

  vertex_t n_rows = 0;
  vertex_t n_cols = 0;
  offset_t nnz = 0;
  vertex_t n_slices = 0;                // ceil(n_rows / sell_chunk), in each part
  const vertex_t* perm = nullptr;       // n_rows
  const offset_t* slice_ptr = nullptr;  // n_parts n_slices + 1
  const vertex_t* col_idx = nullptr;    // slice_ptr[n_parts n_slices] slots, -1 = padding
  const T* values = nullptr;            // nullptr for a pattern matrix
  vertex_t n_parts = 1;                 // column parts

  GRAPHRUN_HD T value(offset_t slot) const { return values ? values[slot] : T(1); }
};

template <class T>
class Sell : public HostLayout<T> {
 public:
  Sell() : slice_ptr_(1, 0) {}
  // SELL-32-σ of a host CSR with σ = `window` (a positive multiple of
  // sell_chunk; ArgumentError otherwise), or sell_window() of its row
  // statistics, in `parts` column parts (>= 1; ArgumentError otherwise);
  // FormatError past ell_max_fill slots per entry.
  static Sell from_csr(const CsrView<T>& a, vertex_t window, vertex_t parts = 1);
  static Sell from_csr(const CsrView<T>& a);
  static Sell from_csr(const Csr<T>& a) { return from_csr(a.view()); }

  offset_t nnz() const noexcept { return nnz_; }
  vertex_t n_parts() const noexcept { return n_parts_; }
  vertex_t n_slices() const noexcept {
    return static_cast<vertex_t>((slice_ptr_.size() - 1) / static_cast<std::size_t>(n_parts_));
  }
  const std::vector<vertex_t>& perm() const noexcept { return perm_; }
  const std::vector<offset_t>& slice_ptr() const noexcept { return slice_ptr_; }
  const std::vector<vertex_t>& col_idx() const noexcept { return col_idx_; }

  SellView<T> view() const noexcept {
    return {this->n_rows_,
            this->n_cols_,
            nnz_,
            n_slices(),
            perm_.data(),
            slice_ptr_.data(),
            col_idx_.data(),
            data_or_null(this->values_),
            n_parts_};
  }
  std::size_t bytes() const noexcept {
    return bytes_of(perm_, slice_ptr_, col_idx_, this->values_);
  }

 private:
  offset_t nnz_ = 0;
  vertex_t n_parts_ = 1;
  std::vector<vertex_t> perm_;
  std::vector<offset_t> slice_ptr_;
  std::vector<vertex_t> col_idx_;
};

// The slices of n_rows rows: ceil(n_rows / sell_chunk), counted without
// overflow near 2^31 rows.
constexpr vertex_t sell_slices(vertex_t n_rows) noexcept {
  return static_cast<vertex_t>((offset_t{n_rows} + sell_chunk - 1) / sell_chunk);
}

// Row i's first entry in column part p of `parts` (p = parts: its end) of
// a CSR whose columns are sorted within each row: part p's first column is
// n_cols p / parts, found by one binary search. The host and device
// builders share it.
GRAPHRUN_HD inline offset_t sell_part_entry(const offset_t* row_ptr, const vertex_t* col_idx,
                                            vertex_t n_cols, vertex_t parts, vertex_t i,
                                            vertex_t p) {
  if (p == 0) return row_ptr[i];
  if (p == parts) return row_ptr[i + 1];
  return first_at_least(col_idx, row_ptr[i], row_ptr[i + 1],
                        static_cast<vertex_t>(offset_t{n_cols} * p / parts));
}

// FormatError unless a layout of `slots` stored slots, whose last slice is
// `last_width` wide (summed over the column parts), fits under ell_max_fill for n_rows rows of nnz
// entries. The slots counted are those of existing rows (width × rows of each slice), as ELL counts
// width × n_rows: the last slice's positions past the last row are stored but not held against a
// small matrix. And ArgumentError unless `window` is a valid σ. Shared by the host and device
// builders.
void check_sell_fits(offset_t slots, offset_t last_width, vertex_t n_rows, offset_t nnz);
void check_sell_window(vertex_t window);
void check_sell_parts(vertex_t parts);

extern template class Sell<float>;
extern template class Sell<double>;

}  // namespace graphrun
