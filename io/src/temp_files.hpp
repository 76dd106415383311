// Temporary output files that must not outlive an interrupted run.
//
// OutputFile writes beside its target and renames on commit; if the process
// is killed by SIGINT, SIGTERM or SIGHUP in between, the handler installed
// here removes the temporaries before the process dies of the signal as it
// would have. Handlers are installed only where the signal's action is still
// the default, so a program that links graphrun and handles these signals
// itself keeps its own handling.
#pragma once

#include <string>

namespace graphrun::io::detail {

// Records a temporary file; returns its slot, or -1 when every slot is taken
// (the file is then simply not cleaned up on a signal).
int register_temp_file(const std::string& path);
void unregister_temp_file(int slot);

}  // namespace graphrun::io::detail
