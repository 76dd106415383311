// The CUDA backend's steps, one file each (pagerank.cu, mcl.cu, bfs.cu,
// contract.cu); backend.cu puts them behind the Backend interface. Each runs
// on ctx.device_id() and computes what the CPU's steps compute.
#pragma once

#include <memory>

#include "../backend.hpp"
#include "graphrun/algorithms/cuda/mcl.hpp"

namespace graphrun::detail {

struct CudaSteps {
  // Pull-style power iteration over Aᵀ in double precision, the stopping
  // rule on the device.
  static std::unique_ptr<PageRankSteps> pagerank(Context& ctx, const Graph& g,
                                                 const PageRankSetup& setup,
                                                 PageRankResult& result);
  // graphrun's SpGEMM squares the iterand; see cuda_mcl_steps below.
  static std::unique_ptr<MclSteps> mcl(Context& ctx, const Graph& g, const MclOptions& options);
  // Direction-optimizing BFS: queue-based push and masked OrAnd pull,
  // levels on the device where no callback must see each.
  static BfsResult bfs(Context& ctx, const Graph& g, vertex_t source, const BfsOptions& options);
  // Both products device-resident; only C comes back.
  static ContractProducts contract_products(Context& ctx, const Graph& g, const Csr<double>& s,
                                            const Csr<double>& st);
};

// The iterand on the device; `expansion` squares it (empty: graphrun's
// SpGEMM), in column blocks per `blocking` (cuda::mcl).
std::unique_ptr<MclSteps> cuda_mcl_steps(Context& ctx, const Graph& g, const MclOptions& options,
                                         const cuda::MclExpansion& expansion,
                                         const cuda::MclBlocking& blocking);

}  // namespace graphrun::detail
