// Row-length statistics of a sparse matrix: what the SpMV format chooser and
// `graphrun info` look at.
#pragma once

#include <array>
#include <cstdint>

#include "graphrun/engine/csr.hpp"

namespace graphrun {

struct RowStats {
  vertex_t n_rows = 0;
  offset_t nnz = 0;
  offset_t min_length = 0;
  offset_t max_length = 0;
  double mean = 0.0;
  double stddev = 0.0;
  double cv = 0.0;              // stddev / mean (0 for an empty matrix)
  double empty_fraction = 0.0;  // rows with no entry / n_rows
  // histogram[0] counts empty rows; histogram[b] for b >= 1 counts rows
  // with length in [2^(b-1), 2^b).
  std::array<std::int64_t, 40> histogram{};
};

template <class T>
RowStats analyze(const CsrView<T>& a);

}  // namespace graphrun
