// What both halves of `graphrun bench pagerank` (pagerank.cpp,
// cuda/pagerank_cuda.cu) share: the options, the L1 check and the PageRank
// options of a fixed number of iterations.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "bench.hpp"
#include "graphrun/algorithms/pagerank.hpp"
#include "graphrun/engine/spmv_format_table.hpp"
#include "graphrun/engine/vertex_order.hpp"

namespace graphrun::cli::bench {

struct PageRankBenchOptions {
  BenchOptions common;
  int iters = 20;
  std::vector<Reorder> orderings = {Reorder::none, Reorder::automatic};
  // How graphrun's iterations read x (--gather): double, as the anchors do,
  // unless asked; automatic, with the tolerance a fixed count of iterations
  // sets, is double too.
  PageRankGather gather = PageRankGather::float64;
  // GPU: the SpMV format of graphrun's iterations (--format); automatic: the
  // chooser's pick, as `graphrun pagerank` makes it.
  SpmvFormat format = SpmvFormat::automatic;
};

inline double l1(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return std::numeric_limits<double>::infinity();
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += std::abs(a[i] - b[i]);
  return s;
}

// Jacobi's iteration, on undirected graphs too: cuSPARSE's and GraphBLAS's
// loops beside it run Jacobi, and a Chebyshev pass moves more bytes than
// theirs (the ranks of two passes before).
inline PageRankOptions fixed_iterations(int iters, PageRankGather gather) {
  PageRankOptions o;
  o.gather = gather;
  o.tol = std::numeric_limits<double>::min();  // never met: run exactly `iters`
  o.max_iter = iters;
  o.use_weights = false;
  o.method = PageRankMethod::jacobi;
  return o;
}

}  // namespace graphrun::cli::bench
