// glibc returns a freed block of 128 KiB or more to the system at once (it
// was mmapped), raising that bound to the freed size as it goes, and trims
// the heap's free top past twice the bound. A command that repeats its
// search (--trials, a betweenness pass over many sources, Louvain's levels)
// allocates the same few megabytes of levels, queues and bitmaps each time,
// and so the first few times got fresh pages, every page a fault taken by
// the thread that first wrote it: a BFS of R-MAT 20 (1M vertices) spent
// 1 ms setting up where the fill of memory it had held before takes 0.2 ms,
// and three of five trials paid it. Fixed bounds keep blocks below 64 MiB
// on the heap and the heap's top until 256 MiB of it is free; the graph's
// own arrays, larger, still go back to the system when freed.
#include "cli/heap_policy.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace graphrun::cli {

void keep_freed_memory_for_reuse() noexcept {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

}  // namespace graphrun::cli
