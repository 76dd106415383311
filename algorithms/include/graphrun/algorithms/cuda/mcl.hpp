// Markov clustering on the GPU with a chosen expansion: the loop of
// graphrun::mcl (algorithms/mcl.hpp) with Device::cuda, where the SpGEMM
// that squares the iterand can be replaced. graphrun's experiments use it
// to put cuSPARSE's SpGEMM in place of graphrun's while pruning, inflation,
// the convergence test and the reading of the clusters stay the same, so
// the two runs differ in the expansion alone. CUDA builds only.
#pragma once

#include <cstdint>
#include <functional>

#include "graphrun/algorithms/mcl.hpp"
#include "graphrun/engine/device_csr.hpp"

#if defined(GRAPHRUN_HAVE_CUDA)
#include <cuda_runtime_api.h>

namespace graphrun::cuda {

// E = M·M for the device-resident iterand m (square, float, rows sorted),
// summed in double, complete in the order of `stream`; E's rows must come
// out with sorted, unique columns. *products gets the intermediate products
// (for the summary; 0 when unknown). The loop rounds E to float, as mcl
// stores an expanded column.
using MclExpansion = std::function<DeviceCsr<double>(const DeviceCsr<float>& m, cudaStream_t stream,
                                                     std::int64_t* products)>;

// graphrun::mcl on ctx's GPU with `expansion` squaring the iterand; an empty
// function means graphrun's hash SpGEMM (cuda::spgemm<PlusTimes<double>>
// over the float iterand).
MclResult mcl(Context& ctx, const Graph& g, const MclOptions& options,
              const MclExpansion& expansion);

}  // namespace graphrun::cuda
#endif  // GRAPHRUN_HAVE_CUDA
