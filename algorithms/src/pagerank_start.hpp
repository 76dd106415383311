// What every PageRank backend checks the same way: the start, the weights,
// and the residual of each iteration.
#pragma once

#include "graphrun/algorithms/pagerank.hpp"

namespace graphrun::detail {

// 1 / Σ options.start, summed in vertex order, after checking that it holds
// n finite, non-negative values that are not all 0 (ArgumentError naming the
// first bad vertex); 0 when options.start is empty (the uniform start).
double pagerank_start_scale(const PageRankOptions& options, vertex_t n);

// A weighted graph's weights must be finite and >= 0, and each vertex's
// out-weights must sum to a finite number: ArgumentError naming the first
// edge (or vertex) in vertex order otherwise.
void pagerank_check_weights(const Graph& g);

// A NaN or infinite L1 change means the ranks left the range of a double (a
// vertex whose out-weights sum to a denormal, say): Error naming the
// iteration, rather than ranks that are not numbers.
void pagerank_check_residual(int iteration, double residual);

}  // namespace graphrun::detail
