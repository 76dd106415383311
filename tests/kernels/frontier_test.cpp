// The host frontier operator (cpu/frontier.hpp) against plain serial loops:
// push and pull advances and the queue <-> packed bitmap conversions, on random
// matrices of the shapes that break kernels (empty rows, one huge row,
// power-law rows, bands), with frontiers from empty to most vertices, at 1
// and 2 threads. Pull is deterministic (the first frontier in-neighbour in
// column order) and must equal the reference exactly; push claims through
// races, so its next frontier must equal the reference as a set and every
// parent must be a frontier in-neighbour.
#include "graphrun/kernels/cpu/frontier.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "graphrun/kernels/frontier.hpp"
#include "support/frontier_states.hpp"
#include "support/random_graphs.hpp"

namespace graphrun {
namespace {

using test::MatrixShape;
using test::Rng;

constexpr MatrixShape kShapes[] = {MatrixShape::uniform, MatrixShape::empty_rows,
                                   MatrixShape::heavy_row, MatrixShape::power_law,
                                   MatrixShape::banded};

using State = test::FrontierState;

State random_state(vertex_t n, double visited_share, double frontier_share, Rng& rng) {
  return test::random_frontier_state(n, visited_share, frontier_share, /*depth=*/3, rng);
}

bool has_edge(const Csr<double>& a, vertex_t u, vertex_t v) {
  for (offset_t k = a.row_ptr()[u]; k < a.row_ptr()[u + 1]; ++k)
    if (a.col_idx()[k] == v) return true;
  return false;
}

offset_t degree(const Csr<double>& a, vertex_t v) { return a.row_ptr()[v + 1] - a.row_ptr()[v]; }

// A byte per vertex <-> the operator's packed bitmap.
std::vector<std::uint64_t> pack(const std::vector<std::uint8_t>& bytes) {
  std::vector<std::uint64_t> words(packed_words(static_cast<vertex_t>(bytes.size())), 0);
  for (std::size_t v = 0; v < bytes.size(); ++v)
    if (bytes[v]) words[v / 64] |= std::uint64_t{1} << (v % 64);
  return words;
}

std::vector<std::uint8_t> unpack(const std::vector<std::uint64_t>& words, vertex_t n) {
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(n));
  for (vertex_t v = 0; v < n; ++v) bytes[v] = (words[v / 64] >> (v % 64)) & 1u;
  return bytes;
}

FrontierCounts counts_of(const Csr<double>& a, const std::vector<vertex_t>& reached) {
  FrontierCounts c{};
  c.vertices = reached.size();
  for (vertex_t v : reached) {
    const auto d = static_cast<unsigned long long>(degree(a, v));
    c.edges += d;
    c.max_degree = std::max(c.max_degree, d);
  }
  return c;
}

void expect_counts(const FrontierCounts& got, const FrontierCounts& want,
                   const std::string& where) {
  EXPECT_EQ(got.vertices, want.vertices) << where;
  EXPECT_EQ(got.edges, want.edges) << where;
  EXPECT_EQ(got.scanned, want.scanned) << where;
  EXPECT_EQ(got.max_degree, want.max_degree) << where;
  EXPECT_EQ(got.pulled, want.pulled) << where;
}

// Push, serially: the unvisited out-neighbours of the queue, in order of
// first discovery.
std::vector<vertex_t> reference_push(const Csr<double>& a, State& s, FrontierCounts& c) {
  std::vector<vertex_t> next;
  c = FrontierCounts{};
  for (vertex_t u : s.queue) {
    for (offset_t k = a.row_ptr()[u]; k < a.row_ptr()[u + 1]; ++k) {
      const vertex_t v = a.col_idx()[k];
      if (s.level[v] != -1) continue;
      s.level[v] = s.depth;
      s.parent[v] = u;
      s.visited[v] = 1;
      next.push_back(v);
    }
  }
  const FrontierCounts reached = counts_of(a, next);
  c.vertices = reached.vertices;
  c.edges = reached.edges;
  c.max_degree = reached.max_degree;
  return next;
}

// Pull, serially: each unvisited v takes its first in-neighbour in the
// bitmap (Aᵀ's row, in column order) as its parent.
std::vector<std::uint8_t> reference_pull(const Csr<double>& a, const Csr<double>& at, State& s,
                                         FrontierCounts& c) {
  const vertex_t n = a.n_rows();
  std::vector<std::uint8_t> next(n, 0);
  std::vector<vertex_t> reached;
  c = FrontierCounts{};
  for (vertex_t v = 0; v < n; ++v) {
    if (s.visited[v]) continue;
    c.scanned += static_cast<unsigned long long>(degree(at, v));
    for (offset_t k = at.row_ptr()[v]; k < at.row_ptr()[v + 1]; ++k) {
      const vertex_t u = at.col_idx()[k];
      if (!s.bitmap[u]) continue;
      s.level[v] = s.depth;
      s.parent[v] = u;
      s.visited[v] = 1;
      next[v] = 1;
      reached.push_back(v);
      break;
    }
  }
  const FrontierCounts r = counts_of(a, reached);
  c.vertices = r.vertices;
  c.edges = r.edges;
  c.max_degree = r.max_degree;
  return next;
}

struct Case {
  MatrixShape shape;
  double visited_share, frontier_share;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  for (MatrixShape shape : kShapes)
    for (double visited : {0.0, 0.05, 0.3, 0.9})
      for (double frontier : {0.0, 0.01, 0.5, 1.0}) out.push_back({shape, visited, frontier});
  return out;
}

std::string describe(const Case& c, vertex_t n, int threads) {
  std::string s = test::to_string(c.shape);
  s += " n ";
  s += std::to_string(n);
  s += " visited ";
  s += std::to_string(c.visited_share);
  s += " frontier ";
  s += std::to_string(c.frontier_share);
  s += " threads ";
  s += std::to_string(threads);
  return s;
}

// The next queue's reserved room: none (every winner goes through the
// threads' overflow lists), a third of the vertices (some fit, the rest
// overflow), or every vertex (as BFS reserves it).
enum class Room { none, third, all };

TEST(FrontierPush, MatchesTheSerialLoop) {
  std::uint64_t seed = 1;
  for (vertex_t n : {1, 37, 3000})
    for (const Case& c : cases())
      for (int threads : {1, 2, 3})
        for (Room room : {Room::none, Room::third, Room::all}) {
          const Csr<double> a = test::random_csr<double>(n, n, c.shape, 6.0, seed % 2 == 0, seed);
          Rng rng(seed++);
          State want = random_state(n, c.visited_share, c.frontier_share, rng);
          State got = want;
          const std::string where =
              describe(c, n, threads) + " room " + std::to_string(static_cast<int>(room));

          FrontierCounts want_counts;
          std::vector<vertex_t> want_next = reference_push(a, want, want_counts);
          cpu::VertexQueue next_queue{-5};  // what it held before is dropped
          if (room != Room::none)
            next_queue.reserve(static_cast<std::size_t>(room == Room::all ? n : n / 3));
          const ClaimUnvisited claim{got.level.data(), got.parent.data(), got.visited.data(),
                                     got.depth};
          const FrontierCounts got_counts =
              cpu::advance_push(a.view(), got.queue, next_queue, claim, threads);
          std::vector<vertex_t> got_next(next_queue.begin(), next_queue.end());

          expect_counts(got_counts, want_counts, where);
          EXPECT_EQ(got.level, want.level) << where;
          EXPECT_EQ(got.visited, want.visited) << where;
          std::sort(got_next.begin(), got_next.end());
          std::sort(want_next.begin(), want_next.end());
          EXPECT_EQ(got_next, want_next) << where;
          // Any frontier in-neighbour may have won the claim.
          for (vertex_t v : got_next) {
            const vertex_t u = got.parent[v];
            ASSERT_TRUE(u >= 0 && u < n && got.bitmap[u] && has_edge(a, u, v))
                << where << " v " << v;
          }
        }
}

TEST(FrontierPull, MatchesTheSerialLoop) {
  std::uint64_t seed = 1000;
  // 40,000 vertices and more than one thread: parts cut at multiples of 64.
  for (vertex_t n : {1, 37, 3000, 40'000})
    for (const Case& c : cases())
      for (int threads : {1, 2, 3}) {
        if (n < 40'000 && threads == 3) continue;
        const Csr<double> a = test::random_csr<double>(n, n, c.shape, 6.0, seed % 2 == 0, seed);
        const Csr<double> at = a.transpose();
        Rng rng(seed++);
        State want = random_state(n, c.visited_share, c.frontier_share, rng);
        State got = want;
        const std::string where = describe(c, n, threads);

        FrontierCounts want_counts;
        const std::vector<std::uint8_t> want_next = reference_pull(a, at, want, want_counts);
        std::vector<std::uint64_t> got_next(packed_words(n), ~std::uint64_t{0});  // all written
        // filter(v) reads v's mark before apply(u, v) sets it: BFS's order.
        std::int32_t* level = got.level.data();
        vertex_t* parent = got.parent.data();
        std::uint8_t* visited = got.visited.data();
        const std::int32_t depth = got.depth;
        const auto settle = [level, parent, visited, depth](vertex_t u, vertex_t v) {
          level[v] = depth;
          parent[v] = u;
          visited[v] = 1;
          return true;
        };
        // The frontier as bytes or packed: the same steps.
        const std::vector<std::uint64_t> packed = pack(got.bitmap);
        const FrontierCounts got_counts =
            n % 2 == 0
                ? cpu::advance_pull(at.view(), a.row_ptr().data(), BitmapClear{got.visited.data()},
                                    BitmapSet{got.bitmap.data()}, settle, got_next.data(), threads)
                : cpu::advance_pull(at.view(), a.row_ptr().data(), BitmapClear{got.visited.data()},
                                    PackedBitsSet{packed.data()}, settle, got_next.data(), threads);

        expect_counts(got_counts, want_counts, where);
        EXPECT_EQ(unpack(got_next, n), want_next) << where;
        // Bits past n in the last word stay clear.
        if (n % 64 != 0) {
          EXPECT_EQ(got_next.back() >> (n % 64), 0u) << where;
        }
        EXPECT_EQ(got.level, want.level) << where;
        EXPECT_EQ(got.parent, want.parent) << where;
      }
}

// The pull's filter and frontier test as levels (no bitmaps), and the
// atomic claim as its apply: the same result as the bitmaps.
TEST(FrontierPull, LevelTestsEqualBitmapTests) {
  const vertex_t n = 2000;
  std::uint64_t seed = 77;
  for (MatrixShape shape : kShapes) {
    const Csr<double> a = test::random_csr<double>(n, n, shape, 5.0, true, seed);
    const Csr<double> at = a.transpose();
    Rng rng(seed++);
    State want = random_state(n, 0.4, 0.3, rng);
    State got = want;
    FrontierCounts want_counts;
    const std::vector<std::uint8_t> want_next = reference_pull(a, at, want, want_counts);
    std::vector<std::uint64_t> got_next(packed_words(n));
    const ClaimUnvisited claim{got.level.data(), got.parent.data(), got.visited.data(), got.depth};
    const FrontierCounts got_counts =
        cpu::advance_pull(at.view(), a.row_ptr().data(), LevelIs{got.level.data(), -1},
                          LevelIs{got.level.data(), got.depth - 1}, claim, got_next.data(), 2);
    expect_counts(got_counts, want_counts, test::to_string(shape));
    EXPECT_EQ(unpack(got_next, n), want_next) << test::to_string(shape);
    EXPECT_EQ(got.parent, want.parent) << test::to_string(shape);
  }
}

// An apply that takes the edge's position sees the edge it is called for,
// and its false keeps a vertex out of the next frontier. (A frontier of
// about 8,000 out-edges: past push_serial_edges, so two threads push it.)
TEST(FrontierPush, ApplyWithTheEdgePositionAndAFilter) {
  const vertex_t n = 3000;
  const Csr<double> a = test::random_csr<double>(n, n, MatrixShape::power_law, 8.0, false, 5);
  std::vector<vertex_t> frontier;
  for (vertex_t v = 0; v < n; v += 3) frontier.push_back(v);
  // Keeps the targets of edges of positive weight, once each (an atomic
  // flag), as a relaxation keeps a vertex whose distance dropped.
  std::vector<std::uint8_t> taken(n, 0);
  std::atomic<int> wrong{0};
  const double* w = a.values().data();
  const vertex_t* col = a.col_idx().data();
  std::uint8_t* flag = taken.data();
  const auto keep = [w, col, flag, &wrong](vertex_t, vertex_t v, offset_t k) {
    if (col[k] != v) wrong.fetch_add(1, std::memory_order_relaxed);
    if (!(w[k] > 0)) return false;
    std::atomic_ref<std::uint8_t> f(flag[v]);
    return f.exchange(1, std::memory_order_relaxed) == 0;
  };
  cpu::VertexQueue next_queue;
  const FrontierCounts c = cpu::advance_push(a.view(), frontier, next_queue, keep, 2);
  std::vector<vertex_t> next(next_queue.begin(), next_queue.end());
  EXPECT_EQ(wrong.load(), 0);
  std::vector<vertex_t> want;
  std::vector<std::uint8_t> seen(n, 0);
  for (vertex_t u : frontier)
    for (offset_t k = a.row_ptr()[u]; k < a.row_ptr()[u + 1]; ++k)
      if (a.values()[k] > 0 && !seen[a.col_idx()[k]]) {
        seen[a.col_idx()[k]] = 1;
        want.push_back(a.col_idx()[k]);
      }
  std::sort(next.begin(), next.end());
  std::sort(want.begin(), want.end());
  EXPECT_EQ(next, want);
  EXPECT_EQ(c.vertices, want.size());
}

// (400,000 vertices: 6,250 words, past the bound below which one thread
// converts.)
TEST(FrontierConversions, QueueAndBitmapRoundTrip) {
  for (vertex_t n : {0, 1, 63, 64, 65, 5000, 100'000, 400'000})
    for (double share : {0.0, 0.001, 0.5, 1.0})
      for (int threads : {1, 2, 3}) {
        Rng rng(static_cast<std::uint64_t>(n) * 7 + threads);
        std::vector<vertex_t> queue;
        for (vertex_t v = 0; v < n; ++v)
          if (rng.coin(share)) queue.push_back(v);
        std::vector<vertex_t> shuffled = queue;
        for (std::size_t i = shuffled.size(); i > 1; --i)
          std::swap(shuffled[i - 1], shuffled[rng.below(static_cast<std::int64_t>(i))]);
        std::vector<std::uint64_t> bits(packed_words(n), ~std::uint64_t{0});  // all written
        cpu::queue_to_bitmap(shuffled, bits.data(), n, threads);
        const std::vector<std::uint8_t> bytes = unpack(bits, n);
        for (vertex_t v = 0; v < n; ++v)
          ASSERT_EQ(bytes[v], std::binary_search(queue.begin(), queue.end(), v) ? 1 : 0);
        if (n % 64 != 0) {
          ASSERT_EQ(bits.back() >> (n % 64), 0u);
        }
        cpu::VertexQueue back{42};  // dropped
        cpu::bitmap_to_queue(bits.data(), n, back, threads);
        EXPECT_EQ(std::vector<vertex_t>(back.begin(), back.end()), queue)
            << "n " << n << " share " << share << " threads " << threads;
      }
}

TEST(FrontierConversions, EqualValuesToBitmapAsTheQueueGives) {
  for (vertex_t n : {0, 1, 63, 64, 65, 5000, 100'000})
    for (double share : {0.0, 0.001, 0.5, 1.0})
      for (int threads : {1, 2, 3}) {
        Rng rng(static_cast<std::uint64_t>(n) * 11 + threads);
        // Levels -1..5; the queue holds the vertices of level 3.
        std::vector<std::int32_t> level(static_cast<std::size_t>(n));
        std::vector<vertex_t> queue;
        for (vertex_t v = 0; v < n; ++v) {
          level[v] = rng.coin(share) ? 3 : static_cast<std::int32_t>(rng.below(6)) - 1;
          if (level[v] == 3) queue.push_back(v);
        }
        std::vector<std::uint64_t> want(packed_words(n), ~std::uint64_t{0});
        cpu::queue_to_bitmap(queue, want.data(), n, 1);
        std::vector<std::uint64_t> bits(packed_words(n), ~std::uint64_t{0});  // all written
        cpu::equal_to_bitmap(level.data(), 3, bits.data(), n, threads);
        EXPECT_EQ(bits, want) << "n " << n << " share " << share << " threads " << threads;
      }
}

}  // namespace
}  // namespace graphrun
