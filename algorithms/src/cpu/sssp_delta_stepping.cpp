// Delta-stepping on the CPU, in the form of the GAP reference's sssp.cc
// (Beamer et al.): every thread keeps its own bins of vertices by bucket
// (floor(distance / delta)); a round relaxes the out-edges of the shared
// frontier (the lowest non-empty bucket of all threads, gathered), each
// thread filing the vertices it improved in its own bins; a thread whose
// bin of the current bucket stays small (< 1000 vertices) finishes it alone
// before the round's barrier, which spares a barrier per short step.
//
// Where it differs from gapbs:
//   - distances are doubles (gapbs: 32-bit integers) and a bucket index can
//     be past any vector's size, so a thread's bins are a ring of `window`
//     buckets from the current one, and a vertex filed further ahead goes to
//     the thread's far pile (Davidson et al.'s near-far split, as the GPU
//     runs it); when the next bucket's ring reaches the lowest bucket filed
//     far, the piles are filed again;
//   - an edge of negative weight is never relaxed: the smallest position of
//     one met is kept, and the driver refuses the graph;
//   - on_iteration is called after every round (bucket).
// The compare-and-swap lowers dist[v] only while the new distance is
// smaller, so the result is the unique fixed point (sssp.hpp) whatever the
// schedule.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <exception>
#include <limits>
#include <vector>

#include "../iteration_report.hpp"
#include "cpu_backend.hpp"
#include "graphrun/engine/prefault.hpp"
#include "graphrun/engine/stopwatch.hpp"

namespace graphrun::detail {

namespace {

using bucket_t = std::uint64_t;
constexpr bucket_t no_bucket = std::numeric_limits<bucket_t>::max();
constexpr bucket_t window = 1024;           // buckets a thread's ring holds
constexpr std::size_t small_bucket = 1000;  // gapbs's kBinSizeThreshold

// The bucket of distance d: floor(d / delta), saturated far below
// no_bucket (one bucket then takes every huge distance, still correctly).
bucket_t bucket_of(double d, double delta) {
  const double q = d / delta;
  return q < 0x1p62 ? static_cast<bucket_t>(q) : bucket_t{1} << 62;
}

double load(const double* p) {
  return std::atomic_ref<const double>(*p).load(std::memory_order_relaxed);
}

// One thread's bins: the ring of buckets [current, current + window) and
// the far pile beyond it, with the lowest bucket filed there (far_min). An
// entry whose vertex was lowered since is stale; its vertex was filed
// again, so a far entry now below the current bucket is stale.
class Bins {
 public:
  Bins() : ring_(window) {}

  void file(vertex_t v, bucket_t b, bucket_t current) {
    if (b - current < window) {
      ring_[b % window].push_back(v);
    } else {
      far_.push_back(v);
      far_min_ = std::min(far_min_, b);
    }
  }
  std::vector<vertex_t>& at(bucket_t b) { return ring_[b % window]; }
  bucket_t far_min() const { return far_min_; }

  // The first non-empty bucket of the ring at or after `current`.
  bucket_t first(bucket_t current) const {
    for (bucket_t b = current; b < current + window; ++b)
      if (!ring_[b % window].empty()) return b;
    return no_bucket;
  }
  // Moves the far entries that fall in the ring of `current` (the next
  // bucket, no higher than any thread's far_min) into it, drops the stale
  // ones, and recomputes far_min over those left.
  void refile_far(bucket_t current, const double* dist, double delta) {
    std::vector<vertex_t> keep;
    far_min_ = no_bucket;
    for (vertex_t v : far_) {
      const bucket_t b = bucket_of(load(dist + v), delta);
      if (b < current) continue;
      if (b - current < window) {
        ring_[b % window].push_back(v);
      } else {
        keep.push_back(v);
        far_min_ = std::min(far_min_, b);
      }
    }
    far_.swap(keep);
  }

 private:
  std::vector<std::vector<vertex_t>> ring_;
  std::vector<vertex_t> far_;
  bucket_t far_min_ = no_bucket;
};

struct Relax {
  CsrView<double> a;  // values nullptr: every weight 1
  double* dist;
  double delta;

  // Relaxes u's out-edges, filing every vertex it lowers; counts the edges
  // and keeps the smallest position of a negative weight. The arrays are
  // read through locals: the compare-and-swap is a compiler barrier, and
  // through `this` every pointer was loaded again at every edge.
  void operator()(vertex_t u, bucket_t current, Bins& bins, offset_t& relaxed,
                  offset_t& negative) const {
    double* const d = dist;
    const vertex_t* const col = a.col_idx;
    const double* const val = a.values;
    const double du = load(d + u);
    const offset_t begin = a.row_ptr[u], end = a.row_ptr[u + 1];
    relaxed += end - begin;
    for (offset_t k = begin; k < end; ++k) {
      const double w = val ? val[k] : 1.0;
      if (!(w >= 0)) {
        negative = std::min(negative, k);
        continue;
      }
      const vertex_t v = col[k];
      const double nd = du + w;
      std::atomic_ref<double> dv(d[v]);
      double old = dv.load(std::memory_order_relaxed);
      while (nd < old) {
        if (dv.compare_exchange_weak(old, nd, std::memory_order_relaxed)) {
          bins.file(v, bucket_of(nd, delta), current);
          break;
        }
      }
    }
  }

  // The frontier's vertices sit anywhere in memory, and each costs a miss
  // on its distance and row bounds, then on its columns and values (two
  // arrays, where gapbs keeps (neighbour, weight) pairs in one): the
  // vertex `near` places ahead has its row's first lines fetched, the one
  // `far` ahead its distance and bounds, while this one is relaxed.
  static constexpr std::size_t near = 4, far = 12;
  void prefetch_bounds(vertex_t u) const {
    __builtin_prefetch(a.row_ptr + u);
    __builtin_prefetch(dist + u);
  }
  void prefetch_row(vertex_t u) const {
    const offset_t k = a.row_ptr[u];
    __builtin_prefetch(a.col_idx + k);
    if (a.values) __builtin_prefetch(a.values + k);
  }
  // Relaxes list[i] where it is still in the current bucket, prefetching
  // ahead in the same list.
  void relax_at(const std::vector<vertex_t>& list, std::size_t i, bucket_t current, Bins& bins,
                offset_t& relaxed, offset_t& negative) const {
    if (i + far < list.size()) prefetch_bounds(list[i + far]);
    if (i + near < list.size()) prefetch_row(list[i + near]);
    const vertex_t u = list[i];
    if (bucket_of(load(dist + u), delta) >= current) (*this)(u, current, bins, relaxed, negative);
  }
};

}  // namespace

SsspDistances cpu_delta_stepping(const Context& ctx, const Graph& g, vertex_t source,
                                 const SsspSetup& setup) {
  const Stopwatch t0;
  const vertex_t n = g.n_vertices();
  const int threads = ctx.threads();
  const double delta = setup.delta;
  SsspDistances r;
  r.distance =
      prefaulted_vector(static_cast<std::size_t>(n), std::numeric_limits<double>::infinity());
  double* dist = r.distance.data();
  dist[source] = 0;
  const Relax relax{g.adj().view(), dist, delta};
  const IterationReport report(setup.options.on_iteration, nullptr, t0);

  // Shared between the rounds: the frontier, which is the current bucket
  // of every thread's bins, each moved into its part (no copy); the next
  // bucket and the far piles' lowest, each in two slots by the round's
  // parity, so that one round's are reset while the other's are read; and
  // whether to stop. Two barriers a round, as gapbs.
  std::vector<std::vector<vertex_t>> parts(static_cast<std::size_t>(threads));
  parts[0] = {source};
  std::atomic<bucket_t> next[2] = {no_bucket, no_bucket}, far_next[2] = {no_bucket, no_bucket};
  bool stopped = false;
  std::exception_ptr thrown;
  int rounds = 0;
  offset_t relaxed = 0, negative = std::numeric_limits<offset_t>::max();

#pragma omp parallel num_threads(threads) reduction(+ : relaxed) reduction(min : negative)
  {
    Bins bins;
    std::vector<vertex_t> batch;
    std::vector<std::size_t> starts(parts.size() + 1, 0);
    const auto me = static_cast<std::size_t>(omp_get_thread_num());
    bucket_t current = 0;
    for (int round = 0;; ++round) {
      const int slot = round & 1;
      // The parts end to end, dealt in chunks by one loop: one work-sharing
      // construct a round, not one per part (on a road graph's tens of
      // thousands of thin rounds, 16 threads spent more time starting
      // sixteen loops, most of them over empty parts, than relaxing).
      for (std::size_t p = 0; p < parts.size(); ++p) starts[p + 1] = starts[p] + parts[p].size();
      const std::size_t frontier = starts.back();
      constexpr std::size_t chunk = 64;
#pragma omp for schedule(dynamic, 1) nowait
      for (std::size_t c = 0; c < (frontier + chunk - 1) / chunk; ++c) {
        std::size_t i = c * chunk;
        const std::size_t end = std::min(frontier, i + chunk);
        // The last part starting at or before i holds it (empty parts
        // share their start with the next one).
        auto p = static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), i) -
                                          starts.begin() - 1);
        for (; i < end; ++p)
          for (const std::size_t stop = std::min(end, starts[p + 1]); i < stop; ++i)
            relax.relax_at(parts[p], i - starts[p], current, bins, relaxed, negative);
      }
      // A small remainder of the bucket is this thread's alone to finish.
      // (Swapped with a batch kept across rounds: both keep their capacity,
      // where a move would leave the bin to grow again from nothing.)
      for (std::vector<vertex_t>& mine = bins.at(current);
           !mine.empty() && mine.size() < small_bucket;) {
        batch.clear();
        batch.swap(mine);
        for (std::size_t i = 0; i < batch.size(); ++i)
          relax.relax_at(batch, i, current, bins, relaxed, negative);
      }
      // The next bucket: the lowest of every ring and far pile.
      const auto lower = [](std::atomic<bucket_t>& shared, bucket_t mine) {
        bucket_t seen = shared.load(std::memory_order_relaxed);
        while (mine < seen && !shared.compare_exchange_weak(seen, mine)) {
        }
      };
      lower(next[slot], std::min(bins.first(current), bins.far_min()));
      lower(far_next[slot], bins.far_min());
#pragma omp barrier
      const bucket_t b = next[slot].load(), far_lowest = far_next[slot].load();
      const bool last = b == no_bucket;
      if (!last) {
        // A far pile reaching into the next bucket's ring is filed there;
        // then this thread's share of bucket b becomes its frontier part
        // (the other parts were read before the barrier).
        if (far_lowest - b < window) bins.refile_far(b, dist, delta);
        parts[me].swap(bins.at(b));
        bins.at(b).clear();
      }
#pragma omp single nowait
      {
        next[slot ^ 1].store(no_bucket);  // read last in the round before
        far_next[slot ^ 1].store(no_bucket);
        ++rounds;
        // An exception may not leave the parallel region: it is kept and
        // thrown after it.
        try {
          if (!report.level_done(
                  {.iteration = rounds, .frontier = static_cast<offset_t>(frontier)}) &&
              !last)
            stopped = true;
        } catch (...) {
          thrown = std::current_exception();
        }
      }
      if (last) break;
#pragma omp barrier
      if (stopped || thrown) break;
      current = b;
    }
  }
  if (thrown) std::rethrow_exception(thrown);
  r.iterations = rounds;
  r.relaxations = relaxed;
  r.negative_edge = negative == std::numeric_limits<offset_t>::max() ? -1 : negative;
  r.complete = !stopped;
  return r;
}

}  // namespace graphrun::detail
