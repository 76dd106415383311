// The generator library (graphrun/generators/synthetic.hpp): sizes and structure as
// promised, the same graph at every thread count, clear errors for
// parameters out of range.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <set>
#include <utility>

#include "graphrun/engine/error.hpp"
#include "graphrun/generators/synthetic.hpp"

namespace graphrun {
namespace {

template <class F>
Coo<double> with_threads(int threads, F make) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(threads);
  Coo<double> coo = make();
  omp_set_num_threads(saved);
  return coo;
}

TEST(Generators, SameGraphAtEveryThreadCount) {
  for (int t : {2, 3}) {
    const auto r1 = with_threads(1, [] { return gen::rmat(12, 8, 5); });
    const auto rt = with_threads(t, [] { return gen::rmat(12, 8, 5); });
    EXPECT_EQ(r1.row, rt.row);
    EXPECT_EQ(r1.col, rt.col);
    const auto u1 = with_threads(1, [] { return gen::uniform(3000, 7, 9); });
    const auto ut = with_threads(t, [] { return gen::uniform(3000, 7, 9); });
    EXPECT_EQ(u1.row, ut.row);
    EXPECT_EQ(u1.col, ut.col);
  }
}

TEST(Generators, SeedsGiveDifferentGraphs) {
  EXPECT_NE(gen::rmat(10, 4, 1).col, gen::rmat(10, 4, 2).col);
  EXPECT_NE(gen::uniform(500, 4, 1).row, gen::uniform(500, 4, 2).row);
}

TEST(Generators, RmatSizesAndRange) {
  const auto coo = gen::rmat(11, 16);
  EXPECT_EQ(coo.n_rows, 1 << 11);
  EXPECT_EQ(coo.nnz(), 16 << 11);
  EXPECT_TRUE(coo.is_pattern());
  const auto [lo, hi] = std::minmax_element(coo.row.begin(), coo.row.end());
  EXPECT_GE(*lo, 0);
  EXPECT_LT(*hi, 1 << 11);
  // a = 0.57: vertex 0 (all-zero bits) is the heaviest by far.
  const auto zeros = std::count(coo.row.begin(), coo.row.end(), 0);
  EXPECT_GT(zeros, 20 * (16 << 11) / (1 << 11));
}

TEST(Generators, GridIsTheFivePointStencil) {
  const auto coo = gen::grid(4, 5);
  EXPECT_EQ(coo.n_rows, 20);
  EXPECT_EQ(coo.nnz(), 4 * 4 + 3 * 5);
  std::set<std::pair<vertex_t, vertex_t>> edges;
  for (std::size_t k = 0; k < coo.row.size(); ++k) {
    const vertex_t u = coo.row[k], v = coo.col[k];
    ASSERT_TRUE(v == u + 1 || v == u + 5) << u << " " << v;
    if (v == u + 1) {
      EXPECT_NE(u % 5, 4) << "no edge wraps around a grid row";
    }
    edges.insert({u, v});
  }
  EXPECT_EQ(edges.size(), coo.row.size()) << "each edge once";
}

TEST(Generators, ParametersOutOfRangeAreErrors) {
  EXPECT_THROW(gen::rmat(0, 16), ArgumentError);
  EXPECT_THROW(gen::rmat(10, 0), ArgumentError);
  EXPECT_THROW(gen::rmat(10, 4, 1, 0.7, 0.2, 0.2), ArgumentError);
  EXPECT_THROW(gen::rmat(31, 1), SizeError);  // 2^31 vertices do not fit 32-bit ids
  EXPECT_THROW(gen::uniform(0, 4), ArgumentError);
  EXPECT_THROW(gen::uniform(1 << 30, 1 << 20), SizeError);
  EXPECT_THROW(gen::grid(0, 3), ArgumentError);
  EXPECT_THROW(gen::grid(1 << 20, 1 << 12), SizeError);
}

}  // namespace
}  // namespace graphrun
