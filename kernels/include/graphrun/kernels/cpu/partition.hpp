// Static partition of CSR rows into parts of equal work, for OpenMP loops.
//
// The work of row i is its length plus one (an empty row still costs a
// visit), so part p of P covers the rows whose cumulative work
// row_ptr[i] + i lies in [p*W/P, (p+1)*W/P), W = nnz + n_rows. The split
// points come from a binary search on row_ptr: O(P log n), no scratch
// memory, and the same partition for the same matrix and P (determinism).
// A single row longer than W/P still lands in one part; merge-path (a later
// format) splits inside rows.
#pragma once

#include "graphrun/engine/types.hpp"

namespace graphrun::cpu {

// First row of part `p` of `parts` (p = parts gives n_rows).
inline vertex_t partition_begin(const offset_t* row_ptr, vertex_t n_rows, int parts, int p) {
  if (p <= 0 || n_rows == 0) return 0;
  if (p >= parts) return n_rows;
  const offset_t total = row_ptr[n_rows] + n_rows;
  const offset_t target = (total / parts) * p + (total % parts) * p / parts;
  // Smallest i in [0, n_rows] with row_ptr[i] + i >= target.
  vertex_t lo = 0, hi = n_rows;
  while (lo < hi) {
    const vertex_t mid = lo + (hi - lo) / 2;
    if (row_ptr[mid] + mid < target)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

}  // namespace graphrun::cpu
