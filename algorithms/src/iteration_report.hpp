// The callback contract of iteration.hpp, kept once for every driver and
// backend: before an iteration the progress display learns which one is
// under way; after it, what it found, and then the caller's on_iteration,
// whose false stops the run with the result as it stands.
#pragma once

#include <atomic>

#include "graphrun/algorithms/iteration.hpp"
#include "graphrun/engine/stopwatch.hpp"

namespace graphrun::detail {

class IterationReport {
 public:
  IterationReport(const IterationCallback& on_iteration, StepProgress* progress,
                  const Stopwatch& clock)
      : on_iteration_(on_iteration), progress_(progress), clock_(clock) {}

  void start(int iteration) const {
    if (progress_) progress_->start(iteration);
  }

  // After an iteration with a residual (PageRank's L1 change, MCL's chaos).
  // False when the callback asks to stop.
  bool done(IterationInfo info) const {
    if (progress_) progress_->set_residual(info.residual);
    return call(info);
  }

  // After a BFS level: the display shows the step count and the frontier
  // the level found.
  bool level_done(IterationInfo info) const {
    if (progress_) {
      progress_->start(info.iteration);
      progress_->frontier.store(info.frontier, std::memory_order_relaxed);
    }
    return call(info);
  }

 private:
  bool call(IterationInfo& info) const {
    if (!on_iteration_) return true;
    info.elapsed = clock_.seconds();
    return on_iteration_(info);
  }

  const IterationCallback& on_iteration_;
  StepProgress* progress_;
  const Stopwatch& clock_;
};

}  // namespace graphrun::detail
