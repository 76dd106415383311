// The GPU anchor of `graphrun bench pagerank`: the same power iteration with
// cuSPARSE's SpMV (cusparseSpMV, CSR) in place of graphrun's. CUDA builds only.
#pragma once

#include <vector>

#include "graphrun/engine/graph.hpp"

namespace graphrun::anchors {

// Unweighted PageRank for exactly `iters` (>= 2) iterations: per iteration
// cusparseSpMV on Aᵀ, then one update kernel that writes r' and the next x
// and sums the L1 change and dangling mass with atomics, both read back.
// Returns milliseconds per iteration (2nd to last, host clock, as graphrun's
// is measured); the ranks go to *rank.
double cusparse_pagerank_ms(const Graph& g, int iters, double damping, std::vector<double>* rank);

}  // namespace graphrun::anchors
