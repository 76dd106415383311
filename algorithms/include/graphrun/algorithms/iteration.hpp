// Progress and cancellation of the iterative algorithms (PageRank, BFS, MCL;
// CPU and GPU alike): after every iteration the algorithm calls its
// options' on_iteration with what it knows, and stops early, with the
// result as it stands, when the callback returns false. The command line's
// progress bar is such a callback; so is a caller's time limit or cancel
// button.
#pragma once

#include <atomic>
#include <functional>

#include "graphrun/engine/types.hpp"

namespace graphrun {

struct IterationInfo {
  int iteration = 0;      // 1-based
  double residual = 0;    // PageRank: L1 change; MCL: chaos; BFS: 0
  offset_t frontier = 0;  // BFS: frontier size after the step; otherwise 0
  offset_t nnz = 0;       // MCL: stored entries of the iterand; otherwise 0
  double elapsed = 0;     // seconds since the algorithm started
};

// Called after every iteration, on the calling thread; false stops the
// algorithm (the result then says it did not converge).
using IterationCallback = std::function<bool(const IterationInfo&)>;

// Progress inside an iteration, for a display that must move while one long
// step runs (an MCL expansion of a large graph takes seconds). The algorithm
// stores the iteration under way and the fraction of its work done as it
// goes, from whichever thread does the work; a display reads them from its
// own thread. Relaxed atomics: the figures are for people, not for ordering.
struct StepProgress {
  std::atomic<int> iteration{0};      // 1-based iteration under way, 0 before the first
  std::atomic<double> fraction{0.0};  // of that iteration's work, 0..1
  // The residual of the last iteration done (PageRank's L1 change, MCL's
  // chaos); negative before the first.
  std::atomic<double> residual{-1.0};
  // BFS: the size of the frontier the last level found.
  std::atomic<offset_t> frontier{0};

  void start(int it) noexcept {
    fraction.store(0.0, std::memory_order_relaxed);
    iteration.store(it, std::memory_order_relaxed);
  }
  // Raises the fraction to f, never lowers it: threads that finish parts
  // of an iteration report in any order, and a part's smaller share stored
  // after the last part's 1.0 left a finished iteration at 7/8 (seen as a
  // flaky PageRank.FillsStepProgress on a loaded 2-core machine).
  void set(double f) noexcept {
    double seen = fraction.load(std::memory_order_relaxed);
    while (seen < f && !fraction.compare_exchange_weak(seen, f, std::memory_order_relaxed)) {
    }
  }
  void set_residual(double r) noexcept { residual.store(r, std::memory_order_relaxed); }
};

}  // namespace graphrun
