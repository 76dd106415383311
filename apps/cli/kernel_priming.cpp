// See kernel_priming.hpp.
#include "kernel_priming.hpp"

#include <atomic>
#include <string>

#include "cli/phase_trace.hpp"
#include "graphrun/algorithms/pagerank.hpp"
#include "graphrun/engine/env_flag.hpp"

namespace graphrun::cli {

namespace {
std::atomic<bool> stopped{false};
}  // namespace

std::function<void()> pagerank_priming(int device, SpmvFormat format, Reorder reorder,
                                       PageRankMethod method) {
  // For measuring what the priming gives.
  if (env_flag("GRAPHRUN_NO_PRIMING")) return {};
  return [device, format, reorder, method] {
    // Called once the context exists: when that is, against the load.
    trace_phase("device: context made");
    const int runs = prime_pagerank_kernels(device, format, reorder, &stopped, method);
    trace_phase(("device: pagerank kernels primed, " + std::to_string(runs) + " runs").c_str());
  };
}

void stop_priming() noexcept { stopped.store(true); }

}  // namespace graphrun::cli
