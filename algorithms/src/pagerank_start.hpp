// PageRankOptions::start, checked and scaled the same way on every backend.
#pragma once

#include "graphrun/algorithms/pagerank.hpp"

namespace graphrun::detail {

// 1 / Σ options.start, summed in vertex order, after checking that it holds
// n finite, non-negative values that are not all 0 (ArgumentError naming the
// first bad vertex); 0 when options.start is empty (the uniform start).
double pagerank_start_scale(const PageRankOptions& options, vertex_t n);

}  // namespace graphrun::detail
