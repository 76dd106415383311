// Progress reporting for the readers (internal to io/).
//
// A load runs in phases (read, parse, build); each phase reports its own
// fraction and Progress maps it into the phase's share of the whole. The
// callback is only ever invoked from the thread that called the reader and
// only when the figure moved noticeably, so a progress bar costs nothing.
#pragma once

#include <functional>

namespace graphrun::io::detail {

class Progress {
 public:
  explicit Progress(std::function<void(double)> fn) : fn_(std::move(fn)) {}

  // The next reports cover [lo, hi] of the whole load.
  void phase(double lo, double hi) noexcept {
    lo_ = lo;
    hi_ = hi;
  }
  // `fraction` of the current phase is done.
  void report(double fraction) {
    if (!fn_) return;
    const double overall = lo_ + (hi_ - lo_) * (fraction < 0 ? 0 : fraction > 1 ? 1 : fraction);
    if (overall >= last_ + 0.01 || (overall >= 1.0 && last_ < 1.0)) {
      last_ = overall;
      fn_(overall);
    }
  }
  void done() {
    phase(1.0, 1.0);
    report(1.0);
  }
  bool active() const noexcept { return static_cast<bool>(fn_); }

 private:
  std::function<void(double)> fn_;
  double lo_ = 0, hi_ = 1, last_ = -1;
};

}  // namespace graphrun::io::detail
