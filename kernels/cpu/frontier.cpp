// The frontier conversions of graphrun/kernels/cpu/frontier.hpp; the
// advances are templates over their functors, in the header.
#include "graphrun/kernels/cpu/frontier.hpp"

#include <algorithm>

namespace graphrun::cpu {

void queue_to_bitmap(std::span<const vertex_t> queue, std::uint8_t* bitmap, vertex_t n,
                     int threads) {
  const auto nq = static_cast<std::ptrdiff_t>(queue.size());
  if (threads <= 1 || n + nq < cpu_min_parallel_work) {
    std::fill(bitmap, bitmap + n, std::uint8_t{0});
    for (vertex_t v : queue) bitmap[v] = 1;
    return;
  }
  // Cleared, then set (the queue's vertices are distinct: no two threads
  // write one byte), a barrier between.
#pragma omp parallel num_threads(threads)
  {
#pragma omp for schedule(static)
    for (vertex_t v = 0; v < n; ++v) bitmap[v] = 0;
#pragma omp for schedule(static)
    for (std::ptrdiff_t i = 0; i < nq; ++i) bitmap[queue[static_cast<std::size_t>(i)]] = 1;
  }
}

void bitmap_to_queue(const std::uint8_t* bitmap, vertex_t n, VertexQueue& queue, int threads) {
  queue.clear();
  if (threads <= 1 || n < cpu_min_parallel_work) {
    for (vertex_t v = 0; v < n; ++v)
      if (bitmap[v] != 0) queue.push_back(v);
    return;
  }
  // Each thread counts its static block, then writes it at the sum of the
  // counts before it: increasing vertices, no lists to join.
  std::vector<std::size_t> at(static_cast<std::size_t>(threads) + 1, 0);
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num(), parts = omp_get_num_threads();
    const vertex_t begin = static_cast<vertex_t>(std::int64_t{n} * t / parts);
    const vertex_t end = static_cast<vertex_t>(std::int64_t{n} * (t + 1) / parts);
    std::size_t count = 0;
    for (vertex_t v = begin; v < end; ++v) count += bitmap[v] != 0;
    at[static_cast<std::size_t>(t) + 1] = count;
#pragma omp barrier
#pragma omp single
    {
      for (std::size_t i = 1; i < at.size(); ++i) at[i] += at[i - 1];
      queue.resize_for_overwrite(at.back());
    }
    vertex_t* out = queue.data() + at[static_cast<std::size_t>(t)];
    for (vertex_t v = begin; v < end; ++v)
      if (bitmap[v] != 0) *out++ = v;
  }
}

}  // namespace graphrun::cpu
