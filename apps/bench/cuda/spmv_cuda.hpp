// The GPU half of `graphrun bench spmv`. Declared in every build; defined by
// spmv_cuda.cu, or without CUDA by no_gpu/gpu_halves_absent.cpp (CMake picks
// one), which refuses.
#pragma once

#include "bench/bench.hpp"
#include "graphrun/engine/vertex_order.hpp"

namespace graphrun::cli::bench {

// Every SpMV format on the GPU beside cuSPARSE for every graph of `o`, the
// formats on the matrix renumbered by `reorder` (Reorder::none: as loaded),
// a pattern matrix given values first where `weighted` (with_entry_values).
void run_spmv_cuda(const BenchOptions& o, Reorder reorder, bool weighted);

}  // namespace graphrun::cli::bench
