// The frontier conversions of graphrun/kernels/cpu/frontier.hpp; the
// advances are templates over their functors, in the header.
#include "graphrun/kernels/cpu/frontier.hpp"

#include <algorithm>

namespace graphrun::cpu {

void queue_to_bitmap(std::span<const vertex_t> queue, std::uint8_t* bitmap, vertex_t n) {
  std::fill(bitmap, bitmap + n, std::uint8_t{0});
  for (vertex_t v : queue) bitmap[v] = 1;
}

void bitmap_to_queue(const std::uint8_t* bitmap, vertex_t n, std::vector<vertex_t>& queue,
                     int threads) {
  queue.clear();
  // Static blocks, concatenated in thread order: increasing vertices.
  PerThread<std::vector<vertex_t>> local(threads);
#pragma omp parallel num_threads(threads)
  {
    std::vector<vertex_t>& mine = local[omp_get_thread_num()];
#pragma omp for schedule(static)
    for (vertex_t v = 0; v < n; ++v)
      if (bitmap[v] != 0) mine.push_back(v);
  }
  for (int t = 0; t < local.size(); ++t)
    queue.insert(queue.end(), local[t].begin(), local[t].end());
}

}  // namespace graphrun::cpu
