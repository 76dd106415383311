// Wall-clock time on the monotonic clock: the seconds that results, load
// statistics, summaries and benchmarks report. One type, so that every
// figure graphrun prints is measured the same way.
#pragma once

#include <chrono>

namespace graphrun {

class Stopwatch {
 public:
  Stopwatch() : start_(Clock::now()) {}
  // Since construction or the last restart().
  double seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  double ms() const {
    return std::chrono::duration<double, std::milli>(Clock::now() - start_).count();
  }
  void restart() { start_ = Clock::now(); }

 private:
  // steady_clock: never set back, unlike the system clock.
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_;
};

}  // namespace graphrun
