// What the CPU SpGEMM's row agents (spgemm_row_*.hpp) share: the operands
// with their entries as the semiring reads them, the per-thread tables they
// work in, and the sort of a row's columns.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "graphrun/engine/csr.hpp"
#include "graphrun/kernels/semiring_traits.hpp"
#include "spgemm_plan.hpp"

namespace graphrun::cpu::spgemm_detail {

// A and B as an agent reads them: a pattern's entries are ones, every entry
// enters the semiring through semiring_entry<S>.
template <class S, class T>
class RowOperands {
 public:
  using V = typename S::value_type;
  RowOperands(const CsrView<T>& a, const CsrView<T>& b) : a_(a), b_(b) {}

 protected:
  V a_entry(offset_t ka) const { return semiring_entry<S>(a_.value(ka)); }
  V b_entry(offset_t kb) const { return semiring_entry<S>(b_.value(kb)); }

  const CsrView<T>& a_;
  const CsrView<T>& b_;
};

// Per-thread scratch, sized once per call before any row runs (its shape is
// the plan's: workspace_shape). Every agent leaves its part as it found it
// (keys -1, bits 0, accumulators S::zero()) for the thread's next row.
template <class V>
struct Workspace {
  std::vector<vertex_t> keys;  // hash table keys, -1 = free
  std::vector<V> vals;         // hash table values (numeric phase)
  std::vector<std::uint64_t>
      bits;            // dense: columns seen in this row (1 bit each), zero between rows
  std::vector<V> acc;  // dense: the running sum of column j, S::zero() between rows
};

// The per-thread tables (one Workspace per thread) in the plan's shape,
// allocated before any parallel region, so that a failed allocation is an
// exception the caller sees rather than a crash inside OpenMP.
template <class V>
std::vector<Workspace<V>> make_workspaces(const WorkspaceShape& shape, int threads, V zero) {
  std::vector<Workspace<V>> ws(static_cast<std::size_t>(threads));
  for (Workspace<V>& w : ws) {
    w.keys.assign(shape.hash_slots, vertex_t{-1});
    w.vals.resize(shape.hash_slots);
    w.bits.assign(shape.bitmap_words, 0);  // empty where no row is dense
    w.acc.assign(shape.dense_cols, zero);
  }
  return ws;
}

// Sorts a row's columns: insertion sort for short rows (most rows of sparse
// products), where std::sort's set-up costs more than the sort.
inline void sort_columns(vertex_t* col, offset_t len) {
  if (len > 24) {
    std::sort(col, col + len);
    return;
  }
  for (offset_t t = 1; t < len; ++t) {
    const vertex_t x = col[t];
    offset_t u = t;
    for (; u > 0 && col[u - 1] > x; --u) col[u] = col[u - 1];
    col[u] = x;
  }
}

}  // namespace graphrun::cpu::spgemm_detail
