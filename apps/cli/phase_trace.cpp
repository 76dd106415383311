// See phase_trace.hpp.
#include "cli/phase_trace.hpp"

#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "graphrun/engine/env_flag.hpp"

namespace graphrun::cli {

namespace {

// Seconds since boot when the process started (/proc/self/stat, field 22,
// in clock ticks), or a negative number where it cannot be read.
double process_start() {
  std::ifstream in("/proc/self/stat");
  std::string stat;
  if (!std::getline(in, stat)) return -1;
  // The command name (field 2) may hold spaces: count fields after its ')'.
  const std::size_t close = stat.rfind(')');
  if (close == std::string::npos) return -1;
  std::size_t at = close + 2;  // field 3
  for (int field = 3; field < 22 && at != std::string::npos; ++field) at = stat.find(' ', at) + 1;
  const long ticks = sysconf(_SC_CLK_TCK);
  if (at == 0 || ticks <= 0) return -1;
  return std::strtod(stat.c_str() + at, nullptr) / static_cast<double>(ticks);
}

double since_boot() {
  timespec t{};
  clock_gettime(CLOCK_BOOTTIME, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

bool tracing() {
  static const bool on = env_flag("GRAPHRUN_TRACE");
  return on;
}

double start_time() {
  static const double start = process_start();
  return start;
}

void print(const char* what) {
  std::fprintf(stderr, "trace: %.3f %s\n", since_boot() - start_time(), what);
}

}  // namespace

void trace_phase(const char* what) noexcept {
  if (!tracing()) return;
  static const bool registered = [] {
    // Registered first, so it runs after the handlers and static
    // destructors registered later (the CUDA runtime's among them).
    return std::atexit([] { print("exit handlers done"); }) == 0;
  }();
  (void)registered;
  print(what);
}

}  // namespace graphrun::cli
