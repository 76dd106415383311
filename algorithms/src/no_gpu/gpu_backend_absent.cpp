// The GPU entry points of gpu_backend.hpp in a build without CUDA: each
// refuses, naming the algorithm, so that asking for Device::cuda is a clear
// DeviceError (exit status 2 on the command line), not a link error.
#include <string>

#include "../gpu_backend.hpp"
#include "graphrun/engine/error.hpp"

namespace graphrun::detail {

namespace {
[[noreturn]] void no_cuda(const char* algorithm) {
  throw DeviceError(std::string(algorithm) + ": this build has no CUDA backend; use Device::cpu");
}
}  // namespace

PageRankResult pagerank_cuda(Context&, const Graph&, const PageRankOptions&) {
  no_cuda("pagerank");
}

BfsResult bfs_cuda(Context&, const Graph&, vertex_t, const BfsOptions&) { no_cuda("bfs"); }

MclResult mcl_cuda(Context&, const Graph&, const MclOptions&) { no_cuda("mcl"); }

ContractProducts contract_products_cuda(Context&, const Csr<double>&, bool, const Csr<double>&,
                                        const Csr<double>&) {
  no_cuda("contract");
}

}  // namespace graphrun::detail
