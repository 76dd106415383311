// Louvain's local moving on the CPU (louvain.hpp): sweeps of deterministic
// parallel moves.
//
// A sweep visits the vertices in louvain_batches groups, by a hash of the
// vertex and the seed (backend.hpp). The vertices of a group decide in
// parallel from the state before the group: each sums its edge weights per
// neighbouring community in a thread-local hash table (CommunitySums), and
// takes the community of the largest gain
//     ΔQ(c) ∝ w(v, c) - γ k_v tot_c / 2m
// (its own community, with v taken out, when none is strictly larger;
// otherwise the lowest id among the best). Then the group's moves are
// applied on one thread in vertex order, so the totals are the same sums in
// the same order whatever the thread count. The sweep's Q is summed in
// fixed blocks of vertices (backend.hpp), whatever the thread count. The
// GPU (cuda/louvain.cu) follows the same steps to the same bits.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "../louvain_modularity.hpp"
#include "cpu_backend.hpp"
#include "graphrun/engine/per_thread.hpp"

namespace graphrun::detail {

namespace {

// w(v, c) for the communities c next to one vertex v: open addressing with
// linear probing, at least twice as many slots as v has entries (so at most
// half full), the community hashed by Fibonacci multiplication. Each sum
// is added in v's storage order, as a dense array indexed by community
// would add it; a table of the row's size stays in cache where a dense
// array of n doubles per thread (1.3 GB on 16 threads at 10^7 vertices)
// would not.
class CommunitySums {
 public:
  // Ready for a vertex of `entries` entries; the table is empty.
  void start(offset_t entries) {
    const auto want = std::bit_ceil(static_cast<std::uint64_t>(std::max<offset_t>(8, 2 * entries)));
    if (want > key_.size()) {
      key_.assign(want, -1);
      weight_.resize(want);
    }
    shift_ = 64 - std::countr_zero(want);
    mask_ = want - 1;
  }
  void add(vertex_t c, double x) {
    std::size_t h = slot_of(c);
    while (key_[h] != c && key_[h] != -1) h = (h + 1) & mask_;
    if (key_[h] == -1) {
      key_[h] = c;
      weight_[h] = 0;
      used_.push_back(h);
    }
    weight_[h] += x;
  }
  double of(vertex_t c) const {
    for (std::size_t h = slot_of(c); key_[h] != -1; h = (h + 1) & mask_)
      if (key_[h] == c) return weight_[h];
    return 0;
  }
  template <class F>
  void for_each(F&& f) const {
    for (std::size_t h : used_) f(key_[h], weight_[h]);
  }
  void clear() {
    for (std::size_t h : used_) key_[h] = -1;
    used_.clear();
  }

 private:
  std::size_t slot_of(vertex_t c) const {
    return static_cast<std::size_t>((static_cast<std::uint64_t>(static_cast<std::uint32_t>(c)) *
                                     0x9e3779b97f4a7c15ULL) >>
                                    shift_) &
           mask_;
  }
  std::vector<vertex_t> key_;  // -1: empty
  std::vector<double> weight_;
  std::vector<std::size_t> used_;  // the filled slots, in the order they were filled
  int shift_ = 61;
  std::size_t mask_ = 7;
};

// The sweep's Q, louvain_modularity's sum to the bit, without walking every
// row each sweep: inner(v) is kept per vertex, and after a sweep only the
// rows of the vertices that moved and of their neighbours (W is symmetric:
// a row's neighbours are the rows that hold it) are walked again; the blocks
// are then summed from the kept values in the same order. Late sweeps move
// a few vertices, and the full walk was a third of a level's time.
class SweepModularity {
 public:
  SweepModularity(const CsrView<double>& w, double two_m, double gamma, int threads)
      : w_(w),
        two_m_(two_m),
        gamma_(gamma),
        threads_(threads),
        inner_(static_cast<std::size_t>(w.n_rows)),
        stale_(static_cast<std::size_t>(w.n_rows), 1) {}

  // Vertex v took another community: its row and its neighbours' rows go
  // stale (marked in parallel when Q is next summed).
  void moved(vertex_t v) { moved_.push_back(v); }

  double operator()(std::span<const vertex_t> label, std::span<const double> tot) {
    const auto count = static_cast<std::int64_t>(moved_.size());
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 64)
    for (std::int64_t i = 0; i < count; ++i) {
      const vertex_t v = moved_[static_cast<std::size_t>(i)];
      std::atomic_ref<std::uint8_t>(stale_[static_cast<std::size_t>(v)])
          .store(1, std::memory_order_relaxed);
      for (offset_t e = w_.row_ptr[v]; e < w_.row_ptr[v + 1]; ++e)
        std::atomic_ref<std::uint8_t>(stale_[static_cast<std::size_t>(w_.col_idx[e])])
            .store(1, std::memory_order_relaxed);
    }
    moved_.clear();
    return louvain_modularity_of(w_.n_rows, tot, two_m_, gamma_, threads_, [&](vertex_t v) {
      const auto i = static_cast<std::size_t>(v);
      if (stale_[i]) {
        inner_[i] = louvain_inner(w_, label, v);
        stale_[i] = 0;
      }
      return inner_[i];
    });
  }

 private:
  CsrView<double> w_;
  double two_m_, gamma_;
  int threads_;
  std::vector<double> inner_;
  std::vector<std::uint8_t> stale_;  // 1: inner_ must be walked again
  std::vector<vertex_t> moved_;      // since Q was last summed
};

}  // namespace

LouvainMoves CpuSteps::louvain_moves(Context& ctx, const LouvainLevel& level,
                                     const LouvainOptions& options) {
  const CsrView<double> w = level.w.view();
  // A level of a few thousand entries is done before the other threads
  // wake (karate: 0.30 ms on 2 threads, 0.12 on one); the moves are the
  // same on any thread count.
  const int threads =
      static_cast<int>(std::clamp<offset_t>(w.nnz / 1024, 1, std::max(1, ctx.threads())));
  const vertex_t n = w.n_rows;
  const double two_m = level.two_m, gamma = options.resolution;
  LouvainStart start = louvain_start(level, options.seed);
  LouvainMoves r;
  r.community = std::move(start.community);
  std::vector<double>& tot = start.tot;
  std::vector<vertex_t>& size = start.size;
  const std::vector<std::vector<vertex_t>>& group = start.group;
  std::vector<vertex_t> target(static_cast<std::size_t>(n));
  vertex_t* community = r.community.data();

  // Each thread's per-community sums: an open-addressing table sized to the
  // vertex's row, cleared after every vertex. (A dense array of the level's
  // communities per thread was tried: 0.38 -> 0.43 s on one thread for
  // soc-Slashdot0902, its 650 KB in L2 against a row-sized table in L1.)
  PerThread<CommunitySums> sums(threads);
  SweepModularity modularity(w, two_m, gamma, threads);
  double q = modularity(r.community, tot);
  for (;;) {
    offset_t moved = 0;
    for (const std::vector<vertex_t>& members : group) {
      const auto count = static_cast<std::int64_t>(members.size());
      // Chunks of 256 left a small graph's groups (a 4k-vertex graph's are
      // ~250 vertices) to one thread; eight chunks a thread keep them
      // shared, and 16 vertices a chunk keep the hand-out cheap.
      const std::int64_t chunk = std::clamp<std::int64_t>(count / (8 * threads), 16, 256);
#pragma omp parallel num_threads(threads)
      {
        CommunitySums& weight_to = sums[omp_get_thread_num()];
#pragma omp for schedule(dynamic, chunk)
        for (std::int64_t i = 0; i < count; ++i) {
          const vertex_t v = members[i];
          const vertex_t own = community[v];
          weight_to.start(w.row_ptr[v + 1] - w.row_ptr[v]);
          for (offset_t e = w.row_ptr[v]; e < w.row_ptr[v + 1]; ++e) {
            const vertex_t u = w.col_idx[e];
            if (u == v) continue;  // v's loop moves with v
            weight_to.add(community[u], w.values[e]);
          }
          const double kv = level.k[v];
          vertex_t best = own;
          double best_gain = weight_to.of(own) - gamma * kv * (tot[own] - kv) / two_m;
          weight_to.for_each([&](vertex_t c, double weight) {
            if (c == own) return;
            // Two singletons join one way only: into the lower id.
            if (size[own] == 1 && size[c] == 1 && c > own) return;
            const double gain = weight - gamma * kv * tot[c] / two_m;
            if (gain > best_gain || (gain == best_gain && best != own && c < best)) {
              best = c;
              best_gain = gain;
            }
          });
          weight_to.clear();
          target[v] = best;
        }
      }
      for (vertex_t v : members) {
        const vertex_t from = community[v], to = target[v];
        if (from == to) continue;
        tot[from] -= level.k[v];
        tot[to] += level.k[v];
        --size[from];
        ++size[to];
        community[v] = to;
        modularity.moved(v);
        ++moved;
      }
    }
    ++r.sweeps;
    r.moves += moved;
    if (moved == 0) break;  // nothing changed: Q is q to the bit
    const double next = modularity(r.community, tot);
    const double gained = next - q;
    q = next;
    if (gained < options.tolerance) break;
  }
  r.modularity = q;
  return r;
}

}  // namespace graphrun::detail
