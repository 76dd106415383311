// The GPU halves of the benchmarks in a build without CUDA: the drivers
// refuse --device cuda before they get here; these keep the link whole.
#include "../cuda/pagerank_cuda.hpp"
#include "../cuda/spgemm_cuda.hpp"
#include "../cuda/spmv_cuda.hpp"
#include "graphrun/engine/error.hpp"

namespace graphrun::cli::bench {

void run_spgemm_cuda(const BenchOptions&, bool, bool, const std::vector<std::string>&) {
  throw DeviceError("bench spgemm: this build has no CUDA backend");
}

void run_pagerank_cuda(const PageRankBenchOptions&) {
  throw DeviceError("bench pagerank: this build has no CUDA backend");
}

void run_spmv_cuda(const BenchOptions&, Reorder, bool) {
  throw DeviceError("bench spmv: this build has no CUDA backend");
}

}  // namespace graphrun::cli::bench
