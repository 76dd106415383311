// Triangles on the CPU (triangles.hpp): the masked dot-product SpGEMM
// C<L> = L ·(+,pair) Lᵀ over the degree-oriented graph L.
//
// L keeps the entry v -> w of the undirected view when (bin w, w) >
// (bin v, v), with the vertices renumbered in that order (as the GAP
// reference relabels by degree) and each row sorted, so C(v, w) is a merge
// of two sorted rows. bin v is len v, the length of v's row as stored, exact
// below 64 and by powers of two above (order_bin). len v comes from the row
// pointers without a read of the row: the degree, plus one for a loop (on a
// directed graph v's rows in A and Aᵀ together, an edge both ways counted
// twice). Any total order finds every triangle once; this one bounds the
// rows as the degree does, within a factor of two, and the degrees
// themselves come from the orientation's walk of the rows (a search of
// every row for its loop, first, was 7% of web-NotreDame's count on 2
// threads).
//
// A thread takes a row v of L (dynamic schedule: rows differ in length and
// so do their neighbours'), merges the part of it past each w in it with
// w's row (both hold only ranks above w), and sums. Where the triangles
// through every vertex are asked, each triangle v < w < x found adds one to
// each of its three corners: v's count once per row, w's once per merge,
// x's once per match, by relaxed atomic adds (the counts are integers: the
// order of the adds cannot change them).
//
// An undirected graph with fewer than 10 edges per vertex and degrees that
// are not skewed (triangles_orientation.hpp: roads, meshes) is counted on
// its own ids and rows, oriented by id, with nothing built (as the GAP
// reference's OrderedCount without relabelling): v's neighbours below v
// are its sorted row's prefix, and each w among them is merged with w's own
// row up to w. On luxembourg_osm (114,599 vertices, 68 triangles) building
// L was most of a 2.2 ms count, 0.68 ms without it (the GAP reference:
// 0.30 ms; 2 threads). Elsewhere the renumbered rows' locality wins even
// on flat graphs: 2 threads, own ids against renumbered, gapbs -u 18 0.30
// against 0.28 s, Cornell5 0.16 against 0.12 s, soc-Epinions1 36 against
// 33 ms.
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <memory>
#include <vector>

#include "../triangles_orientation.hpp"
#include "../undirected_rows.hpp"
#include "cpu_backend.hpp"
#include "graphrun/engine/csr_assembly.hpp"
#include "graphrun/engine/host_trace.hpp"
#include "graphrun/engine/prefault.hpp"
#include "parallel_scan.hpp"

namespace graphrun::detail {

namespace {

// The order's key for a row of `len` stored entries (len v, see the top):
// the length itself below 64, then one bin per power of two. Orienting by
// (bin, id) bounds the rows as (len, id) does, within a factor of two, and
// leaves the counting sort below a few hundred bins: with one bin per length
// and a block of bins per thread, web-NotreDame's order (10,722 lengths)
// took 2 ms on 16 threads, as long as its count.
constexpr offset_t exact_lengths = 64;
constexpr std::size_t order_bins = exact_lengths + 64;
inline std::size_t order_bin(offset_t len) {
  return len < exact_lengths
             ? static_cast<std::size_t>(len)
             : static_cast<std::size_t>(exact_lengths) +
                   static_cast<std::size_t>(std::bit_width(static_cast<std::uint64_t>(len)) - 7);
}

// The rank of every vertex in ascending (bin, id) order: a stable counting
// sort. On several threads each takes a block of consecutive vertices and
// counts its bins; a vertex's rank is then the vertices of lower bins, plus
// those of its bin in earlier blocks, plus those before it in its own block.
// The ranks are the same for every thread count.
std::unique_ptr<vertex_t[]> degree_order(const UndirectedRows& rows, int threads) {
  const vertex_t n = rows.n();
  auto rank = detail::scratch<vertex_t>(static_cast<std::size_t>(n));
  const std::size_t blocks = threads <= 1 || n < (1 << 16) ? 1 : static_cast<std::size_t>(threads);
  // next[b * order_bins + k]: block b's count of bin k, then where its next
  // vertex of bin k goes. Each block's counts fill whole cache lines.
  std::vector<vertex_t> next(blocks * order_bins, 0);
  const auto first = [n, blocks](std::size_t b) {
    return static_cast<vertex_t>(static_cast<std::size_t>(n) * b / blocks);
  };
  const auto bin = [&rows](vertex_t v) { return order_bin(rows.slot(v + 1) - rows.slot(v)); };
#pragma omp parallel for num_threads(threads) schedule(static, 1) if (blocks > 1)
  for (std::size_t b = 0; b < blocks; ++b) {
    const vertex_t lo = first(b), hi = first(b + 1);
    vertex_t* const count = next.data() + b * order_bins;
    for (vertex_t v = lo; v < hi; ++v) ++count[bin(v)];
  }
  vertex_t at = 0;
  for (std::size_t k = 0; k < order_bins; ++k)
    for (std::size_t b = 0; b < blocks; ++b) {
      const vertex_t count = next[b * order_bins + k];
      next[b * order_bins + k] = at;
      at += count;
    }
  vertex_t* const ranks = rank.get();
#pragma omp parallel for num_threads(threads) schedule(static, 1) if (blocks > 1)
  for (std::size_t b = 0; b < blocks; ++b) {
    const vertex_t lo = first(b), hi = first(b + 1);
    vertex_t* const to = next.data() + b * order_bins;
    for (vertex_t v = lo; v < hi; ++v) ranks[v] = to[bin(v)]++;
  }
  return rank;
}

// L, renumbered by rank: row rank[v] holds the ranks above it among v's
// neighbours, ascending. Numbering by rank puts the rows of the
// high-degree vertices, which most merges read, side by side at the end.
// The arrays are left uninitialized and first written by the threads that
// fill them (a serial zero-fill of L's entries is a large share of the
// count on a big graph).
struct Oriented {
  std::unique_ptr<offset_t[]> row_ptr;
  std::unique_ptr<vertex_t[]> col_idx;
  CsrView<double> view;
};

// One walk of the rows: each vertex's kept ranks go, sorted, to its own slot
// of a buffer with room for every row at its longest (UndirectedRows::slot),
// and its row's length to L's row pointers; after their scan a streaming pass
// moves each row to its place in L. Counting the rows' lengths first and
// filling L in a second walk read every neighbour's rank twice, and those
// scattered reads were most of the orientation: web-NotreDame, 2 threads,
// 10 ms of a 24 ms count.
// The walk also writes every vertex's degree.
Oriented orient_by_degree(const UndirectedRows& rows, const vertex_t* ranks, vertex_t* degree,
                          int threads) {
  const vertex_t n = rows.n();
  Oriented l;
  l.row_ptr = detail::scratch<offset_t>(static_cast<std::size_t>(n) + 1);
  offset_t* const row_ptr = l.row_ptr.get();
  row_ptr[0] = 0;
  const auto kept = detail::scratch<vertex_t>(static_cast<std::size_t>(rows.slot(n)));
  vertex_t* const buffer = kept.get();
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
  for (vertex_t v = 0; v < n; ++v) {
    const vertex_t rv = ranks[v];
    vertex_t* const begin = buffer + rows.slot(v);
    vertex_t* end = begin;
    vertex_t walked = 0;
    rows.walk(v, [&end, &walked, ranks, rv](vertex_t w) {
      const vertex_t rw = ranks[w];
      *end = rw;
      end += rw > rv;  // kept, or overwritten by the next
      ++walked;
    });
    degree[v] = walked;
    std::sort(begin, end);
    row_ptr[static_cast<std::size_t>(rv) + 1] = end - begin;
  }
  parallel_inclusive_scan(row_ptr + 1, static_cast<std::size_t>(n), threads);
  l.col_idx = detail::scratch<vertex_t>(static_cast<std::size_t>(row_ptr[n]));
  vertex_t* const col_idx = l.col_idx.get();
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
  for (vertex_t v = 0; v < n; ++v) {
    const vertex_t rv = ranks[v];
    const offset_t first = row_ptr[rv], last = row_ptr[rv + 1];
    std::copy(buffer + rows.slot(v), buffer + rows.slot(v) + (last - first), col_idx + first);
  }
  l.view = {n, n, row_ptr[n], row_ptr, col_idx, nullptr};
  return l;
}

// |a ∩ b| of two sorted rows; `match` sees each common entry. Branch-free
// steps: the merge's comparisons are data-dependent coin flips. Bounded:
// the merge stops where b reaches `bound` (a holds only entries below it).
template <bool Bounded = false, class Match>
std::uint64_t intersect(const vertex_t* a, const vertex_t* a_end, const vertex_t* b,
                        const vertex_t* b_end, Match&& match, vertex_t bound = 0) {
  std::uint64_t common = 0;
  while (a < a_end && b < b_end && (!Bounded || *b < bound)) {
    const vertex_t x = *a, y = *b;
    if (x == y) {
      ++common;
      match(x);
    }
    a += x <= y;
    b += y <= x;
  }
  return common;
}

void add(std::uint64_t* count, vertex_t v, std::uint64_t k) {
  std::atomic_ref<std::uint64_t>(count[v]).fetch_add(k, std::memory_order_relaxed);
}

// One merge of a count: the triangles the row's vertex and w close through
// the common entries of a and b; with PerVertex their corners x and w
// counted in `through` (the row's own vertex once per row, by the caller).
template <bool PerVertex, bool Bounded = false>
std::uint64_t close_triangles(const vertex_t* a, const vertex_t* a_end, const vertex_t* b,
                              const vertex_t* b_end, vertex_t w, std::uint64_t* through) {
  if constexpr (PerVertex) {
    const std::uint64_t c = intersect<Bounded>(
        a, a_end, b, b_end, [through](vertex_t x) { add(through, x, 1); }, w);
    if (c > 0) add(through, w, c);
    return c;
  } else {
    return intersect<Bounded>(
        a, a_end, b, b_end, [](vertex_t) {}, w);
  }
}

// What a row gives: the triangles found from it, and the count's other sum
// (the edges below v, for the count on a graph's own rows).
struct RowSums {
  std::uint64_t triangles = 0;
  std::uint64_t edges = 0;
};

// The sums over the rows v of `found_from(v)`; with PerVertex, each row's
// triangles also go to v's corner.
template <bool PerVertex, class FoundFrom>
RowSums sum_rows(vertex_t n, std::uint64_t* through, int threads, int chunk,
                 const FoundFrom& found_from) {
  std::uint64_t total = 0, edges = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, chunk) reduction(+ : total, edges)
  for (vertex_t v = 0; v < n; ++v) {
    const RowSums found = found_from(v);
    if constexpr (PerVertex)
      if (found.triangles > 0) add(through, v, found.triangles);
    total += found.triangles;
    edges += found.edges;
  }
  return {total, edges};
}

// The sum of C<L> = L · Lᵀ; with per_vertex, each triangle's three corners
// counted in `through`.
template <bool PerVertex>
std::uint64_t count(const CsrView<double>& l, std::uint64_t* through, int threads) {
  const RowSums sums =
      sum_rows<PerVertex>(l.n_rows, through, threads, 64, [&l, through](vertex_t v) {
        const vertex_t* row = l.col_idx + l.row_ptr[v];
        const vertex_t* row_end = l.col_idx + l.row_ptr[v + 1];
        std::uint64_t found = 0;
        for (const vertex_t* w = row; w < row_end; ++w) {
          const vertex_t* other = l.col_idx + l.row_ptr[*w];
          const vertex_t* other_end = l.col_idx + l.row_ptr[*w + 1];
          // L(w,:) holds only ranks above w: v's row is merged from past w on
          // (the GAP reference's early stop, in the other direction).
          found += close_triangles<PerVertex>(w + 1, row_end, other, other_end, *w, through);
        }
        return RowSums{found, 0};
      });
  return sums.triangles;
}

// The count on an undirected graph's own rows (a, sorted, both directions
// stored; loops skipped by the strict order): the triangle x < w < v is
// found once, from v's row, as x in both v's and w's prefixes below w. The
// same pass writes each vertex's degree (its row less the loop, which sits
// where the prefix ends) and counts the edges, each once, from its higher
// end: on a road graph the separate passes were a quarter of the time.
template <bool PerVertex>
RowSums count_by_id(const CsrView<double>& a, std::uint64_t* through, vertex_t* degree,
                    int threads) {
  // Rows of this path are short and alike (degrees flat): chunks of 64
  // spent more on taking them than on their rows (luxembourg_osm, 115k rows
  // of ~2 entries, 2 threads: 0.32 ms with 64, 0.27 with 1024-4096). About
  // eight chunks a thread, 64 to 4096 rows each.
  const int chunk =
      static_cast<int>(std::clamp<vertex_t>(a.n_rows / (8 * std::max(threads, 1)), 64, 4096));
  return sum_rows<PerVertex>(a.n_rows, through, threads, chunk, [&a, through, degree](vertex_t v) {
    const vertex_t* row = a.col_idx + a.row_ptr[v];
    const vertex_t* end = a.col_idx + a.row_ptr[v + 1];
    // A linear scan, not a binary search: rows are short on the graphs
    // that take this path (luxembourg_osm, 2 threads: 0.355 -> 0.31 ms).
    const vertex_t* below = row;
    while (below < end && *below < v) ++below;
    degree[v] = static_cast<vertex_t>((end - row) - (below < end && *below == v ? 1 : 0));
    std::uint64_t found = 0;
    for (const vertex_t* w = row; w < below; ++w) {
      // v's entries before w are all below w: once w's row reaches w, nothing
      // more can match, and the merge stops there (no search for that point).
      const vertex_t* other = a.col_idx + a.row_ptr[*w];
      const vertex_t* other_end = a.col_idx + a.row_ptr[*w + 1];
      found += close_triangles<PerVertex, true>(row, w, other, other_end, *w, through);
    }
    return RowSums{found, static_cast<std::uint64_t>(below - row)};
  });
}

// Whether to renumber (triangles_orientation.hpp): unless the graph is
// sparse and its sampled degrees, read from their rows, are not skewed.
bool renumber(const UndirectedRows& rows, offset_t entries) {
  const vertex_t n = rows.n();
  if (ten_edges_per_vertex(n, entries)) return true;
  const int samples = renumbering_samples(n);
  std::vector<vertex_t> sampled(static_cast<std::size_t>(samples));
  for (int i = 0; i < samples; ++i) sampled[i] = rows.degree(renumbering_sample(n, samples, i));
  return degrees_skewed(std::move(sampled));
}

}  // namespace

TriangleCounts CpuSteps::triangles(Context& ctx, const Graph& g, const TriangleOptions& options) {
  HostTrace trace("triangles");  // GRAPHRUN_TRACE: each step's time
  const int threads = ctx.threads();
  const UndirectedRows rows(g);
  const vertex_t n = rows.n();
  TriangleCounts r;
  r.degree = prefaulted_vector<vertex_t>(static_cast<std::size_t>(n));
  const bool by_id = !g.directed() && !renumber(rows, g.adj().nnz());
  trace.step(by_id ? "set up, counting on the input ids" : "set up, counting by degree order");
  if (by_id) {
    const CsrView<double> a = g.adj().view();
    if (options.per_vertex)
      r.per_vertex = prefaulted_vector<std::uint64_t>(static_cast<std::size_t>(n));
    const RowSums sums = options.per_vertex
                             ? count_by_id<true>(a, r.per_vertex.data(), r.degree.data(), threads)
                             : count_by_id<false>(a, nullptr, r.degree.data(), threads);
    trace.step("counted");
    r.total = sums.triangles;
    r.edges = sums.edges;
    return r;
  }
  const std::unique_ptr<vertex_t[]> rank = degree_order(rows, threads);
  trace.step("degree order");
  const Oriented l = orient_by_degree(rows, rank.get(), r.degree.data(), threads);
  trace.step("ordered and oriented");
  r.edges = static_cast<std::uint64_t>(l.view.nnz);
  if (!options.per_vertex) {
    r.total = count<false>(l.view, nullptr, threads);
    trace.step("counted");
    return r;
  }
  std::vector<std::uint64_t> by_rank(static_cast<std::size_t>(n), 0);
  r.total = count<true>(l.view, by_rank.data(), threads);
  r.per_vertex.resize(static_cast<std::size_t>(n));
#pragma omp parallel for num_threads(threads) schedule(static)
  for (vertex_t v = 0; v < n; ++v) r.per_vertex[v] = by_rank[rank[v]];
  return r;
}

}  // namespace graphrun::detail
