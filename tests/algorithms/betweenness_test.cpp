// Betweenness on the CPU against Boost's Brandes (exact) and the textbook
// Brandes from the same sources (samples), on random graphs of every shape,
// directed and undirected; the scaling of NetworkX's normalized and raw
// scores; the same bits on every thread count; the sample's seed; the
// callback; bad options.
#include "graphrun/algorithms/betweenness.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "support/betweenness_oracle.hpp"
#include "support/random_graphs.hpp"

namespace graphrun {
namespace {

using test::GraphShape;

void expect_close(const std::vector<double>& got, const std::vector<double>& want,
                  const std::string& where) {
  ASSERT_EQ(got.size(), want.size()) << where;
  for (std::size_t v = 0; v < want.size(); ++v)
    ASSERT_NEAR(got[v], want[v], 1e-9 * (1 + std::abs(want[v]))) << where << " vertex " << v;
}

struct Case {
  GraphShape shape;
  vertex_t n;
  double degree;
};

const Case cases[] = {
    {GraphShape::erdos_renyi, 600, 1.5}, {GraphShape::erdos_renyi, 400, 8},
    {GraphShape::power_law, 800, 6},     {GraphShape::chain, 300, 1},
    {GraphShape::star, 500, 1},          {GraphShape::disconnected, 900, 4},
    {GraphShape::no_sinks, 500, 2},
};

// Raw sums (normalized = false) against Boost's ordered-pair sums, which
// NetworkX halves on an undirected graph.
TEST(Betweenness, ExactEqualsBoost) {
  for (const Case& c : cases)
    for (bool directed : {true, false}) {
      const Graph g = test::random_graph(c.shape, c.n, c.degree, directed, false, 41 + c.n);
      const std::string where = test::to_string(c.shape) + (directed ? " directed" : " undirected");
      std::vector<double> want = test::boost_betweenness(g);
      if (!directed)
        for (double& x : want) x *= 0.5;
      Context ctx(Device::cpu, 2);
      BetweennessOptions raw;
      raw.normalized = false;
      const BetweennessResult r = betweenness(ctx, g, raw);
      EXPECT_EQ(r.iterations, c.n) << where;
      EXPECT_TRUE(r.complete) << where;
      expect_close(r.score, want, where);
      // Normalized: divided by (n - 1)(n - 2) on both kinds of graph.
      const BetweennessResult nr = betweenness(ctx, g);
      const double scale = (directed ? 1.0 : 2.0) / ((c.n - 1.0) * (c.n - 2.0));
      for (double& x : want) x *= scale;
      expect_close(nr.score, want, where + " normalized");
    }
}

TEST(Betweenness, SameBitsOnEveryThreadCount) {
  const Graph g = test::random_graph(GraphShape::power_law, 30'000, 10, true, false, 5);
  BetweennessOptions o;
  o.sources = 8;
  Context one(Device::cpu, 1);
  const BetweennessResult want = betweenness(one, g, o);
  for (int threads : {2, 3, 8}) {
    Context ctx(Device::cpu, threads);
    EXPECT_EQ(betweenness(ctx, g, o).score, want.score) << threads;
  }
}

// K sources from the seed: the textbook Brandes from the same sources,
// scaled by n / K (and by 1 / ((n - 1)(n - 2))).
TEST(Betweenness, SampleIsScaledAndSeeded) {
  const vertex_t n = 2000;
  const Graph g = test::random_graph(GraphShape::power_law, n, 6, false, false, 8);
  Context ctx(Device::cpu, 2);
  BetweennessOptions o;
  o.sources = 25;
  o.seed = 99;
  const BetweennessResult r = betweenness(ctx, g, o);
  ASSERT_EQ(r.source.size(), 25u);
  for (std::size_t i = 1; i < r.source.size(); ++i) EXPECT_LT(r.source[i - 1], r.source[i]);
  std::vector<double> want = test::brandes_from(g, r.source);
  for (double& x : want) x *= (double(n) / 25) / ((n - 1.0) * (n - 2.0));
  expect_close(r.score, want, "sample");
  EXPECT_EQ(betweenness(ctx, g, o).source, r.source);  // same seed, same sample
  o.seed = 100;
  EXPECT_NE(betweenness(ctx, g, o).source, r.source);
  // Explicit sources: the same as the sample they name.
  BetweennessOptions from;
  from.from = r.source;
  EXPECT_EQ(betweenness(ctx, g, from).score, r.score);
}

TEST(Betweenness, CallbackSeesEverySourceAndStops) {
  const Graph g = test::random_graph(GraphShape::erdos_renyi, 300, 4, true, false, 2);
  Context ctx(Device::cpu, 2);
  BetweennessOptions o;
  int calls = 0;
  o.on_iteration = [&calls](const IterationInfo& info) {
    EXPECT_EQ(info.iteration, ++calls);
    EXPECT_GT(info.frontier, 0);  // the levels of that search
    return info.iteration < 10;
  };
  const BetweennessResult r = betweenness(ctx, g, o);
  EXPECT_EQ(calls, 10);
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.iterations, 10);
  EXPECT_EQ(r.source, (std::vector<vertex_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  // Scaled as a sample of the 10 sources done.
  std::vector<double> want = test::brandes_from(g, r.source);
  for (double& x : want) x *= (300.0 / 10) / (299.0 * 298.0);
  expect_close(r.score, want, "stopped");
}

// A path 0 - 1 - 2 - 3 - 4 (undirected): vertex k lies on k(4 - k) of the
// unordered pairs' paths; normalized by (n-1)(n-2)/2 = 6.
TEST(Betweenness, PathClosedForm) {
  const Graph g = test::random_graph(GraphShape::chain, 5, 1, false, false, 1);
  Context ctx(Device::cpu, 2);
  const BetweennessResult r = betweenness(ctx, g);
  const std::vector<double> want = {0, 3.0 / 6, 4.0 / 6, 3.0 / 6, 0};
  expect_close(r.score, want, "path");
}

// From a grid's corner the path counts are binomials: C(58, 29) ~ 3e16 on
// 30 x 30 (past 2^53, still finite: the oracle's scores), C(1198, 599) ~
// 1e359 on 600 x 600, past a double: refused, no scores that are not finite.
TEST(Betweenness, GridPathCountsUpToADoublesRange) {
  Context ctx(Device::cpu, 2);
  BetweennessOptions o;
  o.from = {0};
  o.normalized = false;
  const Graph small = test::grid_graph(30, 30);
  const BetweennessResult r = betweenness(ctx, small, o);
  std::vector<double> want = test::brandes_from(small, r.source);
  for (double& x : want) x *= 900.0 / 2;  // one source of 900, halved: undirected
  expect_close(r.score, want, "30 x 30 grid");
  EXPECT_THROW(betweenness(ctx, test::grid_graph(600, 600), o), SizeError);
}

TEST(Betweenness, BadOptionsAreArgumentErrors) {
  const Graph g = test::random_graph(GraphShape::chain, 10, 1, false, false, 1);
  Context ctx(Device::cpu, 2);
  BetweennessOptions o;
  o.sources = 11;
  EXPECT_THROW(betweenness(ctx, g, o), ArgumentError);
  o.sources = -1;
  EXPECT_THROW(betweenness(ctx, g, o), ArgumentError);
  BetweennessOptions f;
  f.from = {1, 10};
  EXPECT_THROW(betweenness(ctx, g, f), ArgumentError);
  f.from = {1, 1};
  EXPECT_THROW(betweenness(ctx, g, f), ArgumentError);
  EXPECT_TRUE(betweenness(ctx, Graph()).score.empty());
}

}  // namespace
}  // namespace graphrun
