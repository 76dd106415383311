// The GPU half of `graphrun bench pagerank` (pagerank.cpp's header comment
// says what it measures). Declared in every build; defined by
// pagerank_cuda.cu, or without CUDA by no_gpu/gpu_halves_absent.cpp (CMake
// picks one), which refuses.
#pragma once

#include "bench/pagerank_bench.hpp"

namespace graphrun::cli::bench {

void run_pagerank_cuda(const PageRankBenchOptions& a);

}  // namespace graphrun::cli::bench
