// What both halves of `graphrun bench spmv` (spmv.cpp, cuda/spmv_cuda.cu)
// print: the bytes an SpMV must move, bandwidth, the per-class summary of
// speed-ups and the row-shape cell.
#pragma once

#include <string>

#include "bench.hpp"
#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/row_stats.hpp"

namespace graphrun::cli::bench {

// Bytes an SpMV must move at least once (spmv.cpp's header comment says which).
inline double spmv_bytes(const Csr<double>& a) {
  return double(a.nnz()) * (sizeof(vertex_t) + (a.is_pattern() ? 0 : sizeof(double))) +
         double(a.n_rows() + 1) * sizeof(offset_t) + double(a.n_cols()) * sizeof(double) +
         double(a.n_rows()) * sizeof(double);
}

inline double gbs(double bytes, double ms) { return bytes / (ms * 1e-3) / 1e9; }

// The chooser's pick and the fastest format against the anchor, per size class.
inline ClassSummary speedups(const char* anchor) {
  return ClassSummary(
      {{std::string("pick / ") + anchor, true}, {std::string("fastest / ") + anchor, true}});
}

inline std::string shape_cells(const RowStats& s) {
  return fixed(s.mean, 1) + " / " + fixed(s.cv, 2);
}

}  // namespace graphrun::cli::bench
