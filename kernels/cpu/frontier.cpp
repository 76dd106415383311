// The frontier conversions of graphrun/kernels/cpu/frontier.hpp; the
// advances are templates over their functors, in the header.
#include "graphrun/kernels/cpu/frontier.hpp"

#include <algorithm>
#include <atomic>
#include <bit>

namespace graphrun::cpu {

namespace {

std::uint64_t bit_of(vertex_t v) { return std::uint64_t{1} << (v & 63); }

// Appends the set bits of words [begin, end) to out, in increasing order.
vertex_t* write_set_bits(const std::uint64_t* bits, std::size_t begin, std::size_t end,
                         vertex_t* out) {
  for (std::size_t w = begin; w < end; ++w)
    for (std::uint64_t word = bits[w]; word != 0; word &= word - 1)
      *out++ = static_cast<vertex_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(word)));
  return out;
}

constexpr std::size_t bitmap_serial_words = 4096;

}  // namespace

void queue_to_bitmap(std::span<const vertex_t> queue, std::uint64_t* bits, vertex_t n,
                     int threads) {
  const std::size_t words = packed_words(n);
  const auto nq = static_cast<std::ptrdiff_t>(queue.size());
  // The work is the words cleared and the queue's ors, not n: a small
  // frontier of a graph of 100,000 vertices is a few microseconds on one
  // thread, less than a fork of 16 threads and two barriers (soc-Epinions1's
  // first pull, whose conversion this is, took 0.12 ms on 16 threads where
  // gapbs's conversion and pull took 0.09).
  if (threads <= 1 || static_cast<offset_t>(words) + nq < cpu_min_parallel_work) {
    std::fill(bits, bits + words, std::uint64_t{0});
    for (vertex_t v : queue) bits[v >> 6] |= bit_of(v);
    return;
  }
  // Cleared, then set, a barrier between; two of the queue's vertices may
  // share a word: an atomic or.
#pragma omp parallel num_threads(threads)
  {
#pragma omp for schedule(static)
    for (std::size_t w = 0; w < words; ++w) bits[w] = 0;
#pragma omp for schedule(static)
    for (std::ptrdiff_t i = 0; i < nq; ++i) {
      const vertex_t v = queue[static_cast<std::size_t>(i)];
      std::atomic_ref<std::uint64_t>(bits[v >> 6]).fetch_or(bit_of(v), std::memory_order_relaxed);
    }
  }
}

void equal_to_bitmap(const std::int32_t* values, std::int32_t value, std::uint64_t* bits,
                     vertex_t n, int threads) {
  const auto words = static_cast<std::ptrdiff_t>(packed_words(n));
  // Word w from values [64w, 64w + 64), a compare and a shift per vertex
  // (the compiler makes vector compares of them).
  const auto word_of = [values, value, n](std::ptrdiff_t w) {
    const vertex_t base = static_cast<vertex_t>(w) * 64;
    const vertex_t count = std::min<vertex_t>(64, n - base);
    std::uint64_t word = 0;
    for (vertex_t i = 0; i < count; ++i) word |= std::uint64_t{values[base + i] == value} << i;
    return word;
  };
  if (threads <= 1 || n < cpu_min_parallel_work) {
    for (std::ptrdiff_t w = 0; w < words; ++w) bits[w] = word_of(w);
    return;
  }
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::ptrdiff_t w = 0; w < words; ++w) bits[w] = word_of(w);
}

void bitmap_to_queue(const std::uint64_t* bits, vertex_t n, VertexQueue& queue, int threads) {
  const std::size_t words = packed_words(n);
  queue.clear();
  // A popcount a word, then a write a vertex: one thread below 4,096 words
  // (262,144 vertices; the GAP reference's parallel conversion of
  // soc-Epinions1's bitmap, 1,186 words, took 20-30 us on 16 threads).
  if (threads <= 1 || words < bitmap_serial_words) {
    std::size_t count = 0;
    for (std::size_t w = 0; w < words; ++w)
      count += static_cast<std::size_t>(std::popcount(bits[w]));
    queue.resize_for_overwrite(count);
    write_set_bits(bits, 0, words, queue.data());
    return;
  }
  // Each thread counts its static block of words, then writes it at the sum
  // of the counts before it: increasing vertices, no lists to join.
  std::vector<std::size_t> at(static_cast<std::size_t>(threads) + 1, 0);
#pragma omp parallel num_threads(threads)
  {
    const auto t = static_cast<std::size_t>(omp_get_thread_num());
    const auto parts = static_cast<std::size_t>(omp_get_num_threads());
    const std::size_t begin = words * t / parts, end = words * (t + 1) / parts;
    std::size_t count = 0;
    for (std::size_t w = begin; w < end; ++w)
      count += static_cast<std::size_t>(std::popcount(bits[w]));
    at[t + 1] = count;
#pragma omp barrier
#pragma omp single
    {
      for (std::size_t i = 1; i < at.size(); ++i) at[i] += at[i - 1];
      queue.resize_for_overwrite(at.back());
    }
    write_set_bits(bits, begin, end, queue.data() + at[t]);
  }
}

}  // namespace graphrun::cpu
