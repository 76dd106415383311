// Rabbit Order: communities by incremental aggregation, then the ids
// handed out by a depth-first walk of the merge tree, so that every
// community, and every community inside it, occupies consecutive ids.
//
// 1. Aggregation. The vertices are visited once each, by degree ascending
//    (ties: lower id first). A visited vertex u merges into the neighbouring
//    community v whose merge raises the modularity most,
//        ΔQ(u, v) = 2 (w_uv / 2m - d_u d_v / (2m)²),
//    if that is positive; v then stands for both (its degree is the sum, its
//    edges the union). Otherwise u stays a root: a community of its own at
//    the top. Low-degree vertices are visited first so that they join their
//    hubs before the hubs decide, as in the paper.
// 2. Ordering. Each root's tree, in the order the roots were found, is
//    walked depth first, a vertex before the vertices merged into it, those
//    in the order they merged.
//
// Edges are aggregated lazily, as the paper does: merging u into v only
// links u's edge list to the end of v's; v's list is resolved (each end
// replaced by the root of its community, edges inside v dropped, parallel
// edges summed) when v is visited. A vertex already visited that stays a
// root is never visited again, so nothing is linked to it. Every list
// lives in the region of the edge array its vertex started with: a list is
// a chain of such regions, and a resolved list, never longer than the
// chain, is written back over it. So the whole run takes the 2·nnz links of
// A + Aᵀ and a few arrays of n, whatever the merges.
//
// In parallel, deterministically: the vertices are visited in batches of
// `batch` consecutive ones in that order. Every vertex of a batch resolves
// its list and picks its community at once, from the state before the
// batch (the lists of unvisited vertices are disjoint, so this needs no
// locks); then the merges are applied in visit order, each into what its
// pick has become by then (a vertex whose pick has merged into it stays a
// root). The paper's parallel version merges concurrently instead, with
// retries, and so depends on timing; here the batches are the same on any
// thread count, and so is the ordering. A pick depends only on the sums of
// each community's links, which are small integers, exact in any order, and
// ties go to the lowest id: so neither the order of the links within a
// list nor the thread that resolved it matters.
#include "vertex_order_rabbit.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <numeric>

namespace graphrun::detail {

namespace {

struct Link {
  vertex_t to;
  float weight;
};

// The undirected graph A + Aᵀ without loops as links, weight 1 each: region
// v is [start[v], start[v + 1]). For a symmetric A, A alone: the same graph
// with every weight halved, which changes no pick (every gain halves
// exactly), built in parallel. Otherwise each entry (i, j) gives a link
// i -> j and j -> i, placed by one thread (atomic slots for j's region made
// it 2-3x slower, a locked add per entry).
template <class T>
void symmetric_links(const CsrView<T>& a, bool symmetric, std::vector<offset_t>& start,
                     std::vector<Link>& links) {
  const vertex_t n = a.n_rows;
  start.assign(static_cast<std::size_t>(n) + 1, 0);
  if (symmetric) {
#pragma omp parallel for schedule(dynamic, 1024)
    for (vertex_t i = 0; i < n; ++i) {
      offset_t count = 0;
      for (offset_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) count += a.col_idx[k] != i;
      start[static_cast<std::size_t>(i) + 1] = count;
    }
    std::partial_sum(start.begin(), start.end(), start.begin());
    links.resize(static_cast<std::size_t>(start[n]));
#pragma omp parallel for schedule(dynamic, 1024)
    for (vertex_t i = 0; i < n; ++i) {
      offset_t out = start[i];
      for (offset_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
        if (a.col_idx[k] != i) links[out++] = {a.col_idx[k], 1.0f};
    }
    return;
  }
  for (vertex_t i = 0; i < n; ++i)
    for (offset_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const vertex_t j = a.col_idx[k];
      if (j == i) continue;
      ++start[static_cast<std::size_t>(i) + 1];
      ++start[static_cast<std::size_t>(j) + 1];
    }
  std::partial_sum(start.begin(), start.end(), start.begin());
  links.resize(static_cast<std::size_t>(start[n]));
  std::vector<offset_t> next(start.begin(), start.end() - 1);
  for (vertex_t i = 0; i < n; ++i)
    for (offset_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const vertex_t j = a.col_idx[k];
      if (j == i) continue;
      links[next[i]++] = {j, 1.0f};
      links[next[j]++] = {i, 1.0f};
    }
}

// The vertices by degree ascending, ties by id: a counting sort.
std::vector<vertex_t> by_degree_ascending(const std::vector<offset_t>& start) {
  const auto n = static_cast<vertex_t>(start.size() - 1);
  offset_t top = 0;
  for (vertex_t v = 0; v < n; ++v) top = std::max(top, start[v + 1] - start[v]);
  std::vector<offset_t> first(static_cast<std::size_t>(top) + 2, 0);
  for (vertex_t v = 0; v < n; ++v) ++first[static_cast<std::size_t>(start[v + 1] - start[v]) + 1];
  std::partial_sum(first.begin(), first.end(), first.begin());
  std::vector<vertex_t> order(static_cast<std::size_t>(n));
  for (vertex_t v = 0; v < n; ++v)
    order[first[static_cast<std::size_t>(start[v + 1] - start[v])]++] = v;
  return order;
}

// A thread's sums of link weight by community while it resolves a list:
// n doubles, zero between lists (calloc: pages are zeroed as first touched).
// The largest memory of a run beside the links: 128 MB a thread at 2^24
// vertices.
class Sums {
 public:
  explicit Sums(vertex_t n)
      : sum_(static_cast<double*>(std::calloc(std::max<std::size_t>(n, 1), sizeof(double)))) {
    if (!sum_) throw std::bad_alloc();
  }
  double& operator[](vertex_t v) noexcept { return sum_.get()[v]; }
  std::vector<vertex_t> touched;  // the communities with a sum

 private:
  struct Free {
    void operator()(double* p) const noexcept { std::free(p); }
  };
  std::unique_ptr<double, Free> sum_;
};

class Aggregation {
  static constexpr offset_t prefetch_distance = 8;
  // Vertices decided together, from the state before them: small enough
  // that a vertex still sees most merges of the vertices before it (the
  // paper's parallel run has about a thread's worth in flight), large
  // enough that the two barriers per batch stay a small cost.
  static constexpr std::int64_t batch = 256;

 public:
  template <class T>
  Aggregation(const CsrView<T>& a, bool symmetric) : n_(a.n_rows) {
    symmetric_links(a, symmetric, start_, links_);
    const auto n = static_cast<std::size_t>(n_);
    used_.resize(n);
    next_.assign(n, -1);
    tail_.resize(n);
    parent_.resize(n);
    degree_.resize(n);
    first_child_.assign(n, -1);
    sibling_.assign(n, -1);
    visited_.assign(n, 0);
#pragma omp parallel for schedule(static)
    for (vertex_t v = 0; v < n_; ++v) {
      used_[v] = start_[v + 1] - start_[v];
      tail_[v] = v;
      parent_[v] = v;
      degree_[v] = static_cast<double>(used_[v]);
    }
    two_m_ = static_cast<double>(links_.size());
  }

  // Visits every vertex; returns the roots in the order they were found.
  std::vector<vertex_t> run() {
    const std::vector<vertex_t> visit = by_degree_ascending(start_);
    const auto total = static_cast<std::int64_t>(visit.size());
    std::vector<Sums> sums;
    const int threads = omp_get_max_threads();
    sums.reserve(static_cast<std::size_t>(threads));
    for (int t = 0; t < threads; ++t) sums.emplace_back(n_);
    std::vector<vertex_t> roots, picks(static_cast<std::size_t>(batch));
    roots.reserve(visit.size());  // merge() pushes in a parallel region: no reallocation there
#pragma omp parallel num_threads(threads)
    {
      Sums& mine = sums[static_cast<std::size_t>(omp_get_thread_num())];
      for (std::int64_t begin = 0; begin < total; begin += batch) {
        const std::int64_t end = std::min(total, begin + batch);
#pragma omp for schedule(dynamic, 1)
        for (std::int64_t i = begin; i < end; ++i) picks[i - begin] = resolve(visit[i], mine);
#pragma omp single
        for (std::int64_t i = begin; i < end; ++i) merge(visit[i], picks[i - begin], roots);
      }
    }
    return roots;
  }

  // Depth first from each root: a vertex, then what merged into it, in the
  // order it merged (first_child_ holds the last merged first).
  std::vector<vertex_t> order(const std::vector<vertex_t>& roots) const {
    std::vector<vertex_t> order;
    order.reserve(static_cast<std::size_t>(n_));
    std::vector<vertex_t> stack;
    for (vertex_t r : roots) {
      stack.push_back(r);
      while (!stack.empty()) {
        const vertex_t v = stack.back();
        stack.pop_back();
        order.push_back(v);
        // Pushed last merged first, so the first merged is popped first.
        for (vertex_t c = first_child_[v]; c >= 0; c = sibling_[c]) stack.push_back(c);
      }
    }
    return order;
  }

 private:
  // The root of v's community, halving the path on the way. Lists are
  // resolved on several threads at once, while no merge is made: a parent
  // then only ever moves up to an ancestor, whichever thread moves it, so
  // relaxed atomic loads and stores (plain moves on x86) make the halving
  // safe. Without it every read walks the whole path, which grows a step
  // with every merge of a community into another (2.5x slower on R-MAT).
  vertex_t root_of(vertex_t v) noexcept {
    for (;;) {
      std::atomic_ref<vertex_t> up(parent_[v]);
      const vertex_t p = up.load(std::memory_order_relaxed);
      if (p == v) return v;
      const vertex_t pp = std::atomic_ref<vertex_t>(parent_[p]).load(std::memory_order_relaxed);
      up.store(pp, std::memory_order_relaxed);
      v = pp;
    }
  }

  // The same, halving the path on the way: while merges are applied, on
  // one thread.
  vertex_t find(vertex_t v) noexcept {
    while (parent_[v] != v) {
      parent_[v] = parent_[parent_[v]];
      v = parent_[v];
    }
    return v;
  }

  // Resolves u's edge list in place and returns the community u should
  // merge into, or -1 where no merge raises the modularity. Touches only
  // u's own chain and `sums`.
  vertex_t resolve(vertex_t u, Sums& sums) {
    std::vector<vertex_t>& touched = sums.touched;
    touched.clear();
    for (vertex_t s = u; s >= 0; s = next_[s])
      for (offset_t k = start_[s], end = start_[s] + used_[s]; k < end; ++k) {
        // The ends are scattered over n: fetch a parent ahead, then its
        // sum; each is a cache miss on a large graph.
        if (k + 2 * prefetch_distance < end) {
          __builtin_prefetch(&parent_[links_[k + 2 * prefetch_distance].to]);
          __builtin_prefetch(&sums[parent_[links_[k + prefetch_distance].to]]);
        }
        const vertex_t r = root_of(links_[k].to);
        if (r == u) continue;
        if (sums[r] == 0.0) touched.push_back(r);
        sums[r] += links_[k].weight;
      }
    // ΔQ ∝ w_uv - d_u d_v / 2m: the best positive one, the lowest id on
    // ties, so that the order the links lie in does not matter (the sums
    // are of small integers, exact in any order).
    vertex_t best = -1;
    double best_gain = 0.0;
    const double du = degree_[u] / two_m_;
    for (vertex_t r : touched) {
      const double gain = sums[r] - du * degree_[r];
      if (gain > best_gain || (gain == best_gain && best >= 0 && r < best)) {
        best_gain = gain;
        best = r;
      }
    }
    // Write the resolved list back over the chain, region by region; it is
    // never longer than what the chain held.
    vertex_t s = u, last = u;
    offset_t k = start_[s], end = start_[s + 1];
    used_[s] = 0;
    for (vertex_t r : touched) {
      while (k == end) {
        s = next_[s];
        last = s;
        k = start_[s];
        end = start_[s + 1];
        used_[s] = 0;
      }
      links_[k++] = {r, static_cast<float>(sums[r])};
      ++used_[s];
      sums[r] = 0.0;
    }
    next_[last] = -1;
    tail_[u] = last;
    return best;
  }

  // Applies u's pick: into the community it picked, or what that has
  // merged into since; u stays a root where there is none or it is u.
  void merge(vertex_t u, vertex_t pick, std::vector<vertex_t>& roots) {
    visited_[u] = 1;
    const vertex_t v = pick < 0 ? -1 : find(pick);
    if (v < 0 || v == u) {
      roots.push_back(u);
      return;
    }
    parent_[u] = v;
    degree_[v] += degree_[u];
    sibling_[u] = first_child_[v];
    first_child_[v] = u;
    if (!visited_[v]) {  // v's list is still to be resolved: u's joins it
      next_[tail_[v]] = u;
      tail_[v] = tail_[u];
    }
  }

  vertex_t n_;
  std::vector<offset_t> start_;  // region v of links_: [start_[v], start_[v + 1])
  std::vector<Link> links_;
  std::vector<offset_t> used_;                   // how much of region v holds links
  std::vector<vertex_t> next_;                   // the next region of the chain, or -1
  std::vector<vertex_t> tail_;                   // the last region of v's chain
  std::vector<vertex_t> parent_;                 // union-find: the community a vertex merged into
  std::vector<double> degree_;                   // a root's degree: the sum over its community
  std::vector<vertex_t> first_child_, sibling_;  // the merge tree
  std::vector<char> visited_;
  double two_m_ = 0;
};

}  // namespace

template <class T>
std::vector<vertex_t> rabbit_order(const CsrView<T>& a, bool symmetric) {
  Aggregation aggregation(a, symmetric);
  const std::vector<vertex_t> roots = aggregation.run();
  return aggregation.order(roots);
}

template std::vector<vertex_t> rabbit_order(const CsrView<float>&, bool);
template std::vector<vertex_t> rabbit_order(const CsrView<double>&, bool);

}  // namespace graphrun::detail
