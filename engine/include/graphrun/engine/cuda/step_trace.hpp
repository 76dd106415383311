// GRAPHRUN_TRACE set: a GPU routine's steps, each waited for, timed on
// stderr ("trace: pagerank set-up transpose 4.1 ms (host 0.3 ms)": the
// host's share is the time until it had queued the step's work, the rest is
// waiting for the device). Off, nothing waits. Quiet on a thread with
// trace_muted set (env_flag.hpp). For CUDA translation units.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>

#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/engine/env_flag.hpp"
#include "graphrun/engine/stopwatch.hpp"

namespace graphrun::cuda {

class StepTrace {
 public:
  // `routine` prefixes every line; the first step's clock starts here.
  explicit StepTrace(const char* routine) : routine_(routine) {}

  void step(const char* what) {
    if (!on() || trace_muted) return;
    const double host = t_.ms();
    GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());
    std::fprintf(stderr, "trace: %s %s %.2f ms (host %.2f ms)\n", routine_, what, t_.ms(), host);
    t_.restart();
  }

 private:
  static bool on() {
    static const bool traced = env_flag("GRAPHRUN_TRACE");
    return traced;
  }
  const char* routine_;
  Stopwatch t_;
};

}  // namespace graphrun::cuda
