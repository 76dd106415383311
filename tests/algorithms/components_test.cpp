// Connected components on the CPU against Boost.Graph: weak
// (connected_components with direction dropped) and strong
// (strong_components), on random graphs of every shape, directed and
// undirected, on several thread counts; labels must be equal, not only the
// partition, since both name a component by its smallest vertex. Plus the
// counts, the degenerate graphs and the callback.
#include "graphrun/algorithms/components.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "support/components_oracle.hpp"
#include "support/random_graphs.hpp"

namespace graphrun {
namespace {

using test::GraphShape;

// count, largest and largest_component agree with the labels.
void expect_counts(const ComponentsResult& r, const std::string& where) {
  std::map<vertex_t, vertex_t> size;
  for (std::size_t v = 0; v < r.component.size(); ++v) {
    ASSERT_LE(r.component[v], static_cast<vertex_t>(v)) << where << ": not the smallest vertex";
    ++size[r.component[v]];
  }
  EXPECT_EQ(r.count, static_cast<vertex_t>(size.size())) << where;
  vertex_t largest = 0, label = 0;
  for (const auto& [c, s] : size)
    if (s > largest) largest = s, label = c;
  EXPECT_EQ(r.largest, largest) << where;
  EXPECT_EQ(r.largest_component, label) << where;
}

struct Case {
  GraphShape shape;
  vertex_t n;
  double degree;
};

const Case cases[] = {
    {GraphShape::erdos_renyi, 3000, 0.6},  // many small components
    {GraphShape::erdos_renyi, 3000, 1.2},  // near the giant component's threshold
    {GraphShape::erdos_renyi, 20000, 4},  {GraphShape::power_law, 20000, 3},
    {GraphShape::chain, 5000, 1},         {GraphShape::star, 5000, 1},
    {GraphShape::disconnected, 8000, 3},  {GraphShape::no_sinks, 4000, 1},
};

TEST(Components, WeakEqualsBoost) {
  for (const Case& c : cases)
    for (bool directed : {true, false})
      for (int threads : {1, 2, 5}) {
        const Graph g = test::random_graph(c.shape, c.n, c.degree, directed, false, 7 + c.n);
        const std::string where = test::to_string(c.shape) + " n=" + std::to_string(c.n) +
                                  (directed ? " directed" : " undirected") +
                                  " threads=" + std::to_string(threads);
        Context ctx(Device::cpu, threads);
        const ComponentsResult r = connected_components(ctx, g);
        ASSERT_EQ(r.component, test::boost_weak_components(g)) << where;
        expect_counts(r, where);
        EXPECT_TRUE(r.complete);
      }
}

TEST(Components, StrongEqualsBoost) {
  for (const Case& c : cases)
    for (bool directed : {true, false}) {
      const Graph g = test::random_graph(c.shape, c.n, c.degree, directed, false, 11 + c.n);
      const std::string where = test::to_string(c.shape) + " n=" + std::to_string(c.n) +
                                (directed ? " directed" : " undirected");
      Context ctx(Device::cpu, 2);
      ComponentsOptions o;
      o.strong = true;
      const ComponentsResult r = connected_components(ctx, g, o);
      ASSERT_EQ(r.component, test::boost_strong_components(g)) << where;
      expect_counts(r, where);
    }
}

// A cycle is one strong component; cutting one edge makes every vertex
// its own, while the weak component stays whole.
TEST(Components, CycleAndPath) {
  const vertex_t n = 1000;
  std::vector<vertex_t> row, col;
  for (vertex_t i = 0; i < n; ++i) row.push_back(i), col.push_back((i + 1) % n);
  Context ctx(Device::cpu, 2);
  ComponentsOptions strong;
  strong.strong = true;
  {
    const Graph cycle = test::weighted_graph(n, row, col, std::vector<double>(row.size(), 1.0));
    const ComponentsResult r = connected_components(ctx, cycle, strong);
    EXPECT_EQ(r.count, 1);
    EXPECT_EQ(r.largest, n);
  }
  row.pop_back(), col.pop_back();
  const Graph path = test::weighted_graph(n, row, col, std::vector<double>(row.size(), 1.0));
  const ComponentsResult s = connected_components(ctx, path, strong);
  EXPECT_EQ(s.count, n);
  EXPECT_EQ(s.largest, 1);
  const ComponentsResult w = connected_components(ctx, path);
  EXPECT_EQ(w.count, 1);
  EXPECT_EQ(w.component, std::vector<vertex_t>(n, 0));
}

// The largest component found by counting only the most frequent label of
// a sample when it holds more than half the vertices, else from every
// size: two paths of exactly half the vertices each (a tie, the smaller
// label wins), a path of half plus one beside single vertices, and a path
// of half less one beside a longer second path.
TEST(Components, LargestAtAndAroundHalfTheVertices) {
  const vertex_t n = 4000;
  auto paths = [&](std::vector<std::pair<vertex_t, vertex_t>> runs) {
    std::vector<vertex_t> row, col;
    for (auto [from, to] : runs)
      for (vertex_t v = from; v + 1 < to; ++v) row.push_back(v), col.push_back(v + 1);
    return test::weighted_graph(n, row, col, std::vector<double>(row.size(), 1.0));
  };
  Context ctx(Device::cpu, 3);
  const ComponentsResult tie = connected_components(ctx, paths({{2000, 4000}, {0, 2000}}));
  EXPECT_EQ(tie.count, 2);
  EXPECT_EQ(tie.largest, 2000);
  EXPECT_EQ(tie.largest_component, 0);
  expect_counts(tie, "two halves");
  const ComponentsResult majority = connected_components(ctx, paths({{1999, 4000}}));
  EXPECT_EQ(majority.count, 1999 + 1);
  EXPECT_EQ(majority.largest, 2001);
  EXPECT_EQ(majority.largest_component, 1999);
  expect_counts(majority, "half plus one");
  const ComponentsResult minority = connected_components(ctx, paths({{0, 1999}, {1999, 3800}}));
  EXPECT_EQ(minority.largest, 1999);
  EXPECT_EQ(minority.largest_component, 0);
  expect_counts(minority, "half less one");
}

TEST(Components, EmptyAndEdgeless) {
  Context ctx(Device::cpu, 2);
  const ComponentsResult empty = connected_components(ctx, Graph());
  EXPECT_TRUE(empty.component.empty());
  EXPECT_EQ(empty.count, 0);
  EXPECT_EQ(empty.largest, 0);
  const Graph lonely = test::random_graph(GraphShape::erdos_renyi, 50, 0, true, false, 1);
  for (bool strong : {false, true}) {
    ComponentsOptions o;
    o.strong = strong;
    const ComponentsResult r = connected_components(ctx, lonely, o);
    EXPECT_EQ(r.count, 50);
    EXPECT_EQ(r.largest, 1);
    for (vertex_t v = 0; v < 50; ++v) EXPECT_EQ(r.component[v], v);
  }
}

TEST(Components, CallbackCalledOnce) {
  const Graph g = test::random_graph(GraphShape::power_law, 2000, 3, true, false, 5);
  Context ctx(Device::cpu, 2);
  for (bool strong : {false, true}) {
    int calls = 0;
    ComponentsOptions o;
    o.strong = strong;
    o.on_iteration = [&calls](const IterationInfo& info) {
      ++calls;
      EXPECT_EQ(info.iteration, 1);
      return false;  // too late to stop a one-pass method
    };
    const ComponentsResult r = connected_components(ctx, g, o);
    EXPECT_EQ(calls, 1);
    EXPECT_TRUE(r.complete);
    EXPECT_EQ(r.component,
              strong ? test::boost_strong_components(g) : test::boost_weak_components(g));
  }
}

}  // namespace
}  // namespace graphrun
