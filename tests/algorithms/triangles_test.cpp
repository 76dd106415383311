// Triangles on the CPU against the textbook loop (support/triangles_oracle.hpp)
// on random graphs of every shape, directed (both directions merged) and
// undirected, and on several thread counts; graphs whose counts are known in
// closed form; the coefficients against their definitions.
#include "graphrun/algorithms/triangles.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "support/random_graphs.hpp"
#include "support/triangles_oracle.hpp"

namespace graphrun {
namespace {

using test::GraphShape;

struct Case {
  GraphShape shape;
  vertex_t n;
  double degree;
};

const Case cases[] = {
    {GraphShape::erdos_renyi, 3000, 1.2},
    {GraphShape::erdos_renyi, 400, 60},
    {GraphShape::power_law, 20000, 8},
    {GraphShape::power_law, 2000, 40},
    {GraphShape::chain, 2000, 1},
    {GraphShape::star, 3000, 1},
    {GraphShape::disconnected, 8000, 6},
    {GraphShape::no_sinks, 4000, 2},
    // Past 2^16 vertices: the degree order's and L's row pointers' parallel passes.
    {GraphShape::power_law, 100000, 6},
};

TEST(Triangles, EqualReferenceOnEveryShape) {
  for (const Case& c : cases)
    for (bool directed : {true, false}) {
      const Graph g = test::random_graph(c.shape, c.n, c.degree, directed, false, 29 + c.n);
      const test::TriangleOracle want = test::reference_triangles(g);
      for (int threads : {1, 2, 5}) {
        const std::string where = test::to_string(c.shape) + " n=" + std::to_string(c.n) +
                                  (directed ? " directed" : " undirected") +
                                  " threads=" + std::to_string(threads);
        Context ctx(Device::cpu, threads);
        const TriangleResult r = triangles(ctx, g);
        EXPECT_EQ(r.total, want.total) << where;
        ASSERT_EQ(r.per_vertex, want.per_vertex) << where;
        ASSERT_EQ(r.degree, want.degree) << where;
        std::uint64_t degree_sum = 0;  // each edge of the simple graph at both ends
        for (vertex_t d : want.degree) degree_sum += static_cast<std::uint64_t>(d);
        EXPECT_EQ(r.edges, degree_sum / 2) << where;
        const TriangleResult total_only = triangles(ctx, g, {.per_vertex = false});
        EXPECT_EQ(total_only.edges, r.edges) << where;
        EXPECT_EQ(total_only.total, want.total) << where;
        EXPECT_TRUE(total_only.per_vertex.empty()) << where;
        EXPECT_EQ(total_only.transitivity, r.transitivity) << where;
      }
    }
}

// A band: i joined to i+1 .. i+w. Dense rows of equal degree in the middle,
// so the (degree, id) order falls back on ids there.
TEST(Triangles, BandedGraph) {
  const vertex_t n = 500, w = 7;
  std::vector<vertex_t> row, col;
  for (vertex_t i = 0; i < n; ++i)
    for (vertex_t j = i + 1; j <= i + w && j < n; ++j) row.push_back(i), col.push_back(j);
  const Graph g = test::weighted_graph(n, row, col, std::vector<double>(row.size(), 1.0));
  Context ctx(Device::cpu, 2);
  const TriangleResult r = triangles(ctx, g);
  const test::TriangleOracle want = test::reference_triangles(g);
  EXPECT_EQ(r.total, want.total);
  EXPECT_EQ(r.per_vertex, want.per_vertex);
  // The closed form: a triangle is i < j < k with k - i <= w, so each i
  // starts C(min(w, n - 1 - i), 2) of them.
  std::uint64_t closed = 0;
  for (vertex_t i = 0; i < n; ++i) {
    const auto reach = static_cast<std::uint64_t>(std::min(w, n - 1 - i));
    closed += reach * (reach > 0 ? reach - 1 : 0) / 2;
  }
  EXPECT_EQ(r.total, closed);
}

// K_k: C(k,3) triangles, C(k-1,2) through every vertex, clustering 1; given
// one way round, with a repeated edge and self loops that must not count.
TEST(Triangles, CliqueCountsAndCoefficients) {
  for (vertex_t k : {3, 4, 9, 40}) {
    std::vector<vertex_t> row, col;
    for (vertex_t u = 0; u < k; ++u)
      for (vertex_t v = u + 1; v < k; ++v) row.push_back(v), col.push_back(u);
    row.push_back(0), col.push_back(1);  // both ways round: still one edge
    row.push_back(2), col.push_back(2);  // a loop
    // A pendant vertex k hanging off 0, and an isolated one k + 1.
    row.push_back(k), col.push_back(0);
    const Graph g = test::weighted_graph(k + 2, row, col, std::vector<double>(row.size(), 1.0));
    Context ctx(Device::cpu, 2);
    const TriangleResult r = triangles(ctx, g);
    const auto kk = static_cast<std::uint64_t>(k);
    EXPECT_EQ(r.total, kk * (kk - 1) * (kk - 2) / 6) << k;
    EXPECT_EQ(r.edges, kk * (kk - 1) / 2 + 1) << k;
    for (vertex_t v = 1; v < k; ++v) {
      EXPECT_EQ(r.per_vertex[v], (kk - 1) * (kk - 2) / 2) << k << " " << v;
      EXPECT_DOUBLE_EQ(r.clustering[v], 1.0) << k << " " << v;
    }
    // Vertex 0 has one neighbour more, outside the clique.
    EXPECT_EQ(r.per_vertex[0], (kk - 1) * (kk - 2) / 2);
    EXPECT_DOUBLE_EQ(r.clustering[0],
                     static_cast<double>((kk - 1) * (kk - 2)) / static_cast<double>(kk * (kk - 1)));
    EXPECT_EQ(r.per_vertex[k], 0u);
    EXPECT_EQ(r.clustering[k], 0.0);
    EXPECT_EQ(r.degree[k + 1], 0);
    // Transitivity: 3 T over the wedges, which the degrees give.
    std::uint64_t wedges = 0;
    for (vertex_t d : r.degree) wedges += static_cast<std::uint64_t>(d) * (d > 0 ? d - 1 : 0) / 2;
    EXPECT_EQ(r.wedges, wedges);
    EXPECT_DOUBLE_EQ(r.transitivity, 3.0 * static_cast<double>(r.total) / double(wedges));
    double sum = 0;
    for (double c : r.clustering) sum += c;
    EXPECT_NEAR(r.average_clustering, sum / double(k + 2), 1e-15);
  }
}

TEST(Triangles, EmptyAndEdgelessGraphs) {
  Context ctx(Device::cpu, 2);
  const TriangleResult none = triangles(ctx, Graph());
  EXPECT_EQ(none.total, 0u);
  EXPECT_TRUE(none.per_vertex.empty());
  const Graph loops = test::weighted_graph(3, {0, 1, 2}, {0, 1, 2}, {1.0, 1.0, 1.0});
  const TriangleResult r = triangles(ctx, loops);
  EXPECT_EQ(r.total, 0u);
  EXPECT_EQ(r.edges, 0u);
  EXPECT_EQ(r.per_vertex, (std::vector<std::uint64_t>{0, 0, 0}));
  EXPECT_EQ(r.transitivity, 0.0);
}

}  // namespace
}  // namespace graphrun
