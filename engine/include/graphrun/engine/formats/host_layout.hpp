// What every host SpMV layout built from a CSR holds besides its own index
// arrays: the shape, and the values in the layout's order (empty for a
// pattern matrix, whose entries are all one). The layouts (CooMatrix, Ell,
// Jds) derive from it; their from_csr builders fill its fields.
#pragma once

#include <vector>

#include "graphrun/engine/types.hpp"

namespace graphrun {

template <class T>
class HostLayout {
 public:
  vertex_t n_rows() const noexcept { return n_rows_; }
  vertex_t n_cols() const noexcept { return n_cols_; }
  bool is_pattern() const noexcept { return values_.empty(); }
  const std::vector<T>& values() const noexcept { return values_; }

 protected:
  vertex_t n_rows_ = 0;
  vertex_t n_cols_ = 0;
  std::vector<T> values_;
};

}  // namespace graphrun
