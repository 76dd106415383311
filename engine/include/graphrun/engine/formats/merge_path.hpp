// The merge-path partition of CSR (Merrill & Garland, "Merge-based parallel
// sparse matrix-vector multiplication", SC'16).
//
// SpMV over CSR is a merge of two sorted lists: the row ends
// A = row_ptr[1 .. n_rows] and the entry indices B = 0, 1, ..., nnz-1. Walking
// the merge, taking A[i] first while A[i] <= B[j], visits every entry of row
// i (B steps) and then closes the row (an A step). The path has
// n_rows + nnz steps; cutting it into P shares of equal length gives every
// thread the same amount of work (rows + entries) however skewed the rows:
// a long row is split between shares, an empty row still costs one step.
//
//   share_length    L = ceil((n_rows + nnz) / P)
//   start(p)        p = 0 .. P: the merge coordinate at diagonal
//                   min(p * L, n_rows + nnz): (row, entry) = (row ends
//                   consumed, entries consumed) before the share's first
//                   step; start(P) = (n_rows, nnz). Share p covers
//                   [start(p), start(p+1)).
//
// Each start comes from a binary search along its diagonal
// (merge_path_search), O(log n) and independent of the others. A share ends
// mid-row with a partial sum (its carry-out), which a fix-up adds to that
// row after all shares are done.
#pragma once

#include <algorithm>
#include <vector>

#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/host_device.hpp"
#include "graphrun/engine/row_stats.hpp"
#include "graphrun/engine/spmv_format_table.hpp"
#include "graphrun/engine/types.hpp"

namespace graphrun {

// A point on the merge path: `row` row ends and `entry` entries consumed.
struct MergeCoord {
  vertex_t row = 0;
  offset_t entry = 0;

  friend bool operator==(const MergeCoord&, const MergeCoord&) = default;
};

// The merge coordinate on `diagonal` (0 <= diagonal <= n_rows + nnz) of the
// merge of row_end[0 .. n_rows-1] (= row_ptr + 1) with 0 .. nnz-1: the
// largest row count i such that the first i row ends all come before entry
// diagonal - i in the merge (row_end[i-1] <= diagonal - i).
GRAPHRUN_HD inline MergeCoord merge_path_search(offset_t diagonal, const offset_t* row_end,
                                                vertex_t n_rows, offset_t nnz) {
  offset_t lo = diagonal > nnz ? diagonal - nnz : 0;
  offset_t hi = diagonal < offset_t{n_rows} ? diagonal : offset_t{n_rows};
  while (lo < hi) {
    const offset_t mid = lo + (hi - lo) / 2;
    if (row_end[mid] <= diagonal - mid - 1)
      lo = mid + 1;
    else
      hi = mid;
  }
  return {static_cast<vertex_t>(lo), diagonal - lo};
}

// Whether the CPU merge-path kernel is worth choosing over the CPU CSR kernel
// at `threads` threads: when the longest row is longer than a thread's share
// of the work, (n_rows + nnz) / threads, which the CSR kernel cannot split
// (and never for one thread, or for matrices too small to go parallel). The
// CPU branch of choose_spmv_format() asks it for OpenMP's default thread
// count; the measurements behind it are in engine/src/spmv_format_choice.cpp.
bool merge_path_pays_on_cpu(const RowStats& stats, int threads) noexcept;

// Non-owning view: the one merge-path view, on the host
// (MergePathPartition::view(a), host pointers) and on the device
// (cuda::DeviceMergePath::view(a), device pointers). The CSR it partitions
// and the starts of its shares, as two arrays:
//
//   start_row[p], start_entry[p]   p = 0 .. shares: the merge coordinate
//                                  where share p starts (start(p))
template <class T>
struct MergePathView {
  static constexpr SpmvFormat format = SpmvFormat::merge_path;

  CsrView<T> csr;
  int shares = 0;
  offset_t share_length = 0;              // merge items per share (the last may be shorter)
  const vertex_t* start_row = nullptr;    // shares + 1
  const offset_t* start_entry = nullptr;  // shares + 1

  GRAPHRUN_HD MergeCoord start(int p) const { return {start_row[p], start_entry[p]}; }
};

class MergePathPartition {
 public:
  MergePathPartition() : start_row_(2), start_entry_(2) {}
  // Cuts the merge path of a CSR with these row offsets (host memory) into
  // `shares` >= 1 shares (ArgumentError otherwise).
  MergePathPartition(const offset_t* row_ptr, vertex_t n_rows, int shares);
  template <class T>
  MergePathPartition(const CsrView<T>& a, int shares)
      : MergePathPartition(a.row_ptr, a.n_rows, shares) {}

  int shares() const noexcept { return static_cast<int>(start_row_.size()) - 1; }
  offset_t share_length() const noexcept { return share_length_; }
  MergeCoord start(int p) const noexcept { return {start_row_[p], start_entry_[p]}; }
  // The shares + 1 starts as coordinates.
  std::vector<MergeCoord> starts() const;

  template <class T>
  MergePathView<T> view(const CsrView<T>& a) const noexcept {
    return {a, shares(), share_length_, start_row_.data(), start_entry_.data()};
  }

 private:
  offset_t share_length_ = 0;
  std::vector<vertex_t> start_row_;
  std::vector<offset_t> start_entry_;
};

}  // namespace graphrun
