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

void bitmap_to_queue(const std::uint8_t* bitmap, vertex_t n, std::vector<vertex_t>& queue,
                     int threads) {
  queue.clear();
  // Static blocks joined in thread order: increasing vertices.
  ThreadLists lists(threads);
#pragma omp parallel num_threads(threads)
  {
    std::vector<vertex_t>& mine = lists.mine();
#pragma omp for schedule(static)
    for (vertex_t v = 0; v < n; ++v)
      if (bitmap[v] != 0) mine.push_back(v);
    lists.join(queue);
  }
}

}  // namespace graphrun::cpu
