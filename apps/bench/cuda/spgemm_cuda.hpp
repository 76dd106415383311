// The GPU half of `graphrun bench spgemm`: our cuda::spgemm beside cuSPARSE's
// cusparseSpGEMM, one table row per graph of `inputs`. Declared in every
// build; defined by spgemm_cuda.cu, or without CUDA by
// no_gpu/gpu_halves_absent.cpp (CMake picks one), which refuses.
#pragma once

#include <string>
#include <vector>

#include "bench/bench.hpp"

namespace graphrun::cli::bench {

// C = A*A (or A*Aᵀ with transpose_b) for every graph of `inputs` (its reps,
// csv and graphs). `tune`: KEY=N overrides of the GPU SpGEMM's tuning
// constants (dense-words, dense-shared-products, warp-max-ip), checked here.
void run_spgemm_cuda(const BenchOptions& inputs, bool transpose_b, bool deterministic,
                     const std::vector<std::string>& tune);

}  // namespace graphrun::cli::bench
