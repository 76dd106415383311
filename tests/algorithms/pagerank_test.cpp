// PageRank against three oracles:
//  - boost::graph::page_rank where the definitions coincide. Boost's step is
//    r'(v) = (1-d) + d Σ r(u)/outdeg(u): its teleport term is (1-d), not
//    (1-d)/n, it runs a fixed number of iterations and does not redistribute
//    dangling mass. So: unweighted graphs where every vertex has an out-edge
//    (no sinks), 200 Boost iterations, Boost's ranks normalized to sum 1,
//    ours at tol 1e-12, compared within 1e-9 in L1.
//  - a dense serial PageRank (tests/support/algorithm_oracles.hpp) that does
//    handle dangling vertices and weights, on graphs with sinks;
//  - NetworkX values for two hand-made graphs (a self loop, a dangling and an
//    isolated vertex; a weighted graph), computed with
//    networkx.algorithms.link_analysis.pagerank_alg._pagerank_python(tol=1e-15).
#include "graphrun/algorithms/pagerank.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "support/algorithm_oracles.hpp"
#include "support/random_graphs.hpp"

namespace graphrun {
namespace {

using test::GraphShape;

// Jacobi's iteration (NetworkX's), on undirected graphs too: the method
// the oracles compute and the others are held to.
PageRankResult run(const Graph& g, int threads, double tol = 1e-12, int max_iter = 1000) {
  Context ctx(Device::cpu, threads);
  PageRankOptions o;
  o.tol = tol;
  o.max_iter = max_iter;
  o.method = PageRankMethod::jacobi;
  return pagerank(ctx, g, o);
}

double sum(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

// A random graph of the tests' tables: its shape, vertices and mean degree.
struct ShapeCase {
  GraphShape shape;
  vertex_t n;
  double deg;
};

TEST(PageRank, MatchesBoostOnGraphsWithoutSinks) {
  const ShapeCase cases[] = {{GraphShape::no_sinks, 1, 1},    {GraphShape::no_sinks, 2, 1},
                             {GraphShape::no_sinks, 500, 3},  {GraphShape::no_sinks, 3000, 1},
                             {GraphShape::no_sinks, 4001, 8}, {GraphShape::chain, 300, 1}};
  std::uint64_t seed = 7;
  for (const ShapeCase& c : cases) {
    for (bool directed : {true, false}) {
      // A directed chain has a sink; only its undirected form qualifies.
      if (c.shape == GraphShape::chain && directed) continue;
      const Graph g = test::random_graph(c.shape, c.n, c.deg, directed, false, ++seed);
      for (vertex_t v = 0; v < g.n_vertices(); ++v) ASSERT_GT(g.adj().row_length(v), 0);
      const std::vector<double> expect = test::boost_pagerank(g, 0.85, 200);
      for (int threads : {1, 2}) {
        const PageRankResult r = run(g, threads);
        const std::string what = test::to_string(c.shape) + " n=" + std::to_string(c.n) +
                                 (directed ? " directed" : " undirected") +
                                 " threads=" + std::to_string(threads);
        EXPECT_TRUE(r.converged) << what;
        EXPECT_LT(r.residual, 1e-12) << what;
        EXPECT_LE(test::l1_distance(r.rank, expect), 1e-9) << what;
      }
    }
  }
}

TEST(PageRank, MatchesDenseReferenceWithSinks) {
  const ShapeCase cases[] = {
      {GraphShape::erdos_renyi, 400, 1.5}, {GraphShape::erdos_renyi, 3, 0.5},
      {GraphShape::power_law, 600, 4},     {GraphShape::star, 200, 1},
      {GraphShape::chain, 150, 1},         {GraphShape::disconnected, 500, 3}};
  std::uint64_t seed = 300;
  for (const ShapeCase& c : cases) {
    for (bool directed : {true, false}) {
      for (bool weighted : {false, true}) {
        const Graph g = test::random_graph(c.shape, c.n, c.deg, directed, weighted, ++seed);
        const std::vector<double> expect = test::dense_pagerank(g, 0.85, true);
        for (int threads : {1, 2}) {
          const PageRankResult r = run(g, threads);
          const std::string what = test::to_string(c.shape) + " n=" + std::to_string(c.n) +
                                   (directed ? " directed" : " undirected") +
                                   (weighted ? " weighted" : "") +
                                   " threads=" + std::to_string(threads);
          EXPECT_TRUE(r.converged) << what;
          EXPECT_LE(test::l1_distance(r.rank, expect), 1e-9) << what;
          EXPECT_NEAR(sum(r.rank), 1.0, 1e-12) << what;
        }
      }
    }
  }
}

// Graphs whose x outgrows a core's caches (past 4 MiB: 540,000 vertices)
// and whose gathers are scattered take the pass that prefetches its
// gather: same answers, directed at 1 and 2 threads, weighted, and
// undirected (where the out-degrees come from Aᵀ's rows).
TEST(PageRank, LargeGraphsTakeThePrefetchingPass) {
  struct Case {
    bool directed, weighted;
    std::vector<int> threads;
  };
  for (const Case& c :
       {Case{true, false, {1, 2}}, Case{true, true, {2}}, Case{false, false, {2}}}) {
    const Graph g = test::random_graph(GraphShape::power_law, 540'000, 2, c.directed, c.weighted,
                                       77 + c.weighted + 2 * c.directed);
    const std::vector<double> expect = test::sparse_pagerank(g, 0.85, true, 1e-12);
    for (int threads : c.threads) {
      const PageRankResult r = run(g, threads, 1e-11);
      const std::string where = "directed=" + std::to_string(c.directed) +
                                " weighted=" + std::to_string(c.weighted) +
                                " threads=" + std::to_string(threads);
      EXPECT_TRUE(r.converged) << where;
      EXPECT_LE(test::l1_distance(r.rank, expect), 1e-9) << where;
      EXPECT_NEAR(sum(r.rank), 1.0, 1e-10) << where;  // 540,000 rounded terms
    }
  }
}

// At a tolerance of 1e-6 a graph whose x is past the caches and scattered
// is iterated with x gathered from a float copy: the ranks stay within
// Jacobi's bound d / (1 - d) tol of the fixed point plus the float copy's
// 3.4e-7 (pagerank_steps.cpp), by each method that uses it; a tighter
// tolerance gathers in double again and reaches the fixed point.
TEST(PageRank, FloatGathersStayWithinTheirBound) {
  const Graph g = test::random_graph(GraphShape::power_law, 540'000, 4, false, false, 81);
  const std::vector<double> expect = test::sparse_pagerank(g, 0.85, true, 1e-12);
  const double bound = 0.85 / 0.15 * 1e-6 + 0.85 / 0.15 * std::ldexp(1.0, -24);
  for (PageRankMethod method : {PageRankMethod::jacobi, PageRankMethod::chebyshev}) {
    Context ctx(Device::cpu, 2);
    PageRankOptions o;
    o.tol = 1e-6;
    o.method = method;
    const PageRankResult loose = pagerank(ctx, g, o);
    const std::string where = std::string(to_string(method));
    EXPECT_TRUE(loose.float_gathers) << where;
    EXPECT_TRUE(loose.converged) << where;
    EXPECT_LE(test::l1_distance(loose.rank, expect), bound) << where;
    // The float copy's rounding is not mass-preserving: the sum too is off
    // by at most its d / (1 - d) 2^-24.
    EXPECT_NEAR(sum(loose.rank), 1.0, 0.85 / 0.15 * std::ldexp(1.0, -24)) << where;
    o.tol = 1e-11;
    const PageRankResult tight = pagerank(ctx, g, o);
    EXPECT_FALSE(tight.float_gathers) << where;
    EXPECT_LE(test::l1_distance(tight.rank, expect), 1e-9) << where;
  }
  // A Gauss–Seidel sweep reads fresh ranks in place: always double.
  Context ctx(Device::cpu, 2);
  PageRankOptions o;
  o.tol = 1e-6;
  o.method = PageRankMethod::gauss_seidel;
  EXPECT_FALSE(pagerank(ctx, g, o).float_gathers);
}

// PageRankOptions::gather overrides the automatic choice both ways: float
// on a graph that fits the caches (its ranks within the same bound, the sum
// within its share), double on one past them; float with the Gauss–Seidel
// sweep is refused.
TEST(PageRank, GatherPrecisionAsAsked) {
  const Graph small = test::random_graph(GraphShape::power_law, 3'000, 6, true, false, 82);
  const std::vector<double> expect = test::sparse_pagerank(small, 0.85, true, 1e-12);
  const double rounding = 0.85 / 0.15 * std::ldexp(1.0, -24);
  Context ctx(Device::cpu, 2);
  PageRankOptions o;
  o.tol = 1e-10;
  o.max_iter = 1000;
  o.method = PageRankMethod::jacobi;
  o.gather = PageRankGather::float32;
  const PageRankResult floats = pagerank(ctx, small, o);
  EXPECT_TRUE(floats.float_gathers);
  EXPECT_LE(test::l1_distance(floats.rank, expect), 0.85 / 0.15 * 1e-10 + rounding);
  EXPECT_NEAR(sum(floats.rank), 1.0, rounding);
  // The float copy changes the iterates: some rank differs from double's.
  o.gather = PageRankGather::float64;
  const PageRankResult doubles = pagerank(ctx, small, o);
  EXPECT_FALSE(doubles.float_gathers);
  EXPECT_NE(floats.rank, doubles.rank);
  EXPECT_LE(test::l1_distance(doubles.rank, expect), 1e-9);

  const Graph large = test::random_graph(GraphShape::power_law, 540'000, 4, false, false, 81);
  o.tol = 1e-6;
  o.max_iter = 100;
  o.method = PageRankMethod::automatic;
  EXPECT_FALSE(pagerank(ctx, large, o).float_gathers);  // float64 asked
  o.gather = PageRankGather::automatic;
  EXPECT_TRUE(pagerank(ctx, large, o).float_gathers);

  o.method = PageRankMethod::gauss_seidel;
  o.gather = PageRankGather::float32;
  EXPECT_THROW(pagerank(ctx, small, o), ArgumentError);
}

PageRankResult run_method(const Graph& g, int threads, PageRankMethod method, double tol = 1e-12) {
  Context ctx(Device::cpu, threads);
  PageRankOptions o;
  o.tol = tol;
  o.max_iter = 1000;
  o.method = method;
  return pagerank(ctx, g, o);
}

PageRankResult run_gauss_seidel(const Graph& g, int threads, double tol = 1e-12) {
  return run_method(g, threads, PageRankMethod::gauss_seidel, tol);
}

PageRankResult run_chebyshev(const Graph& g, int threads, double tol = 1e-12) {
  return run_method(g, threads, PageRankMethod::chebyshev, tol);
}

// `method` reaches the fixed point on every case, in each direction asked
// for, unweighted and weighted, at 1, 2 and 5 threads: within 1e-9 of the
// dense reference (of Jacobi's ranks at 1e-14 past 1,000 vertices), ranks
// summing to 1, and the same bits run to run for a given thread count.
void expect_same_fixed_point(PageRankMethod method, std::span<const ShapeCase> cases,
                             std::initializer_list<bool> directions, std::uint64_t seed) {
  for (const ShapeCase& c : cases)
    for (bool directed : directions)
      for (bool weighted : {false, true}) {
        const Graph g = test::random_graph(c.shape, c.n, c.deg, directed, weighted, ++seed);
        const std::vector<double> expect =
            c.n <= 1000 ? test::dense_pagerank(g, 0.85, true) : run(g, 1, 1e-14, 5000).rank;
        for (int threads : {1, 2, 5}) {
          const std::string what = test::to_string(c.shape) + " n=" + std::to_string(c.n) +
                                   (directed ? " directed" : " undirected") +
                                   (weighted ? " weighted" : "") +
                                   " threads=" + std::to_string(threads);
          const PageRankResult r = run_method(g, threads, method);
          EXPECT_TRUE(r.converged) << what;
          EXPECT_LE(test::l1_distance(r.rank, expect), 1e-9) << what;
          EXPECT_NEAR(sum(r.rank), 1.0, 1e-10) << what;
          EXPECT_EQ(run_method(g, threads, method).rank, r.rank) << what << ": not deterministic";
        }
      }
}

// The block Gauss-Seidel sweep reaches the same fixed point on every shape,
// with sinks, weights and both directions (a block per thread).
TEST(PageRank, GaussSeidelReachesTheSameRanks) {
  const ShapeCase cases[] = {{GraphShape::erdos_renyi, 400, 1.5}, {GraphShape::power_law, 600, 4},
                             {GraphShape::star, 200, 1},          {GraphShape::chain, 150, 1},
                             {GraphShape::disconnected, 500, 3},  {GraphShape::no_sinks, 1000, 2}};
  expect_same_fixed_point(PageRankMethod::gauss_seidel, cases, {true, false}, 900);
}

// On a path whose ids follow it (a road, a mesh in a local order) a sweep
// carries rank along the whole block in one pass: fewer iterations to the
// same tolerance than the Jacobi iteration, at every thread count, and
// ranks within a few tolerances of Jacobi's.
TEST(PageRank, GaussSeidelNeedsFewerIterationsWhereIdsAreLocal) {
  const Graph path = test::random_graph(GraphShape::chain, 20000, 1, false, false, 5);
  const PageRankResult jacobi = run(path, 2, 1e-9);
  for (int threads : {1, 2, 4}) {
    const PageRankResult gs = run_gauss_seidel(path, threads, 1e-9);
    EXPECT_TRUE(gs.converged);
    EXPECT_LT(gs.iterations, jacobi.iterations) << "threads=" << threads;
    EXPECT_LE(test::l1_distance(gs.rank, jacobi.rank), 1e-7) << "threads=" << threads;
  }
}

// The Chebyshev-accelerated iteration reaches the same fixed point on every
// undirected shape, with isolated vertices (the dangling term) and weights,
// also on graphs past the size where the pass runs in parallel parts.
TEST(PageRank, ChebyshevReachesTheSameRanks) {
  const ShapeCase cases[] = {
      {GraphShape::erdos_renyi, 400, 1.5},  {GraphShape::power_law, 600, 4},
      {GraphShape::star, 200, 1},           {GraphShape::chain, 150, 1},
      {GraphShape::disconnected, 500, 3},   {GraphShape::no_sinks, 1000, 2},
      {GraphShape::erdos_renyi, 20000, 4},  {GraphShape::power_law, 20000, 6},
      {GraphShape::disconnected, 20000, 3}, {GraphShape::chain, 30000, 1}};
  expect_same_fixed_point(PageRankMethod::chebyshev, cases, {false}, 1900);
}

// Where Jacobi is slow (a long path: P's eigenvalues reach ±1, so the
// error falls by only d an iteration) the recurrence takes under half of its
// iterations to the same tolerance; with many small components, fewer; on
// an expander, where Jacobi converges fast, it keeps to Jacobi's steps and
// takes no more. Its ranks are within tol of the fixed point, as Jacobi's.
TEST(PageRank, ChebyshevCutsTheIterationsWhereJacobiIsSlow) {
  for (GraphShape shape : {GraphShape::chain, GraphShape::disconnected}) {
    const Graph g =
        test::random_graph(shape, 20000, shape == GraphShape::chain ? 1 : 3, false, false, 77);
    const std::vector<double> exact = run(g, 2, 1e-15, 5000).rank;
    for (double tol : {1e-6, 1e-10}) {
      const PageRankResult jacobi = run(g, 2, tol);
      const PageRankResult cheb = run_chebyshev(g, 2, tol);
      const std::string what = test::to_string(shape) + " tol=" + std::to_string(tol) +
                               " iterations " + std::to_string(cheb.iterations) + " / " +
                               std::to_string(jacobi.iterations);
      EXPECT_TRUE(cheb.converged) << what;
      if (shape == GraphShape::chain)
        EXPECT_LT(2 * cheb.iterations, jacobi.iterations) << what;
      else
        EXPECT_LT(cheb.iterations, jacobi.iterations) << what;
      EXPECT_LE(test::l1_distance(cheb.rank, exact), tol) << what;
      EXPECT_LE(test::l1_distance(jacobi.rank, exact), tol) << what;
    }
  }
  const Graph expander = test::random_graph(GraphShape::no_sinks, 20000, 16, false, false, 78);
  EXPECT_LE(run_chebyshev(expander, 2, 1e-8).iterations, run(expander, 2, 1e-8).iterations);
}

// Chebyshev on a directed graph is refused on either device (by the driver,
// before a device is asked for: here also without a GPU), Gauss–Seidel on
// the GPU.
TEST(PageRank, ChebyshevRefusesDirectedGraphsGaussSeidelTheGpu) {
  const Graph directed = test::random_graph(GraphShape::erdos_renyi, 50, 3, true, false, 5);
  EXPECT_THROW(run_chebyshev(directed, 2), ArgumentError);
  Context gpu(Device::cuda, 1);
  PageRankOptions o;
  o.method = PageRankMethod::chebyshev;
  EXPECT_THROW(pagerank(gpu, directed, o), ArgumentError);
  const Graph undirected = test::random_graph(GraphShape::erdos_renyi, 50, 3, false, false, 5);
  o.method = PageRankMethod::gauss_seidel;
  EXPECT_THROW(pagerank(gpu, undirected, o), ArgumentError);
}

// automatic runs Chebyshev on an undirected graph and Jacobi
// on a directed one: the ranks and iterations of that method asked for by
// name, and the result says which ran. An explicit method is reported as
// itself.
TEST(PageRank, AutomaticIsChebyshevOnUndirectedGraphsJacobiOnDirected) {
  EXPECT_EQ(PageRankOptions{}.method, PageRankMethod::automatic);  // the default
  Context ctx(Device::cpu, 2);
  std::uint64_t seed = 40;
  for (bool directed : {true, false})
    for (GraphShape shape : {GraphShape::disconnected, GraphShape::chain}) {
      const Graph g = test::random_graph(shape, 5000, 3, directed, false, ++seed);
      const std::string what = test::to_string(shape) + (directed ? " directed" : " undirected");
      PageRankOptions o;
      o.tol = 1e-10;
      o.max_iter = 1000;
      o.method = PageRankMethod::automatic;
      const PageRankResult automatic = pagerank(ctx, g, o);
      const PageRankMethod want = directed ? PageRankMethod::jacobi : PageRankMethod::chebyshev;
      EXPECT_EQ(automatic.method, want) << what;
      o.method = want;
      const PageRankResult named = pagerank(ctx, g, o);
      EXPECT_EQ(named.method, want) << what;
      EXPECT_EQ(automatic.iterations, named.iterations) << what;
      EXPECT_EQ(automatic.rank, named.rank) << what;
    }
  const Graph undirected = test::random_graph(GraphShape::power_law, 500, 4, false, false, 3);
  for (PageRankMethod m :
       {PageRankMethod::jacobi, PageRankMethod::gauss_seidel, PageRankMethod::chebyshev})
    EXPECT_EQ(run_method(undirected, 2, m).method, m) << to_string(m);
}

// The names are the command line's --method values, one per method, each
// naming its method back.
TEST(PageRank, MethodNamesRoundTrip) {
  const PageRankMethod all[] = {PageRankMethod::automatic, PageRankMethod::jacobi,
                                PageRankMethod::gauss_seidel, PageRankMethod::chebyshev};
  EXPECT_STREQ(to_string(PageRankMethod::automatic), "auto");
  EXPECT_STREQ(to_string(PageRankMethod::jacobi), "jacobi");
  EXPECT_STREQ(to_string(PageRankMethod::gauss_seidel), "gauss-seidel");
  EXPECT_STREQ(to_string(PageRankMethod::chebyshev), "chebyshev");
  for (PageRankMethod m : all) {
    const std::string name = to_string(m);
    int named = 0;
    for (PageRankMethod other : all)
      if (name == to_string(other)) {
        EXPECT_EQ(other, m) << name;
        ++named;
      }
    EXPECT_EQ(named, 1) << name;
  }
}

TEST(PageRank, NetworkxValues) {
  // 0->1, 1->1 (self loop), 1->2, 2->0, 2->1, 3->2; 4 isolated (dangling).
  Coo<double> coo;
  coo.n_rows = coo.n_cols = 5;
  coo.row = {0, 1, 1, 2, 2, 3};
  coo.col = {1, 1, 2, 0, 1, 2};
  const Graph g(Csr<double>::from_coo(coo), {}, true, false);
  const std::vector<double> nx = {0.15414089210090737, 0.4959315658898729, 0.2776383853827138,
                                  0.03614457831325302, 0.03614457831325302};
  EXPECT_LE(test::l1_distance(run(g, 2).rank, nx), 1e-10);

  // Weighted: 0->1 (2), 0->2 (1), 1->2 (0.5), 2->0 (3), 2->3 (1); 3 dangling.
  Coo<double> w;
  w.n_rows = w.n_cols = 4;
  w.row = {0, 0, 1, 2, 2};
  w.col = {1, 2, 2, 0, 3};
  w.val = {2.0, 1.0, 0.5, 3.0, 1.0};
  const Graph gw(Csr<double>::from_coo(w), {}, true, true);
  const std::vector<double> nxw = {0.28639559332427983, 0.22961474440404778, 0.3436418590389422,
                                   0.1403478032327301};
  EXPECT_LE(test::l1_distance(run(gw, 1).rank, nxw), 1e-10);
}

// Negative weights are not transition probabilities: refused, naming the
// edge, unless the weights are ignored.
TEST(PageRank, RefusesNegativeWeights) {
  const Graph g = test::weighted_graph(3, {0, 0, 1, 2}, {1, 2, 0, 0}, {1.0, -0.5, 1.0, 1.0});
  Context ctx(Device::cpu, 2);
  try {
    (void)pagerank(ctx, g, {});
    FAIL() << "a negative weight was ranked";
  } catch (const ArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("0 -> 2"), std::string::npos) << e.what();
  }
  PageRankOptions o;
  o.use_weights = false;
  EXPECT_TRUE(pagerank(ctx, g, o).converged);
}

// Weights whose sum overflows, and a weight whose reciprocal does: never a
// rank that is not a number.
TEST(PageRank, NonFiniteRanksAreAnErrorNamingTheIteration) {
  Context ctx(Device::cpu, 1);
  const Graph overflow = test::weighted_graph(2, {0, 0, 1}, {0, 1, 0}, {1e308, 1e308, 1.0});
  EXPECT_THROW((void)pagerank(ctx, overflow, {}), ArgumentError);
  const Graph denormal = test::weighted_graph(2, {0, 1}, {1, 0}, {1e-320, 1.0});
  try {
    (void)pagerank(ctx, denormal, {});
    FAIL() << "ranks past the range of a double were returned";
  } catch (const ArgumentError&) {
    FAIL() << "the weights themselves are valid";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("iteration 1"), std::string::npos) << e.what();
  }
}

// The iteration under way and the share of its rows done, filled during
// the run for a progress display.
TEST(PageRank, FillsStepProgress) {
  const Graph g = test::random_graph(GraphShape::power_law, 5000, 4, true, false, 3);
  Context ctx(Device::cpu, 2);
  StepProgress step;
  PageRankOptions o;
  o.progress = &step;
  int checked = 0;
  o.on_iteration = [&](const IterationInfo& it) {
    EXPECT_EQ(step.iteration.load(), it.iteration);
    EXPECT_EQ(step.fraction.load(), 1.0);
    ++checked;
    return true;
  };
  const PageRankResult r = pagerank(ctx, g, o);
  EXPECT_EQ(checked, r.iterations);
}

TEST(PageRank, IgnoringWeightsEqualsUnweighted) {
  const Graph gw = test::random_graph(GraphShape::power_law, 800, 4, true, true, 9);
  const Graph gu(
      Csr<double>(gw.adj().n_rows(), gw.adj().n_cols(), gw.adj().row_ptr(), gw.adj().col_idx(), {}),
      {}, true, false);
  Context ctx(Device::cpu, 2);
  PageRankOptions o;
  o.use_weights = false;
  const PageRankResult a = pagerank(ctx, gw, o);
  const PageRankResult b = pagerank(ctx, gu, o);
  ASSERT_EQ(a.rank.size(), b.rank.size());
  EXPECT_EQ(std::memcmp(a.rank.data(), b.rank.data(), a.rank.size() * sizeof(double)), 0);
  o.use_weights = true;
  EXPECT_GT(test::l1_distance(pagerank(ctx, gw, o).rank, a.rank), 1e-6);
}

TEST(PageRank, DeterministicBits) {
  const Graph g = test::random_graph(GraphShape::power_law, 30000, 8, true, true, 21);
  for (int threads : {1, 2}) {
    const PageRankResult a = run(g, threads, 1e-10);
    const PageRankResult b = run(g, threads, 1e-10);
    ASSERT_EQ(a.iterations, b.iterations);
    ASSERT_EQ(a.rank.size(), b.rank.size());
    EXPECT_EQ(std::memcmp(a.rank.data(), b.rank.data(), a.rank.size() * sizeof(double)), 0)
        << "threads=" << threads;
    EXPECT_EQ(a.residual, b.residual);
  }
}

TEST(PageRank, EmptyAndSingleVertex) {
  Context ctx(Device::cpu, 2);
  const PageRankResult e = pagerank(ctx, Graph());
  EXPECT_TRUE(e.rank.empty());
  EXPECT_EQ(e.iterations, 0);
  Coo<double> one;
  one.n_rows = one.n_cols = 1;
  const Graph g1(Csr<double>::from_coo(one), {}, true, false);
  const PageRankResult r = pagerank(ctx, g1);
  ASSERT_EQ(r.rank.size(), 1u);
  EXPECT_DOUBLE_EQ(r.rank[0], 1.0);
  EXPECT_TRUE(r.converged);
}

TEST(PageRank, CallbackAndIterationLimit) {
  const Graph g = test::random_graph(GraphShape::erdos_renyi, 1000, 3, true, false, 4);
  Context ctx(Device::cpu, 2);
  PageRankOptions o;
  o.tol = 1e-14;
  int calls = 0;
  double last = std::numeric_limits<double>::infinity();
  o.on_iteration = [&](const IterationInfo& info) {
    ++calls;
    EXPECT_EQ(info.iteration, calls);
    EXPECT_LT(info.residual, last * 1.0001);
    last = info.residual;
    return calls < 4;
  };
  const PageRankResult r = pagerank(ctx, g, o);
  EXPECT_EQ(calls, 4);
  EXPECT_EQ(r.iterations, 4);
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.residual, last);

  o.on_iteration = nullptr;
  o.max_iter = 7;
  const PageRankResult m = pagerank(ctx, g, o);
  EXPECT_EQ(m.iterations, 7);
  EXPECT_FALSE(m.converged);
  EXPECT_NEAR(sum(m.rank), 1.0, 1e-12);
}

TEST(PageRank, RejectsBadOptions) {
  const Graph g = test::random_graph(GraphShape::chain, 10, 1, true, false, 1);
  Context ctx(Device::cpu, 1);
  auto with = [](auto f) {
    PageRankOptions o;
    f(o);
    return o;
  };
  EXPECT_THROW(pagerank(ctx, g, with([](auto& o) { o.damping = 1.0; })), ArgumentError);
  EXPECT_THROW(pagerank(ctx, g, with([](auto& o) { o.damping = -0.1; })), ArgumentError);
  EXPECT_THROW(pagerank(ctx, g, with([](auto& o) { o.damping = std::nan(""); })), ArgumentError);
  EXPECT_THROW(pagerank(ctx, g, with([](auto& o) { o.tol = 0; })), ArgumentError);
  EXPECT_THROW(pagerank(ctx, g, with([](auto& o) { o.max_iter = 0; })), ArgumentError);
  EXPECT_NO_THROW(pagerank(ctx, g, with([](auto& o) { o.damping = 0; })));
}

// A positive start of no pattern PageRank could follow by accident.
std::vector<double> random_start(vertex_t n, std::uint64_t seed) {
  test::Rng rng(seed);
  std::vector<double> s(static_cast<std::size_t>(n));
  for (double& x : s) x = rng.uniform(0.1, 10.0) * rng.uniform(0.1, 10.0);
  return s;
}

// One iteration from a given start is the formula applied once to it (the
// oracle pushes over A; the library pulls over Aᵀ), on graphs with sinks,
// weighted and not; a zero start value is allowed.
TEST(PageRank, OneIterationFromAStartIsTheFormula) {
  std::uint64_t seed = 900;
  for (auto shape :
       {GraphShape::erdos_renyi, GraphShape::power_law, GraphShape::star, GraphShape::disconnected})
    for (bool weighted : {false, true}) {
      const Graph g = test::random_graph(shape, 700, 3, true, weighted, ++seed);
      std::vector<double> start = random_start(g.n_vertices(), seed);
      start[3] = 0.0;
      const std::vector<double> want = test::sparse_pagerank(g, 0.85, true, 0, 1, start);
      for (int threads : {1, 2}) {
        Context ctx(Device::cpu, threads);
        PageRankOptions o;
        o.max_iter = 1;
        o.start = start;
        const PageRankResult r = pagerank(ctx, g, o);
        const std::string what = test::to_string(shape) + (weighted ? " weighted" : "") +
                                 " threads=" + std::to_string(threads);
        EXPECT_EQ(r.iterations, 1) << what;
        EXPECT_LE(test::l1_distance(r.rank, want), 1e-14) << what;
        // The residual is the step from the (scaled) start.
        const double total = sum(start);
        double step = 0;
        for (std::size_t v = 0; v < start.size(); ++v)
          step += std::abs(r.rank[v] - start[v] / total);
        EXPECT_NEAR(r.residual, step, 1e-13) << what;
      }
    }
}

// Started from its own answer, PageRank stops after one iteration, at the
// same ranks; a start off by a factor is the same start.
TEST(PageRank, WarmStartFromTheAnswerConvergesAtOnce) {
  const Graph g = test::random_graph(GraphShape::power_law, 3000, 5, true, true, 17);
  Context ctx(Device::cpu, 2);
  PageRankOptions o;
  o.tol = 1e-12;
  const PageRankResult cold = pagerank(ctx, g, o);
  ASSERT_TRUE(cold.converged);
  ASSERT_GT(cold.iterations, 10);
  std::vector<double> scaled = cold.rank;  // the same start, times 3
  for (double& x : scaled) x *= 3.0;
  for (const std::vector<double>* start :
       {&cold.rank, static_cast<const std::vector<double>*>(&scaled)}) {
    o.start = *start;
    const PageRankResult warm = pagerank(ctx, g, o);
    EXPECT_EQ(warm.iterations, 1);
    EXPECT_TRUE(warm.converged);
    EXPECT_LE(test::l1_distance(warm.rank, cold.rank), 1e-12);
  }
  // A start near the answer needs fewer iterations than the uniform one.
  std::vector<double> near = cold.rank;
  for (std::size_t v = 0; v < near.size(); v += 7) near[v] *= 1.01;
  o.start = near;
  EXPECT_LT(pagerank(ctx, g, o).iterations, cold.iterations);
}

TEST(PageRank, RejectsABadStart) {
  const Graph g = test::random_graph(GraphShape::chain, 10, 1, true, false, 1);
  Context ctx(Device::cpu, 1);
  const auto message = [&](std::vector<double> start) {
    PageRankOptions o;
    o.start = start;
    try {
      pagerank(ctx, g, o);
    } catch (const ArgumentError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message(std::vector<double>(9, 1.0)).find("9 values for a graph of 10 vertices"),
            std::string::npos);
  std::vector<double> s(10, 1.0);
  s[4] = -1;
  EXPECT_NE(message(s).find("vertex 4"), std::string::npos) << message(s);
  s[4] = std::nan("");
  EXPECT_NE(message(s).find("vertex 4"), std::string::npos) << message(s);
  s[4] = std::numeric_limits<double>::infinity();
  EXPECT_NE(message(s).find("vertex 4"), std::string::npos) << message(s);
  EXPECT_NE(message(std::vector<double>(10, 0.0)).find("not all be 0"), std::string::npos);
  EXPECT_NE(message(std::vector<double>(10, 1e308)).find("not all be 0"), std::string::npos);
}

TEST(PageRank, AnOrderingOnTheCpuGivesTheSameRanksByInputVertex) {
  Context ctx(Device::cpu, 2);
  std::uint64_t seed = 300;
  for (auto shape : {test::GraphShape::power_law, test::GraphShape::disconnected})
    for (bool directed : {true, false}) {
      const Graph g = test::random_graph(shape, 2000, 5.0, directed, true, seed++);
      PageRankOptions o;
      o.tol = 1e-13;
      o.method = PageRankMethod::jacobi;  // ranks within rounding of each other
      const PageRankResult plain = pagerank(ctx, g, o);
      EXPECT_EQ(plain.reorder, Reorder::none);  // automatic is none on the CPU
      std::vector<double> start(static_cast<std::size_t>(g.n_vertices()));
      for (std::size_t v = 0; v < start.size(); ++v) start[v] = static_cast<double>(v % 5);
      PageRankOptions s = o;
      s.start = start;
      const PageRankResult plain_start = pagerank(ctx, g, s);
      for (Reorder how :
           {Reorder::degree, Reorder::hubsort, Reorder::dbg, Reorder::rcm, Reorder::rabbit}) {
        o.reorder = s.reorder = how;
        const PageRankResult r = pagerank(ctx, g, o);
        EXPECT_EQ(r.reorder, how);
        EXPECT_GE(r.reorder_seconds, 0.0);
        double d = 0, ds = 0;
        const PageRankResult rs = pagerank(ctx, g, s);
        for (std::size_t v = 0; v < start.size(); ++v) {
          d += std::abs(r.rank[v] - plain.rank[v]);
          ds += std::abs(rs.rank[v] - plain_start.rank[v]);
        }
        EXPECT_LT(d, 1e-12) << to_string(how);
        EXPECT_LT(ds, 1e-12) << to_string(how) << " from a start";
      }
    }
}

}  // namespace
}  // namespace graphrun
