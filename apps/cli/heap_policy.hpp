// How the command line's process hands freed memory back to the system.
#pragma once

namespace graphrun::cli {

// Keeps freed blocks of up to 64 MiB in the process for reuse (glibc's
// malloc; elsewhere nothing). See heap_policy.cpp for why.
void keep_freed_memory_for_reuse() noexcept;

}  // namespace graphrun::cli
