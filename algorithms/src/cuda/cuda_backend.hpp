// The CUDA backend's steps, one file each (pagerank.cu, mcl.cu, bfs.cu,
// contract.cu); backend.cu puts them behind the Backend interface. Each runs
// on ctx.device_id() and computes what the CPU's steps compute.
#pragma once

#include <memory>

#include "../backend.hpp"
#include "graphrun/algorithms/cuda/mcl.hpp"

namespace graphrun::detail {

// pagerank: pull-style power iteration over Aᵀ in double precision, the
// stopping rule on the device. mcl: graphrun's SpGEMM squares the iterand
// (see cuda_mcl_steps below). bfs: direction-optimizing, queue-based push and
// masked OrAnd pull, levels on the device where no callback must see each.
// contract_products: both products device-resident; only C comes back.
struct CudaSteps {
  GRAPHRUN_BACKEND_STEPS
};

// The iterand on the device; `expansion` squares it (empty: graphrun's
// SpGEMM), in column blocks per `blocking` (cuda::mcl).
std::unique_ptr<MclSteps> cuda_mcl_steps(Context& ctx, const Graph& g, const MclOptions& options,
                                         const cuda::MclExpansion& expansion,
                                         const cuda::MclBlocking& blocking);

}  // namespace graphrun::detail
