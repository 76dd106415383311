// The GPU versions of the algorithms (CUDA builds only). pagerank() and bfs()
// call these when ctx.device() is Device::cuda, after validating the options;
// they compute the same functions as the CPU versions, on ctx.device_id().
#pragma once

#include "graphrun/algorithms/bfs.hpp"
#include "graphrun/algorithms/mcl.hpp"
#include "graphrun/algorithms/pagerank.hpp"

#if defined(GRAPHRUN_HAVE_CUDA)
namespace graphrun::detail {

// Pull-style power iteration over Aᵀ in double precision throughout; see
// pagerank.cu.
PageRankResult pagerank_cuda(Context& ctx, const Graph& g, const PageRankOptions& options);

// Direction-optimizing BFS: queue-based push and masked OrAnd pull; see bfs.cu.
BfsResult bfs_cuda(Context& ctx, const Graph& g, vertex_t source, const BfsOptions& options);

// Markov clustering with the whole loop on the device; see cuda/mcl.cu.
MclResult mcl_cuda(Context& ctx, const Graph& g, const MclOptions& options);

}  // namespace graphrun::detail
#endif
