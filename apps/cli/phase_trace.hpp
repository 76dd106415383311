// GRAPHRUN_TRACE=1 in the environment: the command line prints to stderr
// how many seconds after the process started it reached each phase (the
// arguments parsed, the context made, the input loaded, the algorithm done,
// the output written, main returned, the last exit handler), so that a
// wall-clock time can be split into what the summary line reports and what
// it does not (the driver's start, loading shared libraries, tearing down
// the device context and the host's memory). For measuring; off by default.
#pragma once

namespace graphrun::cli {

// Prints "trace: <seconds> <what>" when tracing is on; does nothing
// otherwise. The first call also registers the exit handler's line.
void trace_phase(const char* what) noexcept;

}  // namespace graphrun::cli
