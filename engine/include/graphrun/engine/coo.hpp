// COO (coordinate) format: one (row, col, value) triple per stored entry.
//
//   row[k], col[k], val[k]   k = 0 .. nnz-1, in any order, duplicates allowed
//
// `val` may be empty: the matrix is then a pattern (every entry is 1).
// COO is the assembly format the readers produce; kernels take CSR.
#pragma once

#include <vector>

#include "graphrun/engine/types.hpp"

namespace graphrun {

template <class T>
struct Coo {
  vertex_t n_rows = 0;
  vertex_t n_cols = 0;
  std::vector<vertex_t> row;
  std::vector<vertex_t> col;
  std::vector<T> val;  // empty for a pattern matrix

  offset_t nnz() const noexcept { return static_cast<offset_t>(row.size()); }
  bool is_pattern() const noexcept { return val.empty(); }
};

}  // namespace graphrun
