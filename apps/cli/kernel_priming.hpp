// A GPU command's kernels run once on a small graph while its input loads
// (prime_pagerank_kernels, algorithms/pagerank.hpp), on the device warm-up
// thread once the context exists.
//
// CUDA loads a kernel at its first launch (lazy loading, the CUDA 12
// default): on the H200 that was ~2 ms of a GPU PageRank's set-up on R-MAT
// 23 (a set-up of 7-9 ms, iterations of ~1.3 ms), and loading every kernel
// when the context starts (CUDA_MODULE_LOADING=EAGER) costs 45 ms there,
// which a .grb cache's quick load does not hide. The priming stops when the
// input is loaded (stop_priming), finishing at most the small run it is in,
// so that it never holds up the real run for long; from a .grb cache, which
// loads before the context exists, it does not start.
#pragma once

#include <functional>

#include "graphrun/algorithms/pagerank.hpp"
#include "graphrun/engine/spmv_format.hpp"
#include "graphrun/engine/vertex_order.hpp"

namespace graphrun::cli {

// For make_context(): the GPU PageRank's kernels primed on device `device`
// with the command's format, ordering and method (jacobi or chebyshev: the
// one the run is expected to take); empty with GRAPHRUN_NO_PRIMING set (for
// measuring what it gives).
std::function<void()> pagerank_priming(int device, SpmvFormat format, Reorder reorder,
                                       PageRankMethod method);

// The input is loaded: a priming not yet started does not start, one under
// way stops after the run it is in. Idempotent.
void stop_priming() noexcept;

}  // namespace graphrun::cli
