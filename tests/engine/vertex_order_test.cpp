// Vertex orderings on the host: each is a permutation with the defining
// property of its method (degrees non-increasing with ties in input order,
// groups by power of two, hubs first, a small bandwidth after RCM), on every
// matrix shape; permute() is checked entry by entry against a map of the
// input, and undone by the inverse ordering.
#include "graphrun/engine/vertex_order.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <bit>
#include <map>
#include <numeric>
#include <string>
#include <utility>

#include "graphrun/engine/error.hpp"
#include "graphrun/engine/row_stats.hpp"
#include "support/random_graphs.hpp"

namespace graphrun {
namespace {

constexpr Reorder methods[] = {Reorder::none, Reorder::degree, Reorder::hubsort,
                               Reorder::dbg,  Reorder::rcm,    Reorder::rabbit};

Csr<double> square(test::MatrixShape shape, vertex_t n, std::uint64_t seed) {
  return Csr<double>::from_coo(test::random_coo(n, n, shape, 6.0, false, seed));
}

offset_t degree(const Csr<double>& a, vertex_t v) { return a.row_length(v); }

// Largest |i - j| over the entries: what RCM makes small.
offset_t bandwidth(const Csr<double>& a) {
  offset_t b = 0;
  for (vertex_t i = 0; i < a.n_rows(); ++i)
    for (vertex_t j : a.row_cols(i)) b = std::max<offset_t>(b, std::abs(offset_t{i} - j));
  return b;
}

// An undirected graph whose vertex ids are shuffled: edge(u, v) adds u - v,
// both directions, as shuffle[u] - shuffle[v].
struct ShuffledGraph {
  ShuffledGraph(vertex_t n, std::uint64_t seed) : shuffle(static_cast<std::size_t>(n)) {
    std::iota(shuffle.begin(), shuffle.end(), 0);
    test::Rng rng(seed);
    for (vertex_t i = n - 1; i > 0; --i) std::swap(shuffle[i], shuffle[rng.below(i + 1)]);
    coo.n_rows = coo.n_cols = n;
  }
  void edge(vertex_t u, vertex_t v) {
    coo.row.push_back(shuffle[u]);
    coo.col.push_back(shuffle[v]);
    coo.row.push_back(shuffle[v]);
    coo.col.push_back(shuffle[u]);
  }
  std::vector<vertex_t> shuffle;
  Coo<double> coo;
};

TEST(VertexOrder, NamesRoundTripAndUnknownOnesAreListed) {
  for (Reorder r : methods) EXPECT_EQ(parse_reorder(to_string(r)), r);
  EXPECT_EQ(parse_reorder("auto"), Reorder::automatic);
  try {
    parse_reorder("metis");
    FAIL() << "no error";
  } catch (const ArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("'metis'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("rcm"), std::string::npos) << e.what();
  }
}

TEST(VertexOrder, EveryMethodGivesAPermutationWithItsDefiningOrder) {
  std::uint64_t seed = 5;
  for (auto shape :
       {test::MatrixShape::uniform, test::MatrixShape::empty_rows, test::MatrixShape::heavy_row,
        test::MatrixShape::power_law, test::MatrixShape::banded})
    for (vertex_t n : {0, 1, 2, 700, 20000}) {
      const Csr<double> a = square(shape, n, seed++);
      const double mean = n > 0 ? static_cast<double>(a.nnz()) / n : 0.0;
      for (Reorder how : methods) {
        const std::string where =
            test::to_string(shape) + " n=" + std::to_string(n) + " " + std::string(to_string(how));
        const std::vector<vertex_t> order = vertex_order(a.view(), how);
        ASSERT_EQ(order.size(), static_cast<std::size_t>(n)) << where;
        const std::vector<vertex_t> pos = position(order);  // throws unless a permutation
        for (vertex_t i = 0; i < n; ++i) ASSERT_EQ(order[pos[i]], i) << where;
        // Consecutive vertices: the key never rises, and equal keys keep
        // input order.
        const auto key = [&](vertex_t v) -> offset_t {
          switch (how) {
            case Reorder::degree:
              return degree(a, v);
            case Reorder::hubsort:
              return static_cast<double>(degree(a, v)) > mean ? degree(a, v) : 0;
            case Reorder::dbg:
              return std::bit_width(static_cast<std::uint64_t>(degree(a, v)));
            default:
              return 0;
          }
        };
        if (how == Reorder::none || how == Reorder::rcm || how == Reorder::rabbit) continue;
        for (vertex_t i = 1; i < n; ++i) {
          ASSERT_GE(key(order[i - 1]), key(order[i])) << where << " at " << i;
          if (key(order[i - 1]) == key(order[i])) {
            ASSERT_LT(order[i - 1], order[i]) << where << " at " << i;
          }
        }
      }
      const std::vector<vertex_t> none = vertex_order(a.view(), Reorder::none);
      for (vertex_t i = 0; i < n; ++i) ASSERT_EQ(none[i], i);
    }
}

TEST(VertexOrder, RcmRecoversTheBandOfAShuffledGrid) {
  // A 30 x 40 grid, undirected, its vertices shuffled: RCM from a corner
  // (a vertex of least degree) numbers it by anti-diagonals, whose width is
  // at most 30, so no entry lies further than two of them from the diagonal.
  const vertex_t rows = 30, cols = 40;
  ShuffledGraph g(rows * cols, 3);
  for (vertex_t r = 0; r < rows; ++r)
    for (vertex_t c = 0; c < cols; ++c) {
      if (c + 1 < cols) g.edge(r * cols + c, r * cols + c + 1);
      if (r + 1 < rows) g.edge(r * cols + c, (r + 1) * cols + c);
    }
  const Csr<double> a = Csr<double>::from_coo(g.coo);
  ASSERT_GT(bandwidth(a), 500);
  const Csr<double> b = permute(a, vertex_order(a.view(), Reorder::rcm));
  EXPECT_LE(bandwidth(b), 2 * rows + 1);
  EXPECT_EQ(b.nnz(), a.nnz());
}

TEST(VertexOrder, RcmCoversEveryComponentAndIsolatedVertex) {
  const Graph g = test::random_graph(test::GraphShape::disconnected, 3000, 4.0, false, false, 9);
  const std::vector<vertex_t> order = vertex_order(g.adj().view(), Reorder::rcm);
  EXPECT_NO_THROW(position(order));
}

// Cliques, their vertices shuffled: Rabbit Order must give every clique
// consecutive ids. Within a clique any two communities gain by merging
// (their edges far outweigh what their degrees predict), so each clique
// ends as one tree of merges, numbered in one stretch. Joined in a ring by
// one edge each, a whole clique may still merge into a lone vertex of the
// next (modularity gains there too): its stretch then lies inside that
// clique's, which splits one stretch in two. So the cliques along the
// order change at most 2 (cliques - 1) times, where a random order
// changes clique at nearly every vertex.
TEST(VertexOrder, RabbitGivesEveryPlantedCommunityConsecutiveIds) {
  for (const bool ring : {false, true})
    for (const auto& [cliques, size] : {std::pair{40, 12}, std::pair{7, 30}, std::pair{300, 5}}) {
      const vertex_t n = cliques * size;
      ShuffledGraph g(n, static_cast<std::uint64_t>(n));
      const std::vector<vertex_t>& shuffle = g.shuffle;
      for (vertex_t c = 0; c < cliques; ++c) {
        for (vertex_t i = 0; i < size; ++i)
          for (vertex_t j = i + 1; j < size; ++j) g.edge(c * size + i, c * size + j);
        if (ring) g.edge(c * size, ((c + 1) % cliques) * size + 1);
      }
      const Csr<double> a = Csr<double>::from_coo(g.coo);
      const std::vector<vertex_t> order = vertex_order(a.view(), Reorder::rabbit);
      const std::vector<vertex_t> pos = position(order);
      const std::string where = std::to_string(cliques) + " cliques of " + std::to_string(size) +
                                (ring ? " in a ring" : "");
      std::vector<vertex_t> clique_of(n);
      for (vertex_t v = 0; v < n; ++v) clique_of[shuffle[v]] = v / size;
      if (!ring) {
        for (vertex_t c = 0; c < cliques; ++c) {
          vertex_t lo = n, hi = -1;
          for (vertex_t i = 0; i < size; ++i) {
            lo = std::min(lo, pos[shuffle[c * size + i]]);
            hi = std::max(hi, pos[shuffle[c * size + i]]);
          }
          ASSERT_EQ(hi - lo, size - 1) << where << ": clique " << c;
        }
      }
      vertex_t changes = 0;
      for (vertex_t i = 1; i < n; ++i) changes += clique_of[order[i]] != clique_of[order[i - 1]];
      EXPECT_LE(changes, 2 * (cliques - 1)) << where;
      // A pure function of the matrix.
      EXPECT_EQ(vertex_order(a.view(), Reorder::rabbit), order) << where;
    }
}

// Directed matrices, loops, isolated vertices and parallel edges: rabbit
// reads A + Aᵀ without its loops, so a matrix and its transpose give the
// same order; and a symmetric matrix read alone (`symmetric`) the order of
// reading it as A + Aᵀ.
TEST(VertexOrder, RabbitReadsTheMatrixAsUndirected) {
  std::uint64_t seed = 11;
  for (auto shape :
       {test::MatrixShape::power_law, test::MatrixShape::heavy_row, test::MatrixShape::empty_rows})
    for (vertex_t n : {1, 3, 500, 5000}) {
      const Coo<double> coo = test::random_coo(n, n, shape, 4.0, false, seed++);
      Coo<double> flipped = coo;
      std::swap(flipped.row, flipped.col);
      const Csr<double> a = Csr<double>::from_coo(coo), t = Csr<double>::from_coo(flipped);
      EXPECT_EQ(vertex_order(a.view(), Reorder::rabbit), vertex_order(t.view(), Reorder::rabbit))
          << test::to_string(shape) << " n=" << n;
      // A + Aᵀ said to be symmetric is read alone: the same order.
      Coo<double> both = coo;
      both.row.insert(both.row.end(), flipped.row.begin(), flipped.row.end());
      both.col.insert(both.col.end(), flipped.col.begin(), flipped.col.end());
      both.val.clear();
      const Csr<double> s = Csr<double>::from_coo(both);
      EXPECT_EQ(vertex_order(s.view(), Reorder::rabbit, true),
                vertex_order(s.view(), Reorder::rabbit, false))
          << test::to_string(shape) << " n=" << n;
    }
}

// The batches are the same on every thread count, and so is the ordering.
TEST(VertexOrder, RabbitIsTheSameOnEveryThreadCount) {
  const int threads = omp_get_max_threads();
  std::uint64_t seed = 21;
  for (auto shape : {test::MatrixShape::power_law, test::MatrixShape::uniform,
                     test::MatrixShape::heavy_row, test::MatrixShape::banded})
    for (vertex_t n : {300, 20000}) {
      const Csr<double> a = square(shape, n, seed++);
      omp_set_num_threads(1);
      const std::vector<vertex_t> one = vertex_order(a.view(), Reorder::rabbit);
      for (int t : {2, 5}) {
        omp_set_num_threads(t);
        EXPECT_EQ(vertex_order(a.view(), Reorder::rabbit), one)
            << test::to_string(shape) << " n=" << n << " threads=" << t;
      }
    }
  omp_set_num_threads(threads);
}

TEST(VertexOrder, PermuteMovesEveryEntryAndTheInverseUndoesIt) {
  std::uint64_t seed = 40;
  for (auto shape : {test::MatrixShape::uniform, test::MatrixShape::heavy_row,
                     test::MatrixShape::power_law, test::MatrixShape::banded})
    for (bool pattern : {false, true}) {
      const vertex_t n = 3000;
      const Csr<double> a =
          Csr<double>::from_coo(test::random_coo(n, n, shape, 5.0, pattern, seed++));
      for (Reorder how : methods) {
        const std::string where = test::to_string(shape) + (pattern ? " pattern " : " valued ") +
                                  std::string(to_string(how));
        const std::vector<vertex_t> order = vertex_order(a.view(), how);
        const std::vector<vertex_t> pos = position(order);
        const Csr<double> b = permute(a, order);  // the constructor checks sorted rows
        ASSERT_EQ(b.nnz(), a.nnz()) << where;
        ASSERT_EQ(b.is_pattern(), pattern) << where;
        std::map<std::pair<vertex_t, vertex_t>, double> want;
        for (vertex_t i = 0; i < n; ++i)
          for (offset_t k = a.row_ptr()[i]; k < a.row_ptr()[i + 1]; ++k)
            want[{pos[i], pos[a.col_idx()[k]]}] = a.view().value(k);
        for (vertex_t i = 0; i < n; ++i)
          for (offset_t k = b.row_ptr()[i]; k < b.row_ptr()[i + 1]; ++k) {
            const auto it = want.find({i, b.col_idx()[k]});
            ASSERT_NE(it, want.end()) << where;
            ASSERT_EQ(it->second, b.view().value(k)) << where;
          }
        const Csr<double> back = permute(b, pos);
        EXPECT_EQ(back.row_ptr(), a.row_ptr()) << where;
        EXPECT_EQ(back.col_idx(), a.col_idx()) << where;
        EXPECT_EQ(back.values(), a.values()) << where;
      }
    }
}

TEST(VertexOrder, GatherAndScatterAreInverse) {
  const std::vector<vertex_t> order = {2, 0, 3, 1};
  const std::vector<double> by_input = {10, 11, 12, 13};
  const std::vector<double> renumbered = gather(std::span<const double>(by_input), order);
  EXPECT_EQ(renumbered, (std::vector<double>{12, 10, 13, 11}));
  EXPECT_EQ(scatter(std::span<const double>(renumbered), order), by_input);
}

TEST(VertexOrder, PositionRefusesWhatIsNotAPermutation) {
  EXPECT_THROW(position(std::vector<vertex_t>{0, 0, 1}), ArgumentError);
  EXPECT_THROW(position(std::vector<vertex_t>{0, 3, 1}), ArgumentError);
  EXPECT_THROW(position(std::vector<vertex_t>{-1, 0}), ArgumentError);
  EXPECT_THROW(vertex_order(Csr<double>::from_coo(
                                test::random_coo(4, 5, test::MatrixShape::uniform, 2.0, true, 1))
                                .view(),
                            Reorder::degree),
               ArgumentError);
}

TEST(VertexOrder, AutoNeverNamesAutoAndKeepsTheInputOrderAsMeasured) {
  for (double cv : {0.0, 0.3, 3.0, 12.0}) {
    RowStats stats;
    stats.cv = cv;
    stats.n_rows = 1 << 22;
    stats.nnz = offset_t{1} << 27;
    EXPECT_EQ(choose_reorder(stats), Reorder::none) << cv;
  }
}

}  // namespace
}  // namespace graphrun
