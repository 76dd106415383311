// A progress bar on stderr for steps that take longer than a second.
//
// One ProgressBar per step (loading, ranking, writing...). It draws nothing
// unless it is enabled (no --quiet) and stderr is a terminal, and nothing
// during the first second of the step, so fast runs and redirected output
// stay clean. A thread of its own redraws the line every 100 ms from the
// first second on, whether or not the step has reported anything: the
// elapsed time moves during a long iteration, and what the algorithm
// reports from inside the step (watch(): a StepProgress it fills as it
// works) shows up as it happens rather than when the iteration ends. The
// line is erased ("\r" + clear to end of line) when the step ends or the bar
// is destroyed, including during stack unwinding, so an error message
// starts on a clean line.
//
//   ProgressBar bar("pagerank", !quiet);
//   bar.watch(&step, [](int it, double f) { return "iteration " + ...; });
//   ... bar.update(k / double(max_iter), [&] { return "L1 " + ...; });
//   bar.finish();  // or let the destructor do it
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "graphrun/algorithms/iteration.hpp"

namespace graphrun::cli {

class ProgressBar {
 public:
  using clock = std::chrono::steady_clock;

  ProgressBar(std::string label, bool enabled);
  // For tests: draw on `out` whether or not it is a terminal, `columns` wide.
  ProgressBar(std::string label, std::FILE* out, int columns);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // fraction in [0, 1], or negative when the total is unknown (BFS levels).
  // `detail` is only called when the bar is drawn at all.
  template <class DetailFn>
  void update(double fraction, DetailFn&& detail) {
    if (!enabled_ || !due()) return;
    set(fraction, detail());
  }
  void update(double fraction) {
    if (!enabled_ || !due()) return;
    set(fraction, {});
  }

  // Shows what `step` says while the step runs: describe(iteration,
  // fraction of it done) is appended to the line at every redraw. `step`
  // must outlive the bar or the next finish().
  void watch(const StepProgress* step, std::function<std::string(int, double)> describe);

  // Stops the redraws and erases the bar if it was drawn. Idempotent.
  void finish();

  // True when stderr is a terminal (the only place a bar is drawn).
  static bool stderr_is_terminal();

 private:
  void start_ticker();
  bool due();
  void set(double fraction, std::string detail);
  void tick();
  void draw_locked();

  std::string label_;
  std::FILE* out_;
  int fixed_columns_ = 0;  // 0: the terminal's width
  bool enabled_;
  clock::time_point start_;
  clock::time_point last_set_;

  std::mutex mutex_;  // guards what follows, shared with the ticker thread
  std::condition_variable wake_;
  bool stop_ = false;
  bool drawn_ = false;
  double fraction_ = -1.0;
  std::string detail_;
  const StepProgress* step_ = nullptr;
  std::function<std::string(int, double)> describe_;
  std::thread ticker_;
};

}  // namespace graphrun::cli
