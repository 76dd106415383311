// The GPU half of `graphrun bench spgemm`: our cuda::spgemm beside cuSPARSE's
// cusparseSpGEMM for one graph, one table row per graph. The driver
// (bench/spgemm.cpp) creates the Table with spgemm_cuda_columns() and calls
// bench_spgemm_cuda for every graph. CUDA builds only.
#pragma once

#include <string>
#include <vector>

#include "bench/bench.hpp"
#include "graphrun/kernels/cuda/spgemm.hpp"

#if defined(GRAPHRUN_HAVE_CUDA)
namespace graphrun::cli::bench {

struct SpgemmBenchOptions {
  int reps = 5;                // timed repetitions (medians)
  bool transpose_b = false;    // A*Aᵀ instead of A*A
  cuda::SpgemmOptions spgemm;  // ours: tuning overrides (--tune)
};

// The columns of the GPU table.
std::vector<std::string> spgemm_cuda_columns();

// Measures C = A*A (or A*Aᵀ) of g's adjacency on the GPU, ours and cuSPARSE,
// and adds one row to `table`.
void bench_spgemm_cuda(const BenchGraph& g, const SpgemmBenchOptions& o, Table& table);

}  // namespace graphrun::cli::bench
#endif  // GRAPHRUN_HAVE_CUDA
