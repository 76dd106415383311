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

struct CUstream_st;  // cudaStream_t, without the CUDA headers

namespace graphrun::cuda {

// E = rows·M: `rows` holds consecutive rows of the device-resident iterand
// m (a block of mcl's columns, or all of them; float, rows sorted, as many
// columns as m) and m is the whole iterand. Summed in double, complete in
// the order of `stream`; E's rows must come out with sorted, unique
// columns. *products gets the intermediate products (for the summary; 0
// when unknown). The loop rounds E to float, as mcl stores an expanded
// column.
using MclExpansion =
    std::function<DeviceCsr<double>(const DeviceCsr<float>& rows, const DeviceCsr<float>& m,
                                    CUstream_st* stream, std::int64_t* products)>;

struct SpgemmOptions;  // graphrun/kernels/cuda/spgemm.hpp

// The SpGEMM options of the MCL loop's own expansion: `deterministic` (the
// Context's), and SpgemmOptions::unit_sums, which the stochastic iterand
// allows.
SpgemmOptions mcl_spgemm_options(bool deterministic);

// graphrun's hash SpGEMM (cuda::spgemm<PlusTimes<double>> over the float
// iterand) with `options` as an expansion: the loop's own, with
// mcl_spgemm_options, or one with other options (graphrun experiment mcl
// --tune).
MclExpansion spgemm_expansion(const SpgemmOptions& options);

// How the GPU loop splits an expansion into column blocks.
struct MclBlocking {
  // Most entries one block's expansion may produce, bounded by Σ over its
  // columns of min(intermediate products, n); 0 sizes the blocks from the
  // device memory free within --max-device-memory. Tests set it small to
  // force many blocks.
  std::int64_t max_block_entries = 0;
};

// graphrun::mcl on ctx's GPU with `expansion` squaring the iterand; an empty
// function means spgemm_expansion with the Context's determinism.
MclResult mcl(Context& ctx, const Graph& g, const MclOptions& options,
              const MclExpansion& expansion, const MclBlocking& blocking = {});

}  // namespace graphrun::cuda
