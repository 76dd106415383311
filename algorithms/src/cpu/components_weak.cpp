// Weak components on the CPU: Afforest (Sutton, Ben-Nun, Barak, "Optimizing
// Parallel Graph Connectivity Computation via Subgraph Sampling", IPDPS
// 2018), the algorithm of the GAP reference's cc.cc.
//
// A union-find forest in `comp`, where every link hooks the larger of two
// roots under the smaller with a compare-and-swap, so a root is always the
// smallest vertex of its tree and no lock is taken:
//   1. link every vertex to its first `sample_rounds` neighbours, a pass per
//      neighbour with a compress after each (the neighbour's entry a few
//      vertices ahead prefetched): on most graphs this already joins the
//      giant component;
//   2. read the root of 1024 random vertices and take the most frequent one;
//   3. link the remaining edges of every vertex outside that component. An
//      edge between a vertex inside and one outside is met from the outside
//      vertex, so this is exact for an undirected graph (every edge stored
//      both ways). A directed graph stores u -> v in u's row only, so there
//      step 3 reads every vertex's row: weak components need each edge once,
//      in either direction, and never the transpose.
// Plain loads and stores of `comp` are std::atomic_ref relaxed: the
// compare-and-swap is the only ordering the forest needs, and a stale read
// only sends a link round its loop once more.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "../afforest_sample.hpp"
#include "cpu_backend.hpp"
#include "graphrun/engine/host_trace.hpp"
#include "graphrun/engine/prefault.hpp"

namespace graphrun::detail {

namespace {

constexpr int sample_rounds = 2;
// A sampling pass reads comp at a random neighbour per vertex; the entry of
// the neighbour link_ahead vertices on is prefetched meanwhile. On a uniform
// random graph of 2^20 vertices (gapbs -u 20, 2 threads) the two passes took
// 49 ms without it, 40.5 ms with 16 ahead (41.6 with 8, 43.0 with 32);
// gapbs's whole run, which reads it plainly, 41-42 ms.
constexpr vertex_t link_ahead = 16;
// Only where comp is larger than about a core's L2 (2 MiB on the 2-vCPU
// machine of docs/performance.md): where it fits, the prefetch is pure
// overhead. There, 2 threads, medians of 21: soc-Epinions1 (0.3 MB) 0.84 ms with it,
// 0.75 without; web-NotreDame (1.3 MB) 2.60 and 2.45 ms; gapbs -u 20 (4 MB)
// 36.8 ms with it, 42 without.
constexpr std::size_t prefetch_min_bytes = std::size_t{2} << 20;

class Forest {
 public:
  explicit Forest(std::vector<vertex_t>& comp) : comp_(comp.data()) {}

  vertex_t parent(vertex_t v) const {
    return std::atomic_ref<vertex_t>(comp_[v]).load(std::memory_order_relaxed);
  }

  // Asks for v's entry ahead of its link (for writing: a link may hook it).
  // Prefetching for reading was tried against gapbs -u 20 on 16 cores,
  // where graphrun is 2x behind: 16.1-16.9 ms against 12.7-15.5 with this.
  void prefetch(vertex_t v) const { __builtin_prefetch(comp_ + v, 1); }

  // Joins the trees of u and v (gapbs's Link).
  void link(vertex_t u, vertex_t v) const {
    vertex_t p1 = parent(u), p2 = parent(v);
    while (p1 != p2) {
      // The larger root by a conditional move, the smaller from it (gapbs's
      // form): written as std::max and std::min, GCC 12 branched on a
      // comparison of two random roots, mispredicted about half the time
      // in a loop of dependent loads (gapbs -u 20, one thread: sampling
      // rounds 33.6 + 61 ms, now 24 + 40; gapbs's own 25.5 + 48.5).
      const vertex_t high = p1 > p2 ? p1 : p2, low = p1 + (p2 - high);
      vertex_t p_high = parent(high);
      if (p_high == low) return;  // already hooked there
      if (p_high == high && std::atomic_ref<vertex_t>(comp_[high])
                                .compare_exchange_strong(p_high, low, std::memory_order_relaxed))
        return;
      p1 = parent(parent(high));
      p2 = parent(low);
    }
  }

  // Points every vertex at its root.
  void compress(vertex_t n, int threads, vertex_t chunk) const {
    const Forest forest = *this;  // each thread's own copy (see link's callers)
#pragma omp parallel for num_threads(threads) schedule(dynamic, chunk) firstprivate(forest)
    for (vertex_t v = 0; v < n; ++v) {
      vertex_t p = forest.parent(v);
      while (p != forest.parent(p)) {
        const vertex_t pp = forest.parent(p);
        std::atomic_ref<vertex_t>(forest.comp_[v]).store(pp, std::memory_order_relaxed);
        p = pp;
      }
    }
  }

 private:
  vertex_t* comp_;
};

// The root most of a fixed sample of vertices have (afforest_sample.hpp;
// after a compress, comp[v] is v's root).
vertex_t most_frequent_root(const std::vector<vertex_t>& comp) {
  std::vector<vertex_t> roots = afforest_sample(static_cast<vertex_t>(comp.size()));
  for (vertex_t& v : roots) v = comp[v];
  return most_frequent(roots);
}

}  // namespace

std::vector<vertex_t> cpu_weak_components(const Context& ctx, const Graph& g) {
  HostTrace trace("components");  // GRAPHRUN_TRACE: each pass's time
  const vertex_t n = g.n_vertices();
  const int threads = ctx.threads();
  const CsrView<double> a = g.adj().view();
  // Every vertex its own tree: pages faulted in on every core
  // (prefault.hpp), zeroed by the vector (a memset: one core, but at copy
  // speed), then numbered by every thread. Inserting an iota view instead,
  // written once but element by element on one core, took 2-2.4x as long
  // on memory already mapped and 1.5-1.7x on fresh memory (2 threads, 0.33
  // to 4.2 million vertices: 0.30 against 0.16 ms for web-NotreDame's).
  std::vector<vertex_t> comp;
  comp.reserve(static_cast<std::size_t>(n));
  prefault_capacity(comp);
  comp.resize(static_cast<std::size_t>(n));
#pragma omp parallel for num_threads(threads) schedule(static)
  for (vertex_t v = 0; v < n; ++v) comp[v] = v;
  Forest forest(comp);
  // Each thread's own copies of the forest and the arrays' addresses
  // (firstprivate below): every link's compare-and-swap is a barrier to the
  // compiler, after which shared ones were loaded again at every edge.
  const offset_t* row_ptr = a.row_ptr;
  const vertex_t* col_idx = a.col_idx;
  trace.step("labels made");
  const bool prefetch = static_cast<std::size_t>(n) * sizeof(vertex_t) > prefetch_min_bytes;
  // Chunks of gapbs's 16,384 vertices, fewer where that leaves under eight
  // a thread: Cornell5's 18,660 vertices were two chunks, one thread doing
  // seven eighths of every pass (2 threads: 0.55 -> 0.30 ms; soc-Slashdot0902,
  // 82K vertices in 6 chunks, 1.47 -> 1.40 ms; the large graphs as before).
  const vertex_t chunk = std::clamp<vertex_t>(n / (8 * threads), 1024, 16384);

  // A pass per sampled neighbour, each followed by a compress (as gapbs):
  // the second round's links then start from flat trees. Linking both
  // neighbours in one pass reads each row once, but leaves deeper trees
  // whose roots many threads climb to and CAS at together.
  for (int round = 0; round < sample_rounds; ++round) {
#pragma omp parallel for num_threads(threads) schedule(dynamic, chunk) \
    firstprivate(row_ptr, col_idx, forest)
    for (vertex_t u = 0; u < n; ++u) {
      if (prefetch && u + link_ahead < n) {
        const offset_t ahead = row_ptr[u + link_ahead] + round;
        if (ahead < row_ptr[u + link_ahead + 1]) forest.prefetch(col_idx[ahead]);
      }
      const offset_t k = row_ptr[u] + round;
      if (k < row_ptr[u + 1]) forest.link(u, col_idx[k]);
    }
    trace.step(round == 0 ? "sampling round 1" : "sampling round 2");
    forest.compress(n, threads, chunk);
    trace.step("compressed");
  }

  // On a directed graph no vertex may be skipped (see the top).
  const vertex_t giant = g.directed() ? -1 : most_frequent_root(comp);
  trace.step("giant sampled");
#pragma omp parallel for num_threads(threads) schedule(dynamic, chunk) \
    firstprivate(row_ptr, col_idx, forest)
  for (vertex_t u = 0; u < n; ++u) {
    if (forest.parent(u) == giant) continue;
    const offset_t end = row_ptr[u + 1];
    for (offset_t k = row_ptr[u] + sample_rounds; k < end; ++k) forest.link(u, col_idx[k]);
  }
  trace.step("the rest linked");
  forest.compress(n, threads, chunk);
  trace.step("compressed");
  return comp;
}

}  // namespace graphrun::detail
