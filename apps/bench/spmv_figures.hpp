// What both halves of `graphrun bench spmv` (spmv.cpp, cuda/spmv_cuda.cu)
// print: the bytes an SpMV must move, bandwidth, the per-class summary of
// speed-ups and the row-shape cell; and the valued copy --weighted runs on.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

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

// --weighted: a pattern matrix given a value on every entry, so that every
// format and the anchor read A's values as they must on a weighted graph
// (an unweighted graph lets graphrun's formats skip them while cuSPARSE and
// GraphBLAS read ones). The value 1 + ((i + j) mod 89) / 89 depends on the
// entry's row and column only, so A and Aᵀ, and a renumbered A, agree.
// A matrix that has values keeps them (returned as a copy).
inline Csr<double> with_entry_values(const Csr<double>& a) {
  if (!a.is_pattern()) return a;
  std::vector<double> v(static_cast<std::size_t>(a.nnz()));
  const auto& rp = a.row_ptr();
  const auto& ci = a.col_idx();
  for (vertex_t i = 0; i < a.n_rows(); ++i)
    for (offset_t e = rp[i]; e < rp[i + 1]; ++e)
      v[e] = 1.0 + static_cast<double>((std::int64_t{i} + ci[e]) % 89) / 89.0;
  return Csr<double>(a.n_rows(), a.n_cols(), rp, ci, std::move(v));
}

}  // namespace graphrun::cli::bench
