// Vectors whose pages are faulted in on every core before they are filled.
//
// A std::vector of n values is filled by one thread as it is made, and on
// fresh memory that thread also takes every page's fault, the kernel
// zeroing each 4 KiB page in turn: for the hundreds of megabytes of a
// loaded graph, or a result vector of millions of vertices written by every
// core afterwards, the faults were a large serial share (a 0.3 GB cache:
// 0.24 s to load on 2 threads, 0.15 s with its arrays prefaulted).
// MADV_POPULATE_WRITE (Linux 5.14) faults a range in without changing it
// (as far as C++ is concerned, nothing is written), so the threads can
// split the reserved capacity between them; the vector's own fill then
// writes mapped memory. On an older kernel the call fails and the fill
// faults as before.
//
// Transparent huge pages (MADV_HUGEPAGE) gave the same gain, but where the
// kernel defragments on request (`defrag` = madvise) a load now and then
// stalled for most of a second while it compacted memory.
#pragma once

#include <omp.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace graphrun {

// The residency of the pages from `first` (page-aligned), a byte per page
// with bit 0 set where the page is mapped (mincore: a few microseconds for
// a thousand pages); empty where the kernel cannot say.
inline std::vector<unsigned char> page_residency(std::uintptr_t first, std::uintptr_t pages,
                                                 std::uintptr_t page) {
  std::vector<unsigned char> resident(pages);
  if (::mincore(reinterpret_cast<void*>(first), pages * page, resident.data()) != 0) return {};
  return resident;
}

// Faults in the pages of [p, p + bytes) that are not mapped yet, split
// between the threads of the enclosing OpenMP setting; below 1 MiB,
// nothing (one thread's faults cost less than waking the others).
//
// Pages already mapped are skipped, and where all are (memory the
// allocator handed back out, as it does for a search repeated from source
// after source), no thread is woken: populating a mapped range still walks
// its page tables, which on a virtual machine took twice as long as
// filling it (1.3 MB: 56 us against 27 us), and made a BFS's set-up on
// web-NotreDame 0.16-0.3 ms where the fill alone is 0.04 ms.
inline void prefault_range(void* p, std::size_t bytes) {
#if defined(MADV_POPULATE_WRITE)
  if (p == nullptr || bytes < (std::size_t{1} << 20)) return;
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t first = (begin + page - 1) / page * page;
  const std::uintptr_t last = (begin + bytes) / page * page;
  if (last <= first) return;
  const std::uintptr_t pages = (last - first) / page;
  std::vector<unsigned char> resident = page_residency(first, pages, page);
  if (resident.empty()) resident.assign(pages, 0);  // unknown: populate all
  const auto mapped = [&](std::uintptr_t i) { return (resident[i] & 1) != 0; };
  if (std::all_of(resident.begin(), resident.end(), [](unsigned char r) { return (r & 1) != 0; }))
    return;
#pragma omp parallel
  {
    const auto threads = static_cast<std::uintptr_t>(omp_get_num_threads());
    const auto t = static_cast<std::uintptr_t>(omp_get_thread_num());
    const std::uintptr_t to = pages * (t + 1) / threads;
    // Each run of unmapped pages in this thread's share, in one call.
    for (std::uintptr_t run = pages * t / threads; run < to;) {
      if (mapped(run)) {
        ++run;
        continue;
      }
      std::uintptr_t end = run + 1;
      while (end < to && !mapped(end)) ++end;
      ::madvise(reinterpret_cast<void*>(first + run * page), (end - run) * page,
                MADV_POPULATE_WRITE);
      run = end;
    }
  }
#else
  (void)p;
  (void)bytes;
#endif
}

// Faults in the pages of the capacity v has reserved (prefault_range).
template <class T>
void prefault_capacity(std::vector<T>& v) {
  prefault_range(v.data(), v.capacity() * sizeof(T));
}

// std::vector<T>(n, value), its pages faulted in on every core first.
template <class T>
std::vector<T> prefaulted_vector(std::size_t n, const T& value = T{}) {
  std::vector<T> v;
  v.reserve(n);
  prefault_capacity(v);
  v.resize(n, value);
  return v;
}

}  // namespace graphrun
