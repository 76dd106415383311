// Switches read from the environment for measuring (GRAPHRUN_TRACE,
// GRAPHRUN_SPGEMM_PROFILE, GRAPHRUN_NO_PRIMING): on when the variable is set,
// not empty and not "0". Callers keep the answer in a function-local
// static, read once.
#pragma once

#include <cstdlib>
#include <string_view>

namespace graphrun {

// Set on a thread whose work is not the run being measured (the device
// warm-up thread priming kernels): traces stay quiet there.
inline thread_local bool trace_muted = false;

inline bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' && std::string_view(v) != "0";
}

}  // namespace graphrun
