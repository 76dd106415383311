// A progress bar on stderr for steps that take longer than a second.
//
// One ProgressBar per step (loading, ranking, writing...). It draws nothing
// unless it is enabled (no --quiet) and stderr is a terminal, and nothing
// during the first second of the step, so fast runs and redirected output
// stay clean. Redraws are throttled to one every 100 ms; the line is erased
// ("\r" + clear to end of line) when the step ends or the bar is destroyed,
// including during stack unwinding, so an error message starts on a clean
// line.
//
//   ProgressBar bar("pagerank", !quiet);
//   ... bar.update(k / double(max_iter), [&] { return "iteration " + ...; });
//   bar.finish();  // or let the destructor do it
#pragma once

#include <chrono>
#include <string>
#include <string_view>

namespace graphrun::cli {

class ProgressBar {
 public:
  using clock = std::chrono::steady_clock;

  ProgressBar(std::string label, bool enabled);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // fraction in [0, 1], or negative when the total is unknown (BFS levels).
  // `detail` is only called when a redraw is due.
  template <class DetailFn>
  void update(double fraction, DetailFn&& detail) {
    if (!due()) return;
    draw(fraction, detail());
  }
  void update(double fraction) {
    if (!due()) return;
    draw(fraction, {});
  }

  // Erases the bar if it was drawn. Idempotent.
  void finish();

  // True when stderr is a terminal (the only place a bar is drawn).
  static bool stderr_is_terminal();

 private:
  bool due();
  void draw(double fraction, std::string_view detail);

  std::string label_;
  bool enabled_;
  bool drawn_ = false;
  clock::time_point start_;
  clock::time_point last_draw_;
};

}  // namespace graphrun::cli
