// The frontier operator on the host (OpenMP); the contract and the functors
// are in graphrun/kernels/frontier.hpp.
//
//   cpu::VertexQueue next;
//   next.reserve(n);  // once per search: a step never grows it then
//   FrontierCounts c = cpu::advance_push(a, queue, next,
//                                        ClaimUnvisited{level, parent, visited, depth}, threads);
//   c = cpu::advance_pull(at, a.row_ptr, LevelIs{level, -1}, PackedBitsSet{front},
//                         apply, next_words, threads);
//
// Push deals the queue to the threads in dynamic chunks; each thread
// gathers its winners in a small buffer of its own and moves it into the
// next queue with one atomic add on the queue's end (as the GAP
// reference's QueueBuffer), so a step costs one fork and one join whatever
// the frontier, and a frontier of few out-edges (push_serial_edges) runs on
// the calling thread alone. The next queue's order depends on the schedule,
// its set does not where apply claims atomically. Pull splits the vertices
// into parts of equal work (partition.hpp, the CSR SpMV's split) cut at
// multiples of 64, writes every word of the next bitmap, packed a bit per
// vertex (1: reached), and needs no atomics: only v's thread touches v, and
// one thread each word.
#pragma once

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <span>
#include <vector>

#include "graphrun/engine/context.hpp"
#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/per_thread.hpp"
#include "graphrun/kernels/cpu/partition.hpp"
#include "graphrun/kernels/frontier.hpp"

namespace graphrun::cpu {

// A queue of vertices whose storage is never zero-filled: a push writes
// every slot it hands out, and a std::vector would first clear the whole
// queue on one thread (2.4 MB for a frontier of 600,000 vertices) each
// step. Reserved once for a search, then reused step after step.
class VertexQueue {
 public:
  VertexQueue() = default;
  VertexQueue(std::initializer_list<vertex_t> vertices) {
    reserve(vertices.size());
    for (const vertex_t v : vertices) push_back(v);
  }

  // Room for n vertices, the contents kept.
  void reserve(std::size_t n) {
    if (n <= capacity_) return;
    std::unique_ptr<vertex_t[]> grown(new vertex_t[n]);
    if (size_ > 0) std::memcpy(grown.get(), data_.get(), size_ * sizeof(vertex_t));
    data_ = std::move(grown);
    capacity_ = n;
  }
  // n vertices, those past the old size left for the caller to write.
  void resize_for_overwrite(std::size_t n) {
    reserve(n);
    size_ = n;
  }
  void push_back(vertex_t v) {
    if (size_ == capacity_) reserve(std::max<std::size_t>(16, 2 * capacity_));
    data_[size_++] = v;
  }
  void clear() noexcept { size_ = 0; }
  void swap(VertexQueue& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
  }

  std::size_t size() const noexcept { return size_; }
  std::size_t capacity() const noexcept { return capacity_; }
  bool empty() const noexcept { return size_ == 0; }
  vertex_t* data() noexcept { return data_.get(); }
  const vertex_t* data() const noexcept { return data_.get(); }
  const vertex_t* begin() const noexcept { return data_.get(); }
  const vertex_t* end() const noexcept { return data_.get() + size_; }
  operator std::span<const vertex_t>() const noexcept { return {data_.get(), size_}; }

 private:
  std::unique_ptr<vertex_t[]> data_;
  std::size_t size_ = 0, capacity_ = 0;
};

// Frontier vertices per dynamic chunk of a push, at most; a smaller
// frontier is dealt in chunks of fewer vertices, at least eight a thread,
// so that every thread gets a share: a frontier of 104 vertices of degree
// about 85 (Cornell5's second level) was two chunks of 64, one idle thread
// on 2 cores and fourteen on 16.
inline constexpr std::size_t push_chunk = 64;

// A frontier with fewer out-edges than this is pushed by the calling thread
// alone: a step of that many edges takes a thread about 10 us, what waking
// 16 threads and joining them costs. A road graph's search is a thousand
// such steps (luxembourg_osm: 1,035 levels of a few hundred vertices, two
// or three edges each), and with a fork and join each, where the bound was
// 64 vertices, it took 4.0 ms on 2 threads against 2.4 ms now, and on 16
// threads 17 ms against the GAP reference's 9 ms (it forks every step).
inline constexpr offset_t push_serial_edges = 4096;

// Push: next = the out-neighbours v of the frontier's vertices u for which
// apply(u, v) returns true. Counts: vertices and edges (out-edges of next,
// in A) and max_degree; a push reads all of the frontier's out-edges, which
// its caller knows, and leaves scanned 0. Winners go into next's reserved
// room; what a step finds beyond it (an apply that keeps a vertex more than
// once, a queue never reserved) is kept per thread and appended after.
template <class T, class Apply>
FrontierCounts advance_push(const CsrView<T>& a, std::span<const vertex_t> frontier,
                            VertexQueue& next, const Apply& apply, int threads) {
  const std::size_t nq = frontier.size();
  unsigned long long new_edges = 0, max_degree = 0;
  next.clear();
  // u's out-edges; keep(v) for each winner.
  // The arrays' addresses and apply by value: a claim's compare-and-swap
  // is a barrier to the compiler, after which what it reads through
  // references is loaded again at every edge.
  const auto scan = [row_ptr = a.row_ptr, col_idx = a.col_idx, apply](
                        vertex_t u, unsigned long long& edges, unsigned long long& largest,
                        auto&& keep) {
    const offset_t end = row_ptr[u + 1];
    for (offset_t k = row_ptr[u]; k < end; ++k) {
      const vertex_t v = col_idx[k];
      if (!frontier_apply(apply, u, v, k)) continue;
      keep(v);
      const auto d = static_cast<unsigned long long>(frontier_row_length(row_ptr, v));
      edges += d;
      largest = std::max(largest, d);
    }
  };
  // (Counted only for frontiers that could be below the bound: every
  // vertex of a larger one would need no out-edges.)
  const auto few_edges = [&a, frontier] {
    offset_t edges = 0;
    for (const vertex_t u : frontier) edges += a.row_ptr[u + 1] - a.row_ptr[u];
    return edges < push_serial_edges;
  };
  if (threads <= 1 || (nq < static_cast<std::size_t>(push_serial_edges) && few_edges())) {
    for (const vertex_t u : frontier)
      scan(u, new_edges, max_degree, [&next](vertex_t v) { next.push_back(v); });
  } else {
    const std::size_t chunk =
        std::clamp<std::size_t>(nq / (8 * static_cast<std::size_t>(threads)), 1, push_chunk);
    std::atomic<std::size_t> tail{0};
    const std::size_t room = next.capacity();
    vertex_t* const out = next.data();
    PerThread<std::vector<vertex_t>> overflow(threads);
    bool overflowed = false;
#pragma omp parallel num_threads(threads) reduction(+ : new_edges) reduction(max : max_degree) \
    reduction(|| : overflowed)
    {
      constexpr std::size_t buffer_size = 1024;
      vertex_t buffer[buffer_size];
      std::size_t held = 0;
      // The buffer into next's room when it fits (a compare-and-swap on
      // the end, so that the queue has no holes), else into the overflow.
      const auto flush = [&] {
        std::size_t at = tail.load(std::memory_order_relaxed);
        do {
          if (at + held > room) {
            std::vector<vertex_t>& mine = overflow[omp_get_thread_num()];
            mine.insert(mine.end(), buffer, buffer + held);
            overflowed = true;
            held = 0;
            return;
          }
        } while (!tail.compare_exchange_weak(at, at + held, std::memory_order_relaxed));
        std::memcpy(out + at, buffer, held * sizeof(vertex_t));
        held = 0;
      };
      const auto keep = [&](vertex_t v) {
        buffer[held++] = v;
        if (held == buffer_size) flush();
      };
      // This thread's own copy of the scan (of its captures): the shared
      // one is reached through a pointer and reloaded after every claim.
      const auto own_scan = scan;
#pragma omp for schedule(dynamic, chunk) nowait
      for (std::size_t q = 0; q < nq; ++q) own_scan(frontier[q], new_edges, max_degree, keep);
      if (held > 0) flush();
    }
    next.resize_for_overwrite(tail.load(std::memory_order_relaxed));
    if (overflowed)
      for (int t = 0; t < overflow.size(); ++t)
        for (const vertex_t v : overflow[t]) next.push_back(v);
  }
  FrontierCounts c{};
  c.vertices = next.size();
  c.edges = new_edges;
  c.max_degree = max_degree;
  return c;
}

// Pull: for every v with filter(v), the first in-neighbour u (a row of
// at = Aᵀ, in column order) with in_frontier(u); bit v of the packed
// bitmap next (packed_words(n) words, each written) = apply(u, v) for it,
// 0 for every other v. Counts: vertices and edges (out-edges of the
// reached vertices, from A's row pointers out_row_ptr), max_degree, and
// scanned = the in-edges of the filtered vertices (an upper bound on those
// read, since a row stops at its first frontier vertex).
template <class T, class Filter, class InFrontier, class Apply>
FrontierCounts advance_pull(const CsrView<T>& at, const offset_t* out_row_ptr, const Filter& filter,
                            const InFrontier& in_frontier, const Apply& apply, std::uint64_t* next,
                            int threads) {
  const vertex_t n = at.n_rows;
  unsigned long long count = 0, new_edges = 0, scanned = 0, max_degree = 0;
  // Rows [begin, end), begin a multiple of 64 (end too, or n), adding into
  // the counters of the calling thread; each word of next written once.
  //
  // The arrays, the filter, the frontier test and apply are copied into
  // locals and the counts kept in locals, added to the caller's at the end:
  // reached through the references, every unvisited vertex reloaded the
  // row pointers, the bitmap's address and the filter's value, and every
  // vertex reached apply's captures and the counters (soc-Epinions1, 2
  // threads: the pull steps 20% behind the GAP reference's).
  auto rows = [&at, out_row_ptr, &filter, &in_frontier, &apply, next](
                  vertex_t begin, vertex_t end, unsigned long long& reached_sum,
                  unsigned long long& reached_edges_sum, unsigned long long& looked_sum,
                  unsigned long long& largest_max) {
    const offset_t* const row_ptr = at.row_ptr;
    const vertex_t* const col_idx = at.col_idx;
    const Filter keep = filter;
    const InFrontier front = in_frontier;
    const Apply act = apply;
    unsigned long long reached = 0, reached_edges = 0, looked = 0, largest = 0;
    for (std::int64_t base = begin; base < end; base += 64) {
      const auto stop = static_cast<vertex_t>(std::min<std::int64_t>(end, base + 64));
      std::uint64_t word = 0;
      for (auto v = static_cast<vertex_t>(base); v < stop; ++v) {
        if (!keep(v)) continue;
        const offset_t rb = row_ptr[v], re = row_ptr[v + 1];
        looked += static_cast<unsigned long long>(re - rb);
        first_in_frontier(col_idx, rb, re, front, [&](vertex_t u, offset_t k) {
          if (!frontier_apply(act, u, v, k)) return;
          word |= std::uint64_t{1} << (v - base);
          ++reached;
          const auto d = static_cast<unsigned long long>(frontier_row_length(out_row_ptr, v));
          reached_edges += d;
          largest = std::max(largest, d);
        });
      }
      next[base / 64] = word;
    }
    reached_sum += reached;
    reached_edges_sum += reached_edges;
    looked_sum += looked;
    largest_max = std::max(largest_max, largest);
  };
  // Part p's first vertex, cut down to a multiple of 64 (a word each part).
  const auto cut = [&at, n](int parts, int p) {
    const vertex_t v = partition_begin(at.row_ptr, n, parts, p);
    return p >= parts ? n : v & ~vertex_t{63};
  };
  const offset_t work = at.nnz + n;
  if (threads <= 1 || work < cpu_min_parallel_work) {
    rows(0, n, count, new_edges, scanned, max_degree);
  } else {
    // Parts of equal stored work, handed out dynamically (as the CSR SpMV
    // does): rows of very different lengths do not hold a thread. A pull's
    // real work is not its stored work (rows stop at their first hit), so
    // the parts are finer than the SpMV's: 32 per thread rather than 8 took
    // soc-Epinions1's search from 0.76 to 0.70 ms and soc-Slashdot0902's
    // from 0.57 to 0.50 (2 threads, medians of 31, five rounds each),
    // web-NotreDame and gapbs -g 20 within their noise.
    const offset_t max_parts = std::max<offset_t>(1, work / (cpu_min_parallel_work / 4));
    const int parts = static_cast<int>(std::min<offset_t>(offset_t{threads} * 32, max_parts));
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) \
    reduction(+ : count, new_edges, scanned) reduction(max : max_degree)
    for (int p = 0; p < parts; ++p)
      rows(cut(parts, p), cut(parts, p + 1), count, new_edges, scanned, max_degree);
  }
  FrontierCounts c{};
  c.vertices = count;
  c.edges = new_edges;
  c.scanned = scanned;
  c.max_degree = max_degree;
  return c;
}

// The packed bitmap bits (packed_words(n) words) = 1 on the queue's
// vertices (distinct), 0 elsewhere.
void queue_to_bitmap(std::span<const vertex_t> queue, std::uint64_t* bits, vertex_t n, int threads);

// The packed bitmap bits (packed_words(n) words) = 1 where values[v] ==
// value, 0 elsewhere: a frontier known as the vertices of one BFS level,
// made by a pass over n values that needs no atomics (each thread writes
// whole words) where queue_to_bitmap sets a random bit of a shared word
// with an atomic or per vertex of a queue.
void equal_to_bitmap(const std::int32_t* values, std::int32_t value, std::uint64_t* bits,
                     vertex_t n, int threads);

// queue = the vertices v < n whose bit is set in the packed bitmap bits, in
// increasing order.
void bitmap_to_queue(const std::uint64_t* bits, vertex_t n, VertexQueue& queue, int threads);

}  // namespace graphrun::cpu
