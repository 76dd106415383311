// Louvain on the CPU: planted communities recovered exactly; the reported
// modularity equal to the textbook formula over the edges (written out here,
// apart from the library's); levels that only raise it; the same
// communities on every thread count for a seed; the numbering; the
// resolution; directed input summed both ways; bad options and weights.
#include "graphrun/algorithms/louvain.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "support/random_graphs.hpp"

namespace graphrun {
namespace {

using test::GraphShape;

// Q from the edges of the undirected simple view, NetworkX's formula:
// Σ_c L_c / m - γ (d_c / 2m)², L_c the weight of the edges inside c.
double textbook_modularity(const Graph& g, const std::vector<vertex_t>& c, double gamma = 1) {
  std::map<std::pair<vertex_t, vertex_t>, double> edges;
  const CsrView<double> a = g.adj().view();
  for (vertex_t u = 0; u < g.n_vertices(); ++u) {
    for (offset_t k = a.row_ptr[u]; k < a.row_ptr[u + 1]; ++k) {
      const vertex_t v = a.col_idx[k];
      if (u == v) continue;
      const double w = a.values ? a.values[k] : 1.0;
      // An undirected graph stores each edge twice: count it once.
      if (!g.directed() && u > v) continue;
      edges[{std::min(u, v), std::max(u, v)}] += w;
    }
  }
  double m = 0;
  std::map<vertex_t, double> inside, degree;
  for (const auto& [e, w] : edges) {
    m += w;
    degree[c[e.first]] += w;
    degree[c[e.second]] += w;
    if (c[e.first] == c[e.second]) inside[c[e.first]] += w;
  }
  double q = 0;
  for (const auto& [k, l] : inside) q += l / m;
  for (const auto& [k, d] : degree) q -= gamma * (d / (2 * m)) * (d / (2 * m));
  return q;
}

LouvainOptions seeded(std::uint64_t seed) {
  LouvainOptions o;
  o.seed = seed;
  return o;
}

LouvainOptions at_resolution(double gamma) {
  LouvainOptions o;
  o.resolution = gamma;
  return o;
}

// `groups` cliques of `size`, clique i joined to clique i+1 by one edge.
Graph ring_of_cliques(vertex_t groups, vertex_t size) {
  std::vector<vertex_t> row, col;
  for (vertex_t g = 0; g < groups; ++g) {
    for (vertex_t i = 0; i < size; ++i)
      for (vertex_t j = i + 1; j < size; ++j)
        row.push_back(g * size + i), col.push_back(g * size + j);
    row.push_back(g * size), col.push_back(((g + 1) % groups) * size + 1);
  }
  std::vector<vertex_t> r2 = row, c2 = col;
  r2.insert(r2.end(), col.begin(), col.end());
  c2.insert(c2.end(), row.begin(), row.end());
  return test::weighted_graph(groups * size, r2, c2, std::vector<double>(r2.size(), 1.0));
}

TEST(Louvain, RecoversPlantedCliques) {
  const Graph g = ring_of_cliques(12, 8);
  Context ctx(Device::cpu, 2);
  const LouvainResult r = louvain(ctx, g);
  EXPECT_EQ(r.n_communities, 12);
  for (vertex_t v = 0; v < g.n_vertices(); ++v)
    EXPECT_EQ(r.community[v], r.community[(v / 8) * 8]) << v;
  EXPECT_NEAR(r.modularity, textbook_modularity(g, r.community), 1e-12);
  EXPECT_TRUE(r.complete);
}

TEST(Louvain, ModularityIsTheTextbookOneAndLevelsRaiseIt) {
  for (GraphShape shape : {GraphShape::erdos_renyi, GraphShape::power_law, GraphShape::disconnected,
                           GraphShape::chain})
    for (bool directed : {false, true}) {
      const Graph g = test::random_graph(shape, 3000, 6, directed, true, 61);
      const std::string where = test::to_string(shape) + (directed ? " directed" : "");
      Context ctx(Device::cpu, 2);
      const LouvainResult r = louvain(ctx, g);
      EXPECT_NEAR(r.modularity, textbook_modularity(g, r.community), 1e-10) << where;
      EXPECT_NEAR(modularity(ctx, g, r.community), r.modularity, 1e-12) << where;
      ASSERT_FALSE(r.level_modularity.empty()) << where;
      for (std::size_t l = 1; l < r.level_modularity.size(); ++l)
        EXPECT_GE(r.level_modularity[l], r.level_modularity[l - 1] - 1e-12) << where;
      // The refinement after the last level can only raise it.
      EXPECT_GE(r.modularity, r.level_modularity.back() - 1e-12) << where;
      // Largest first, 0..count-1, every one used.
      std::vector<vertex_t> size(static_cast<std::size_t>(r.n_communities), 0);
      for (vertex_t c : r.community) ++size[c];
      for (std::size_t c = 1; c < size.size(); ++c) EXPECT_GE(size[c - 1], size[c]) << where;
      for (vertex_t s : size) EXPECT_GT(s, 0) << where;
      EXPECT_GT(r.modularity, 0.2) << where;  // random graphs of degree 6 have structure to find
    }
}

TEST(Louvain, SameCommunitiesOnEveryThreadCount) {
  const Graph g = test::random_graph(GraphShape::power_law, 20'000, 8, false, false, 4);
  Context one(Device::cpu, 1);
  const LouvainResult want = louvain(one, g, seeded(5));
  for (int threads : {2, 3, 7}) {
    Context ctx(Device::cpu, threads);
    const LouvainResult r = louvain(ctx, g, seeded(5));
    EXPECT_EQ(r.community, want.community) << threads;
    EXPECT_EQ(r.modularity, want.modularity) << threads;
  }
  EXPECT_NE(louvain(one, g, seeded(6)).community, want.community);
}

TEST(Louvain, ResolutionSplitsFiner) {
  const Graph g = test::random_graph(GraphShape::erdos_renyi, 4000, 8, false, false, 9);
  Context ctx(Device::cpu, 2);
  const LouvainResult coarse = louvain(ctx, g, at_resolution(0.5));
  const LouvainResult fine = louvain(ctx, g, at_resolution(3.0));
  EXPECT_GT(fine.n_communities, coarse.n_communities);
  EXPECT_NEAR(modularity(ctx, g, fine.community, 3.0), fine.modularity, 1e-12);
}

TEST(Louvain, CallbackSeesLevelsAndStops) {
  const Graph g = test::random_graph(GraphShape::power_law, 5000, 6, false, false, 2);
  Context ctx(Device::cpu, 2);
  int calls = 0;
  LouvainOptions o;
  o.on_iteration = [&calls](const IterationInfo& info) {
    EXPECT_EQ(info.iteration, ++calls);
    EXPECT_GT(info.frontier, 0);
    return false;
  };
  const LouvainResult r = louvain(ctx, g, o);
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.levels, 1);
  EXPECT_NEAR(r.modularity, r.level_modularity[0], 1e-9);
}

TEST(Louvain, EdgelessAndBadInput) {
  Context ctx(Device::cpu, 2);
  EXPECT_TRUE(louvain(ctx, Graph()).community.empty());
  const Graph loops = test::weighted_graph(3, {0, 1, 2}, {0, 1, 2}, {1.0, 1.0, 1.0});
  const LouvainResult r = louvain(ctx, loops);
  EXPECT_EQ(r.community, (std::vector<vertex_t>{0, 1, 2}));  // loops are ignored: singletons
  EXPECT_EQ(r.modularity, 0.0);
  const Graph g = test::weighted_graph(3, {0, 1}, {1, 2}, {1.0, -1.0});
  EXPECT_THROW(louvain(ctx, g), ArgumentError);
  const Graph fine = test::weighted_graph(3, {0, 1}, {1, 2}, {1.0, 1.0});
  EXPECT_THROW(louvain(ctx, fine, at_resolution(0)), ArgumentError);
  EXPECT_THROW(modularity(ctx, fine, std::vector<vertex_t>{0, 1}), ArgumentError);
  EXPECT_THROW(modularity(ctx, fine, std::vector<vertex_t>{0, 1, 3}), ArgumentError);
}

}  // namespace
}  // namespace graphrun
