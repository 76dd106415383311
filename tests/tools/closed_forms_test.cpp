// The checks graphrun-scale-check reports as PASS or FAIL, on circulants
// small enough for the test oracles: each passes the right answer and fails
// a wrong one (a check that cannot fail proves nothing at 4·10⁹ edges).
#include "closed_forms.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "graphrun/generators/circulant.hpp"
#include "support/algorithm_oracles.hpp"

namespace graphrun {
namespace {

struct Case {
  vertex_t n;
  std::int64_t d;
};
constexpr Case kCases[] = {{2, 1}, {50, 3}, {1000, 7}, {777, 776}};

std::string name(const Case& c) { return "n=" + std::to_string(c.n) + " d=" + std::to_string(c.d); }

TEST(ScaleClosedForms, StartWeightsSpanOneToEight) {
  std::vector<int> seen(9, 0);
  for (vertex_t v = 0; v < 10000; ++v) {
    const std::uint32_t w = scale::start_weight(v);
    ASSERT_GE(w, 1u);
    ASSERT_LE(w, 8u);
    ++seen[w];
  }
  for (int w = 1; w <= 8; ++w) EXPECT_GT(seen[w], 1000) << w;  // no weight rare
}

TEST(ScaleClosedForms, OneStepFromTheHashedStartIsTheOraclesStep) {
  for (const Case& c : kCases) {
    const Graph g = gen::circulant(c.n, c.d);
    const std::vector<double> start = scale::hashed_start(c.n);
    const std::vector<double> r1 = test::sparse_pagerank(g, 0.85, true, 0, 1, start);
    const scale::RankCheck ok = scale::check_one_step(r1, c.n, c.d, 0.85, 1e-12);
    EXPECT_TRUE(ok.pass) << name(c) << ": max error " << ok.max_error;
    EXPECT_NEAR(ok.sum, 1.0, 1e-12) << name(c);

    // What the check is for: a row that reads the wrong columns.
    if (c.n > 2 && c.d < c.n - 1) {
      std::vector<double> shifted(r1.size());
      for (vertex_t v = 0; v < c.n; ++v) shifted[v] = r1[(v + 1) % c.n];
      EXPECT_FALSE(scale::check_one_step(shifted, c.n, c.d, 0.85, 1e-12).pass) << name(c);
    }
    std::vector<double> bent = r1;
    bent[c.n / 2] *= 1 + 1e-9;
    EXPECT_FALSE(scale::check_one_step(bent, c.n, c.d, 0.85, 1e-12).pass) << name(c);
    // The uniform answer is not the step's.
    const std::vector<double> uniform(r1.size(), 1.0 / c.n);
    if (c.n > 2) {
      EXPECT_FALSE(scale::check_one_step(uniform, c.n, c.d, 0.85, 1e-12).pass) << name(c);
    }
    EXPECT_FALSE(scale::check_one_step({}, c.n, c.d, 0.85, 1e-12).pass) << name(c);
  }
}

TEST(ScaleClosedForms, UniformRanksAndLevels) {
  for (const Case& c : kCases) {
    const Graph g = gen::circulant(c.n, c.d);
    std::vector<double> r = test::sparse_pagerank(g, 0.85, true);
    EXPECT_TRUE(scale::check_uniform(r, c.n, 1e-9).pass) << name(c);
    r[0] *= 1 + 1e-6;
    EXPECT_FALSE(scale::check_uniform(r, c.n, 1e-9).pass) << name(c);

    const std::vector<std::int32_t> levels = test::boost_bfs_levels(g, 0);
    EXPECT_TRUE(scale::check_levels(levels, c.n, c.d).pass) << name(c);
    std::vector<std::int32_t> wrong = levels;
    wrong.back() += 1;
    const scale::LevelCheck bad = scale::check_levels(wrong, c.n, c.d);
    EXPECT_FALSE(bad.pass) << name(c);
    EXPECT_EQ(bad.first_wrong, c.n - 1) << name(c);
  }
}

}  // namespace
}  // namespace graphrun
