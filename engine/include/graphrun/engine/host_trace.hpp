// GRAPHRUN_TRACE set: a host routine's phases timed on stderr ("trace:
// components sampling round 1 2.31 ms"), each from the end of the one
// before. Off, a step costs one branch. Quiet on a thread with trace_muted
// set (env_flag.hpp). The GPU's counterpart, which also waits for the
// device, is cuda::StepTrace (cuda/step_trace.hpp).
#pragma once

#include <cstdio>

#include "graphrun/engine/env_flag.hpp"
#include "graphrun/engine/stopwatch.hpp"

namespace graphrun {

class HostTrace {
 public:
  // `routine` prefixes every line; the first step's clock starts here.
  explicit HostTrace(const char* routine) : routine_(routine) {}

  void step(const char* what) {
    if (!enabled()) return;
    std::fprintf(stderr, "trace: %s %s %.3f ms\n", routine_, what, t_.ms());
    t_.restart();
  }

  // For a step whose name must be built: build it only when this is true.
  static bool enabled() {
    static const bool traced = env_flag("GRAPHRUN_TRACE");
    return traced && !trace_muted;
  }

 private:
  const char* routine_;
  Stopwatch t_;
};

}  // namespace graphrun
