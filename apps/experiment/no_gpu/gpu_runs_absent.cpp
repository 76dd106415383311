// The GPU halves of the experiments in a build without CUDA: the commands
// refuse --device cuda before they get here; these keep the link whole.
#include "../cuda/gpu_runs.hpp"
#include "graphrun/engine/error.hpp"

namespace graphrun::cli::experiment {

ContractionTiming time_contraction_cuda(const Csr<double>&, const Csr<double>&, int,
                                        const std::vector<std::string>&) {
  throw DeviceError("experiment contraction: this build has no CUDA backend");
}

MclPair mcl_both_cuda(Context&, const Graph&, const MclOptions&, const std::vector<std::string>&) {
  throw DeviceError("experiment mcl: this build has no CUDA backend");
}

}  // namespace graphrun::cli::experiment
