// Prefix sums in place on several threads (internal to the CPU backend).
#pragma once

#include <omp.h>

#include <cstddef>
#include <vector>

namespace graphrun::detail {

// a[0 .. n) replaced by its inclusive prefix sums: each thread sums its
// block in place, the block totals are added up in order, and each thread
// adds the total before its block. The same sums as the serial loop (they
// are integers); below 64K entries or on one thread, that loop.
template <class T>
void parallel_inclusive_scan(T* a, std::size_t n, int threads) {
  if (threads <= 1 || n < (std::size_t{1} << 16)) {
    for (std::size_t i = 1; i < n; ++i) a[i] += a[i - 1];
    return;
  }
  std::vector<T> before(static_cast<std::size_t>(threads) + 1, T{});
#pragma omp parallel num_threads(threads)
  {
    const auto t = static_cast<std::size_t>(omp_get_thread_num());
    const auto nt = static_cast<std::size_t>(omp_get_num_threads());
    const std::size_t begin = n * t / nt, end = n * (t + 1) / nt;
    T sum{};
    for (std::size_t i = begin; i < end; ++i) a[i] = sum += a[i];
    before[t + 1] = sum;
#pragma omp barrier
#pragma omp single
    for (std::size_t k = 1; k <= nt; ++k) before[k] += before[k - 1];
    const T offset = before[t];
    if (offset != T{})
      for (std::size_t i = begin; i < end; ++i) a[i] += offset;
  }
}

}  // namespace graphrun::detail
