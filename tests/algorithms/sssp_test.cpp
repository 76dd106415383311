// Shortest paths on the CPU against Boost.Graph's Dijkstra: delta-stepping
// and the min-plus Bellman-Ford, on random graphs of every shape (a long
// chain, a star's one huge row, power-law, disconnected), directed and
// undirected, weighted three ways (real weights, small integers with many
// ties, zero weights among them) and unweighted (hop counts), with bucket
// widths from tiny (every bucket past the ring: the far pile) to huge (one
// bucket, Bellman-Ford), on several thread counts. The distances must be
// equal, not close: both compute the one fixed point in double precision.
// Plus the checks (source, delta, negative weights) and the callback.
#include "graphrun/algorithms/sssp.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "support/random_graphs.hpp"
#include "support/sssp_oracle.hpp"

namespace graphrun {
namespace {

using test::GraphShape;

enum class Weights { real, integer, with_zeros, none };

const char* name(Weights w) {
  switch (w) {
    case Weights::real:
      return "real";
    case Weights::integer:
      return "integer";
    case Weights::with_zeros:
      return "with_zeros";
    case Weights::none:
      return "unweighted";
  }
  return "?";
}

// The random graph with its weights made `kind` (the pattern for none).
Graph make_graph(GraphShape shape, vertex_t n, double degree, bool directed, Weights kind,
                 std::uint64_t seed) {
  const Graph g = test::random_graph(shape, n, degree, directed, kind != Weights::none, seed);
  if (kind == Weights::none || kind == Weights::real) return g;
  std::vector<double> w = g.adj().values();
  for (std::size_t k = 0; k < w.size(); ++k) {
    // random_graph's weights are uniform in [0.25, 4): reuse their bits.
    const double x = w[k];
    w[k] = kind == Weights::integer ? std::floor(x * 64) : (x < 1.2 ? 0.0 : x);
  }
  Csr<double> a(g.n_vertices(), g.n_vertices(), g.adj().row_ptr(), g.adj().col_idx(), w);
  return Graph(std::move(a), {}, directed, true);
}

struct Case {
  GraphShape shape;
  vertex_t n;
  double degree;
};

const Case cases[] = {
    {GraphShape::erdos_renyi, 3000, 1.2}, {GraphShape::erdos_renyi, 20000, 6},
    {GraphShape::power_law, 20000, 4},    {GraphShape::power_law, 4000, 6},
    {GraphShape::chain, 1500, 1},         {GraphShape::star, 5000, 1},
    {GraphShape::disconnected, 8000, 3},  {GraphShape::no_sinks, 4000, 1},
};

TEST(Sssp, DeltaSteppingEqualsDijkstra) {
  for (const Case& c : cases)
    for (bool directed : {true, false})
      for (Weights kind : {Weights::real, Weights::integer, Weights::with_zeros, Weights::none}) {
        const Graph g = make_graph(c.shape, c.n, c.degree, directed, kind, 5 + c.n);
        const vertex_t source = c.shape == GraphShape::chain ? 0 : c.n / 3;
        const std::vector<double> expected = test::boost_dijkstra(g, source);
        // 0: automatic; 1e-2: more buckets than a ring holds; 1e9: one bucket.
        for (double delta : {0.0, 1e-2, 0.5, 1e9})
          for (int threads : {1, 2, 5}) {
            // More threads than cores wait at every bucket's barrier for
            // one descheduled: thousands of buckets take seconds.
            if (threads == 5 && delta != 0) continue;
            const std::string where = test::to_string(c.shape) + " n=" + std::to_string(c.n) +
                                      (directed ? " directed " : " undirected ") + name(kind) +
                                      " delta=" + std::to_string(delta) +
                                      " threads=" + std::to_string(threads);
            Context ctx(Device::cpu, threads);
            SsspOptions o;
            o.delta = delta;
            const SsspResult r = sssp(ctx, g, source, o);
            ASSERT_EQ(r.distance, expected) << where;
            EXPECT_TRUE(r.complete) << where;
            EXPECT_GT(r.delta, 0) << where;
            vertex_t reached = 0;
            double farthest = 0;
            for (double d : expected)
              if (std::isfinite(d)) ++reached, farthest = std::max(farthest, d);
            EXPECT_EQ(r.reached, reached) << where;
            EXPECT_EQ(r.max_distance, farthest) << where;
            EXPECT_GE(r.relaxations, 0) << where;
          }
      }
}

TEST(Sssp, BellmanFordEqualsDijkstra) {
  for (const Case& c : cases)
    for (bool directed : {true, false})
      for (Weights kind : {Weights::real, Weights::with_zeros, Weights::none}) {
        if (c.shape == GraphShape::chain && c.n > 1000) continue;  // n sweeps: see below
        const Graph g = make_graph(c.shape, c.n, c.degree, directed, kind, 9 + c.n);
        const vertex_t source = c.n / 2;
        const std::string where =
            test::to_string(c.shape) + (directed ? " directed " : " undirected ") + name(kind);
        Context ctx(Device::cpu, 2);
        SsspOptions o;
        o.method = SsspMethod::bellman_ford;
        const SsspResult r = sssp(ctx, g, source, o);
        ASSERT_EQ(r.distance, test::boost_dijkstra(g, source)) << where;
        EXPECT_EQ(r.delta, 0) << where;
        EXPECT_GE(r.iterations, 1) << where;
      }
}

// Buckets so narrow that nearly every vertex is filed past a thread's ring
// of buckets, in its far pile, and comes back from there.
TEST(Sssp, NarrowBucketsGoThroughTheFarPile) {
  for (GraphShape shape : {GraphShape::chain, GraphShape::erdos_renyi, GraphShape::power_law})
    for (int threads : {1, 2}) {
      const Graph g = make_graph(shape, 2000, 3, false, Weights::real, 21);
      Context ctx(Device::cpu, threads);
      SsspOptions o;
      o.delta = 1e-4;
      const SsspResult r = sssp(ctx, g, 0, o);
      ASSERT_EQ(r.distance, test::boost_dijkstra(g, 0)) << test::to_string(shape);
      EXPECT_GT(r.max_distance / o.delta, 1e4) << test::to_string(shape);
    }
}

// A path of n vertices takes Bellman-Ford n sweeps (the last changes
// nothing) and delta-stepping one bucket per unit of distance with delta 1.
TEST(Sssp, ChainCountsSweepsAndBuckets) {
  const Graph g = test::random_graph(GraphShape::chain, 300, 1, true, false, 1);
  Context ctx(Device::cpu, 2);
  SsspOptions o;
  o.method = SsspMethod::bellman_ford;
  SsspResult r = sssp(ctx, g, 0, o);
  EXPECT_EQ(r.iterations, 300);
  EXPECT_EQ(r.max_distance, 299);
  o.method = SsspMethod::delta_stepping;
  o.delta = 1;
  r = sssp(ctx, g, 0, o);
  EXPECT_EQ(r.iterations, 300);
  EXPECT_EQ(r.reached, 300);
  EXPECT_EQ(r.relaxations, 299);
  // From the far end nothing else is reachable.
  r = sssp(ctx, g, 299, o);
  EXPECT_EQ(r.reached, 1);
  EXPECT_TRUE(std::isinf(r.distance[0]));
}

TEST(Sssp, RefusesBadArguments) {
  const Graph g = test::random_graph(GraphShape::erdos_renyi, 100, 3, true, true, 3);
  Context ctx(Device::cpu, 2);
  EXPECT_THROW(sssp(ctx, g, -1), ArgumentError);
  EXPECT_THROW(sssp(ctx, g, 100), ArgumentError);
  for (double bad :
       {-1.0, std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    SsspOptions o;
    o.delta = bad;
    EXPECT_THROW(sssp(ctx, g, 0, o), ArgumentError) << bad;
  }
}

// A negative weight on a reachable edge is refused by both methods, the
// edge named; one the search never reaches is not read by delta-stepping.
TEST(Sssp, RefusesNegativeWeights) {
  const Graph g = test::weighted_graph(4, {0, 1, 3}, {1, 2, 0}, {1.0, -2.0, -5.0});
  Context ctx(Device::cpu, 2);
  for (SsspMethod m : {SsspMethod::delta_stepping, SsspMethod::bellman_ford}) {
    SsspOptions o;
    o.method = m;
    try {
      sssp(ctx, g, 0, o);
      ADD_FAILURE() << "a negative weight was accepted";
    } catch (const ArgumentError& e) {
      EXPECT_NE(std::string(e.what()).find("1 -> 2 has weight -2"), std::string::npos) << e.what();
    }
  }
  // From 2 nothing is reachable: delta-stepping reads no negative edge.
  const SsspResult r = sssp(ctx, g, 2);
  EXPECT_EQ(r.reached, 1);
  SsspOptions bf;
  bf.method = SsspMethod::bellman_ford;
  EXPECT_THROW(sssp(ctx, g, 2, bf), ArgumentError);
}

TEST(Sssp, CallbackSeesEveryBucketAndStops) {
  const Graph g = test::random_graph(GraphShape::chain, 50, 1, true, false, 1);
  Context ctx(Device::cpu, 3);
  SsspOptions o;
  o.delta = 1;
  int calls = 0;
  o.on_iteration = [&](const IterationInfo& info) {
    EXPECT_EQ(info.iteration, ++calls);
    EXPECT_EQ(info.frontier, 1);
    return true;
  };
  SsspResult r = sssp(ctx, g, 0, o);
  EXPECT_EQ(calls, 50);
  EXPECT_EQ(r.iterations, 50);
  EXPECT_TRUE(r.complete);
  for (SsspMethod m : {SsspMethod::delta_stepping, SsspMethod::bellman_ford}) {
    o.method = m;
    o.on_iteration = [](const IterationInfo& info) { return info.iteration < 10; };
    r = sssp(ctx, g, 0, o);
    EXPECT_FALSE(r.complete);
    EXPECT_EQ(r.iterations, 10);
    // Upper bounds: what was reached is exact on a path, the rest unknown.
    EXPECT_EQ(r.distance[5], 5);
    EXPECT_TRUE(std::isinf(r.distance[49]));
  }
  o.on_iteration = [](const IterationInfo&) -> bool { throw std::runtime_error("cancelled"); };
  o.method = SsspMethod::delta_stepping;
  EXPECT_THROW(sssp(ctx, g, 0, o), std::runtime_error);
}

TEST(Sssp, SingleVertexAndSelfLoops) {
  const Graph one = test::weighted_graph(1, {0}, {0}, {2.5});
  Context ctx(Device::cpu, 2);
  const SsspResult r = sssp(ctx, one, 0);
  EXPECT_EQ(r.distance, std::vector<double>{0});
  EXPECT_EQ(r.reached, 1);
  EXPECT_EQ(r.max_distance, 0);
}

}  // namespace
}  // namespace graphrun
