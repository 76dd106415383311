// The frontier operator on the host (OpenMP); the contract and the functors
// are in graphrun/kernels/frontier.hpp.
//
//   std::vector<vertex_t> next;
//   FrontierCounts c = cpu::advance_push(a, queue, next,
//                                        ClaimUnvisited{level, parent, visited, depth}, threads);
//   c = cpu::advance_pull(at, a.row_ptr, BitmapClear{visited}, BitmapSet{front},
//                         apply, next_bitmap, threads);
//
// Push deals the queue to the threads in dynamic chunks; each thread
// collects its winners, and the next queue is their concatenation (its
// order depends on the schedule, its set does not where apply claims
// atomically). Pull splits the vertices into parts of equal work
// (partition.hpp, the CSR SpMV's split), writes every byte of the next
// bitmap (1: reached) and needs no atomics: only v's thread touches v.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "graphrun/engine/context.hpp"
#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/per_thread.hpp"
#include "graphrun/kernels/cpu/partition.hpp"
#include "graphrun/kernels/frontier.hpp"

namespace graphrun::cpu {

// Lists of vertices, one per thread of a parallel region, joined end to end
// in thread order with each thread copying its own part (a push's next
// queue, a bitmap's vertices).
class ThreadLists {
 public:
  explicit ThreadLists(int threads)
      : local_(threads), at_(static_cast<std::size_t>(local_.size()) + 1, 0) {}

  // The calling thread's list.
  std::vector<vertex_t>& mine() { return local_[omp_get_thread_num()]; }

  // out = the lists end to end. Called by every thread of the region, once
  // it has appended all it will (a barrier inside).
  void join(std::vector<vertex_t>& out) {
    const int t = omp_get_thread_num();
    const std::vector<vertex_t>& list = local_[t];
    at_[static_cast<std::size_t>(t) + 1] = list.size();
#pragma omp barrier
#pragma omp single
    {
      for (std::size_t i = 1; i < at_.size(); ++i) at_[i] += at_[i - 1];
      out.resize(at_.back());
    }
    std::copy(list.begin(), list.end(), out.begin() + static_cast<std::ptrdiff_t>(at_[t]));
  }

 private:
  PerThread<std::vector<vertex_t>> local_;
  std::vector<std::size_t> at_;
};

// Push: next = the out-neighbours v of the frontier's vertices u for which
// apply(u, v) returns true. Counts: vertices and edges (out-edges of next,
// in A) and max_degree; a push reads all of the frontier's out-edges, which
// its caller knows, and leaves scanned 0.
template <class T, class Apply>
FrontierCounts advance_push(const CsrView<T>& a, std::span<const vertex_t> frontier,
                            std::vector<vertex_t>& next, const Apply& apply, int threads) {
  const std::size_t nq = frontier.size();
  ThreadLists lists(threads);
  unsigned long long new_edges = 0, max_degree = 0;
  next.clear();
#pragma omp parallel num_threads(threads) reduction(+ : new_edges) reduction(max : max_degree)
  {
    std::vector<vertex_t>& mine = lists.mine();
#pragma omp for schedule(dynamic, 64) nowait
    for (std::size_t q = 0; q < nq; ++q) {
      const vertex_t u = frontier[q];
      const offset_t end = a.row_ptr[u + 1];
      for (offset_t k = a.row_ptr[u]; k < end; ++k) {
        const vertex_t v = a.col_idx[k];
        if (!frontier_apply(apply, u, v, k)) continue;
        mine.push_back(v);
        const auto d = static_cast<unsigned long long>(frontier_row_length(a.row_ptr, v));
        new_edges += d;
        max_degree = std::max(max_degree, d);
      }
    }
    lists.join(next);
  }
  FrontierCounts c{};
  c.vertices = next.size();
  c.edges = new_edges;
  c.max_degree = max_degree;
  return c;
}

// Pull: for every v with filter(v), the first in-neighbour u (a row of
// at = Aᵀ, in column order) with in_frontier(u); next[v] = apply(u, v) for
// it, 0 for every other v. Counts: vertices and edges (out-edges of the
// reached vertices, from A's row pointers out_row_ptr), max_degree, and
// scanned = the in-edges of the filtered vertices (an upper bound on those
// read, since a row stops at its first frontier vertex).
template <class T, class Filter, class InFrontier, class Apply>
FrontierCounts advance_pull(const CsrView<T>& at, const offset_t* out_row_ptr, const Filter& filter,
                            const InFrontier& in_frontier, const Apply& apply, std::uint8_t* next,
                            int threads) {
  const vertex_t n = at.n_rows;
  unsigned long long count = 0, new_edges = 0, scanned = 0, max_degree = 0;
  // Rows [begin, end), adding into the counters of the calling thread.
  auto rows = [&at, out_row_ptr, &filter, &in_frontier, &apply, next](
                  vertex_t begin, vertex_t end, unsigned long long& reached,
                  unsigned long long& reached_edges, unsigned long long& looked,
                  unsigned long long& largest) {
    for (vertex_t v = begin; v < end; ++v) {
      std::uint8_t hit = 0;
      if (filter(v)) {
        const offset_t rb = at.row_ptr[v], re = at.row_ptr[v + 1];
        looked += static_cast<unsigned long long>(re - rb);
        first_in_frontier(at.col_idx, rb, re, in_frontier, [&](vertex_t u, offset_t k) {
          if (!frontier_apply(apply, u, v, k)) return;
          hit = 1;
          ++reached;
          const auto d = static_cast<unsigned long long>(frontier_row_length(out_row_ptr, v));
          reached_edges += d;
          largest = std::max(largest, d);
        });
      }
      next[v] = hit;
    }
  };
  const offset_t work = at.nnz + n;
  if (threads <= 1 || work < cpu_min_parallel_work) {
    rows(0, n, count, new_edges, scanned, max_degree);
  } else {
    // A few parts of equal work per thread, handed out dynamically (as the
    // CSR SpMV does): rows of very different lengths do not hold a thread.
    const offset_t max_parts = std::max<offset_t>(1, work / (cpu_min_parallel_work / 4));
    const int parts = static_cast<int>(std::min<offset_t>(offset_t{threads} * 8, max_parts));
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) \
    reduction(+ : count, new_edges, scanned) reduction(max : max_degree)
    for (int p = 0; p < parts; ++p)
      rows(partition_begin(at.row_ptr, n, parts, p), partition_begin(at.row_ptr, n, parts, p + 1),
           count, new_edges, scanned, max_degree);
  }
  FrontierCounts c{};
  c.vertices = count;
  c.edges = new_edges;
  c.scanned = scanned;
  c.max_degree = max_degree;
  return c;
}

// bitmap[0, n) = 1 on the queue's vertices (distinct), 0 elsewhere.
void queue_to_bitmap(std::span<const vertex_t> queue, std::uint8_t* bitmap, vertex_t n,
                     int threads);

// queue = the vertices v < n with bitmap[v] != 0, in increasing order.
void bitmap_to_queue(const std::uint8_t* bitmap, vertex_t n, std::vector<vertex_t>& queue,
                     int threads);

}  // namespace graphrun::cpu
