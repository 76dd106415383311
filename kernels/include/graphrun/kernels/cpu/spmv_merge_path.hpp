// SpMV on the CPU over the merge-path partition of CSR (Merrill & Garland,
// SC'16; the partition is engine/formats/merge_path.hpp).
//
// The merge path of row ends and entries is cut into shares of equal length
// (rows + entries), so every thread gets the same work even when one row
// holds most entries (a power-law hub, which a row split gives to one
// thread). Each share reduces the rows it closes and writes their y; the
// row it ends inside leaves a partial sum, its carry-out. After all shares,
// a serial fix-up adds the carry-outs, share by share in order, into their
// rows. The result depends on the partition only, never on which thread
// runs a share, so it is bit-identical run to run for a given number of
// shares (and spmv_merge_path picks that from the thread count alone).
// Floating-point sums of split rows are associated differently from a
// serial loop: PlusTimes agrees with the CSR reference within rounding;
// min, max and or exactly.
//
//   spmv_merge_path<S>(a, x, y, mask, threads)        partition on the fly
//   spmv_merge_path<S>(partition.view(a), x, y, mask, threads)
//   spmv_merge_path_reference<S>(partition.view(a), x, y, mask)
//
// The reference walks the merge path one step at a time, literally as in
// the paper (close a row while row_end <= entry, else take the entry), share
// after share, then fixes up: slow, serial, obviously the algorithm.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/formats/merge_path.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/kernels/cpu/spmv_csr.hpp"  // reduce_entries, GRAPHRUN_SPMV_COMBOS
#include "graphrun/kernels/cpu/spmv_kernel.hpp"
#include "graphrun/kernels/mask.hpp"
#include "graphrun/kernels/semiring_traits.hpp"

namespace graphrun::cpu {

// The partial sum a share leaves for the row it ends inside.
template <class V>
struct MergeCarry {
  vertex_t row = 0;
  V value{};
  bool present = false;  // false: the share ends on a row boundary
};

// How many shares spmv_merge_path(CsrView...) cuts for `threads` threads and
// this much work (rows + nnz): eight per thread, handed out dynamically, as
// many as the CSR kernel has blocks. Equal steps are not equal time (a row
// step costs more than an entry step, a hub's sorted columns gather faster
// than scattered ones, a core may be slowed by another process), so shares
// need the same slack as blocks: with one share per thread merge-path ran
// 10-40% behind the CSR kernel on R-MAT and real graphs at 2-16 threads (80%
// on R-MAT at 64); with eight it is level within the measurement's noise, up
// to 20% behind at 64 threads (engine/src/spmv_format_choice.cpp has the
// figures). One share when the work is too small to pay for a parallel
// region. A function of its arguments alone, so results are reproducible per
// thread count.
inline int merge_path_shares(int threads, offset_t work) {
  constexpr int shares_per_thread = 8;
  constexpr offset_t min_share_work = 1 << 12;
  const offset_t useful = std::max<offset_t>(1, work / min_share_work);
  if (threads <= 1 || useful == 1) return 1;
  return static_cast<int>(std::min<offset_t>(offset_t{threads} * shares_per_thread, useful));
}

namespace detail {

// One share [from, to) of the merge path: writes y for the rows it closes
// (those the mask allows) and returns its carry-out.
template <class S, bool Pattern, bool Masked, class T>
MergeCarry<typename S::value_type> merge_path_share(const CsrView<T>& a, MergeCoord from,
                                                    MergeCoord to, const typename S::value_type* x,
                                                    typename S::value_type* y, Mask mask) {
  offset_t k = from.entry;
  for (vertex_t i = from.row; i < to.row; ++i) {
    const offset_t row_end = a.row_ptr[i + 1];
    if (!Masked || mask.allows(i)) y[i] = reduce_entries<S, Pattern>(a, k, row_end, x);
    k = row_end;
  }
  MergeCarry<typename S::value_type> carry;
  carry.row = to.row;
  if (k < to.entry && (!Masked || mask.allows(to.row))) {
    carry.value = reduce_entries<S, Pattern>(a, k, to.entry, x);
    carry.present = true;
  }
  return carry;
}

// The fix-up: carry-outs added into their rows, in share order.
template <class S>
void merge_path_fixup(const std::vector<MergeCarry<typename S::value_type>>& carries,
                      typename S::value_type* y) {
  for (const auto& c : carries)
    if (c.present) y[c.row] = S::add(y[c.row], c.value);
}

template <class S, bool Pattern, bool Masked, class T, class StartOf>
void spmv_merge_path_impl(const CsrView<T>& a, int shares, StartOf start_of,
                          const typename S::value_type* x, typename S::value_type* y, Mask mask,
                          int threads) {
  using V = typename S::value_type;
  if (shares == 1) {  // the whole path: no row is split, nothing to fix up
    merge_path_share<S, Pattern, Masked>(a, start_of(0), start_of(1), x, y, mask);
    return;
  }
  std::vector<MergeCarry<V>> carries(static_cast<std::size_t>(shares));
#pragma omp parallel for num_threads(std::max(1, std::min(threads, shares))) schedule(dynamic, 1)
  for (int p = 0; p < shares; ++p)
    carries[p] = merge_path_share<S, Pattern, Masked>(a, start_of(p), start_of(p + 1), x, y, mask);
  merge_path_fixup<S>(carries, y);
}

template <class S, class T, class StartOf>
void spmv_merge_path_dispatch(const CsrView<T>& a, int shares, StartOf start_of,
                              const typename S::value_type* x, typename S::value_type* y, Mask mask,
                              int threads) {
  const bool pattern = a.values == nullptr;
  if (pattern) {
    if (mask.active())
      spmv_merge_path_impl<S, true, true>(a, shares, start_of, x, y, mask, threads);
    else
      spmv_merge_path_impl<S, true, false>(a, shares, start_of, x, y, mask, threads);
  } else {
    if (mask.active())
      spmv_merge_path_impl<S, false, true>(a, shares, start_of, x, y, mask, threads);
    else
      spmv_merge_path_impl<S, false, false>(a, shares, start_of, x, y, mask, threads);
  }
}

}  // namespace detail

// y = A ⊕.⊗ x over a given partition, its shares spread over `threads`
// OpenMP threads. x has n_cols entries, y n_rows; they must not overlap.
template <class S, class T>
void spmv_merge_path(const MergePathView<T>& a, const typename S::value_type* x,
                     typename S::value_type* y, Mask mask, int threads) {
  detail::spmv_merge_path_dispatch<S>(
      a.csr, a.shares, [a](int p) { return a.start(p); }, x, y, mask, threads);
}

// y = A ⊕.⊗ x with merge_path_shares(threads, rows + nnz) shares, whose
// starts each thread finds by its own binary search (no partition kept).
template <class S, class T>
void spmv_merge_path(const CsrView<T>& a, const typename S::value_type* x,
                     typename S::value_type* y, Mask mask, int threads) {
  const offset_t total = offset_t{a.n_rows} + a.nnz;
  const int shares = merge_path_shares(threads, total);
  const offset_t length = total / shares + (total % shares != 0);
  const offset_t* row_end = a.row_ptr + 1;
  auto start_of = [=](int p) {
    return merge_path_search(std::min(total, offset_t{p} * length), row_end, a.n_rows, a.nnz);
  };
  detail::spmv_merge_path_dispatch<S>(a, shares, start_of, x, y, mask, threads);
}

// The serial reference: the merge walked step by step, share after share,
// then the fix-up in share order.
template <class S, class T>
void spmv_merge_path_reference(const MergePathView<T>& mp, const typename S::value_type* x,
                               typename S::value_type* y, Mask mask = {}) {
  using V = typename S::value_type;
  const CsrView<T>& a = mp.csr;
  std::vector<MergeCarry<V>> carries(static_cast<std::size_t>(mp.shares));
  for (int p = 0; p < mp.shares; ++p) {
    vertex_t i = mp.start_row[p];
    offset_t k = mp.start_entry[p];
    const MergeCoord end = mp.start(p + 1);
    V acc = S::zero();
    bool open = false;  // acc holds entries of row i
    while (i < end.row || k < end.entry) {
      if (i < end.row && a.row_ptr[i + 1] <= k) {  // close row i
        if (mask.allows(i)) y[i] = acc;
        acc = S::zero();
        open = false;
        ++i;
      } else {  // take entry k
        acc = S::add(acc, S::mul(semiring_entry<S>(a.value(k)), x[a.col_idx[k]]));
        open = true;
        ++k;
      }
    }
    if (open && mask.allows(i)) carries[p] = {i, acc, true};
  }
  detail::merge_path_fixup<S>(carries, y);
}

// SpmvFormat::merge_path: the parallel kernel, its shares cut on the fly from
// the CSR (merge_path_shares), or over a partition already made.
template <>
struct SpmvKernel<SpmvFormat::merge_path> {
  template <class S, class T>
  static void run(const CsrView<T>& a, const typename S::value_type* x, typename S::value_type* y,
                  Mask mask, int threads) {
    spmv_merge_path<S>(a, x, y, mask, threads);
  }
  template <class S, class T>
  static void apply(const MergePathView<T>& a, const typename S::value_type* x,
                    typename S::value_type* y, Mask mask, int threads) {
    spmv_merge_path<S>(a, x, y, mask, threads);
  }
};

#define GRAPHRUN_SPMV_MERGE_PATH_EXTERN(S, T)                                                      \
  extern template void spmv_merge_path<S, T>(                                                      \
      const MergePathView<T>&, const typename S::value_type*, typename S::value_type*, Mask, int); \
  extern template void spmv_merge_path<S, T>(const CsrView<T>&, const typename S::value_type*,     \
                                             typename S::value_type*, Mask, int);                  \
  extern template void spmv_merge_path_reference<S, T>(                                            \
      const MergePathView<T>&, const typename S::value_type*, typename S::value_type*, Mask);
GRAPHRUN_SPMV_COMBOS(GRAPHRUN_SPMV_MERGE_PATH_EXTERN)
#undef GRAPHRUN_SPMV_MERGE_PATH_EXTERN

}  // namespace graphrun::cpu
