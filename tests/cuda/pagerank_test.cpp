// PageRank on the GPU against the CPU version: random graphs of several
// shapes (directed and undirected, weighted and not, with dangling
// vertices), every SpMV format forced in turn, edge cases, and the shared
// real graphs. The two compute the same function in double precision; only
// the summation order differs, so ranks agree far inside the 1e-6 (L1) the
// command line promises. The comparisons pass by pass run Jacobi's
// iteration; Chebyshev's, whose ω follows the L1 changes and so their
// rounding, is held to the fixed point and to the CPU's iteration count.
// Skips where there is no CUDA backend or no GPU.
#include "graphrun/algorithms/pagerank.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/spmv_format.hpp"
#include "graphrun/io/load.hpp"
#include "support/random_graphs.hpp"
#include "support/shared_graphs.hpp"

namespace graphrun {
namespace {

#if defined(GRAPHRUN_HAVE_CUDA)

namespace fs = std::filesystem;

double l1(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += std::abs(a[i] - b[i]);
  return s;
}

// A run in batches and the same run with a callback (batches of one, the
// callback called `calls` times): the same iterations, stop and ranks, bit
// for bit.
void expect_same_run(const PageRankResult& batched, const PageRankResult& one_by_one, int calls,
                     const std::string& where) {
  EXPECT_EQ(batched.iterations, one_by_one.iterations) << where;
  EXPECT_EQ(calls, one_by_one.iterations) << where;
  EXPECT_EQ(batched.converged, one_by_one.converged) << where;
  EXPECT_EQ(batched.residual, one_by_one.residual) << where;
  ASSERT_EQ(batched.rank.size(), one_by_one.rank.size()) << where;
  EXPECT_EQ(std::memcmp(batched.rank.data(), one_by_one.rank.data(),
                        batched.rank.size() * sizeof(double)),
            0)
      << where;
}

class CudaPageRank : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }
  Context cpu_{Device::cpu, 2};
  Context gpu_{Device::cuda};
};

// GPU and CPU on g with options o: same iterations (the residuals differ by
// rounding only, so at most one apart), ranks within `bound` in L1.
// Returns false when an explicitly requested format refused the matrix.
bool expect_same(Context& cpu, Context& gpu, const Graph& g, const PageRankOptions& o,
                 const std::string& where, double bound = 1e-9) {
  const PageRankResult want = pagerank(cpu, g, o);
  PageRankResult got;
  try {
    got = pagerank(gpu, g, o);
  } catch (const FormatError& e) {
    // Only ELL and SELL refuse a matrix (padding past their limits);
    // automatic falls back.
    EXPECT_TRUE(o.format == SpmvFormat::ell || o.format == SpmvFormat::sell)
        << where << ": " << e.what();
    return false;
  }
  EXPECT_NE(got.format, SpmvFormat::automatic) << where;
  if (o.format != SpmvFormat::automatic) {
    EXPECT_EQ(got.format, o.format) << where;
  }
  EXPECT_LE(std::abs(got.iterations - want.iterations), 1) << where;
  EXPECT_EQ(got.converged, want.converged) << where;
  EXPECT_GE(got.compute_seconds, 0.0) << where;
  EXPECT_LE(got.compute_seconds, got.seconds) << where;
  EXPECT_EQ(got.rank.size(), want.rank.size()) << where;
  if (got.rank.size() != want.rank.size()) return true;
  if (got.iterations == want.iterations) {
    EXPECT_LE(l1(got.rank, want.rank), bound) << where;
  }
  if (!got.rank.empty()) {
    EXPECT_NEAR(std::accumulate(got.rank.begin(), got.rank.end(), 0.0), 1.0, 1e-9) << where;
  }
  return true;
}

const test::GraphShape kShapes[] = {test::GraphShape::erdos_renyi,  test::GraphShape::power_law,
                                    test::GraphShape::chain,        test::GraphShape::star,
                                    test::GraphShape::disconnected, test::GraphShape::no_sinks};

// As on the CPU: negative weights refused before the upload, and ranks that
// leave the range of a double (a weight whose reciprocal overflows) an error
// naming the iteration, in every format.
TEST_F(CudaPageRank, NegativeWeightsAndNonFiniteRanksAreErrors) {
  const Graph negative = test::weighted_graph(3, {0, 0, 1, 2}, {1, 2, 0, 0}, {1.0, -0.5, 1.0, 1.0});
  EXPECT_THROW((void)pagerank(gpu_, negative, {}), ArgumentError);
  const Graph denormal = test::weighted_graph(2, {0, 1}, {1, 0}, {1e-320, 1.0});
  for (SpmvFormat f : {SpmvFormat::automatic, SpmvFormat::coo, SpmvFormat::csr_warp}) {
    PageRankOptions o;
    o.format = f;
    try {
      (void)pagerank(gpu_, denormal, o);
      ADD_FAILURE() << to_string(f) << ": ranks past the range of a double were returned";
    } catch (const ArgumentError& e) {
      ADD_FAILURE() << to_string(f) << ": the weights are valid: " << e.what();
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("iteration 1"), std::string::npos) << e.what();
    }
  }
}

TEST_F(CudaPageRank, RandomGraphsMatchCpu) {
  std::uint64_t seed = 1;
  for (auto shape : kShapes)
    for (bool directed : {true, false})
      for (bool weighted : {false, true}) {
        const Graph g = test::random_graph(shape, 1500, 6.0, directed, weighted, seed++);
        PageRankOptions o;
        o.tol = 1e-12;
        o.max_iter = 300;
        o.method = PageRankMethod::jacobi;
        const std::string where = test::to_string(shape) +
                                  (directed ? " directed" : " undirected") +
                                  (weighted ? " weighted" : "");
        expect_same(cpu_, gpu_, g, o, where);
        o.use_weights = false;
        expect_same(cpu_, gpu_, g, o, where + " --unweighted");
      }
}

// Without a callback the iterations are queued in batches and stopped on
// the device; with one, each waits for the host. Both run the same passes:
// the same iterations, residual and ranks to the bit, in every format (the
// fused csr-thread pass and the others), stopping at tol or at max_iter, and
// with a start vector.
TEST_F(CudaPageRank, BatchedIterationsEqualOneAtATime) {
  std::uint64_t seed = 40;
  for (auto shape : {test::GraphShape::power_law, test::GraphShape::chain}) {
    const Graph g = test::random_graph(shape, 3000, 4.0, true, true, seed++);
    for (SpmvFormat f : {SpmvFormat::automatic, SpmvFormat::csr_thread, SpmvFormat::csr_bins,
                         SpmvFormat::coo, SpmvFormat::merge_path}) {
      for (const auto& [tol, max_iter] : {std::pair{1e-10, 1000}, std::pair{1e-6, 100},
                                          std::pair{1e-14, 7}, std::pair{1e-3, 1}}) {
        PageRankOptions o;
        o.tol = tol;
        o.max_iter = max_iter;
        o.format = f;
        StepProgress step;
        o.progress = &step;
        const PageRankResult batched = pagerank(gpu_, g, o);
        int calls = 0;
        o.on_iteration = [&](const IterationInfo&) { return ++calls > 0; };
        const PageRankResult one_by_one = pagerank(gpu_, g, o);
        const std::string where = test::to_string(shape) + " " + std::string(to_string(f)) +
                                  " tol " + std::to_string(tol) + " max_iter " +
                                  std::to_string(max_iter);
        expect_same_run(batched, one_by_one, calls, where);
        EXPECT_EQ(step.residual.load(), batched.residual) << where;
      }
    }
  }
}

TEST_F(CudaPageRank, EveryFormatMatchesCpu) {
  for (auto shape :
       {test::GraphShape::power_law, test::GraphShape::disconnected, test::GraphShape::star}) {
    for (bool directed : {true, false}) {
      const Graph g = test::random_graph(shape, 2000, 5.0, directed, directed, 77);
      for (SpmvFormat f : all_spmv_formats()) {
        PageRankOptions o;
        o.tol = 1e-12;
        o.max_iter = 300;
        o.method = PageRankMethod::jacobi;
        o.format = f;
        const std::string where =
            test::to_string(shape) + (directed ? " directed " : " ") + std::string(to_string(f));
        expect_same(cpu_, gpu_, g, o, where);
      }
    }
  }
}

TEST_F(CudaPageRank, DefaultOptionsWithinTheStatedTolerance) {
  const Graph g = test::random_graph(test::GraphShape::power_law, 5000, 8.0, true, false, 5);
  expect_same(cpu_, gpu_, g, PageRankOptions{}, "defaults", 1e-6);
}

TEST_F(CudaPageRank, TwoRunsAreBitIdentical) {
  const Graph g = test::random_graph(test::GraphShape::power_law, 4000, 8.0, true, true, 9);
  PageRankOptions o;
  o.tol = 1e-12;
  const PageRankResult a = pagerank(gpu_, g, o), b = pagerank(gpu_, g, o);
  ASSERT_EQ(a.rank.size(), b.rank.size());
  EXPECT_EQ(a.iterations, b.iterations);
  EXPECT_EQ(std::memcmp(a.rank.data(), b.rank.data(), a.rank.size() * sizeof(double)), 0);
}

// The kernels primed on another thread while a run goes on: every format's
// run is made, and the run beside them gives the ranks of a run alone, bit
// for bit. Set beforehand, the stop flag leaves nothing to do.
TEST_F(CudaPageRank, PrimingBesideARunLeavesItsRanksBitForBit) {
  const Graph g = test::random_graph(test::GraphShape::power_law, 20000, 8.0, true, true, 21);
  PageRankOptions o;
  o.tol = 1e-12;
  const PageRankResult alone = pagerank(gpu_, g, o);
  int runs = -1;
  std::thread primer([&runs] { runs = prime_pagerank_kernels(0); });
  const PageRankResult beside = pagerank(gpu_, g, o);
  primer.join();
  // automatic, coo, merge-path, hyb, csr-thread, csr-warp; gathers in double and float
  EXPECT_EQ(runs, 12);
  ASSERT_EQ(beside.rank.size(), alone.rank.size());
  EXPECT_EQ(beside.iterations, alone.iterations);
  EXPECT_EQ(std::memcmp(beside.rank.data(), alone.rank.data(), alone.rank.size() * sizeof(double)),
            0);
  EXPECT_EQ(prime_pagerank_kernels(0, SpmvFormat::coo, Reorder::none), 2);
  const std::atomic<bool> stop{true};
  EXPECT_EQ(prime_pagerank_kernels(0, SpmvFormat::automatic, Reorder::automatic, &stop), 0);
}

// The same with Chebyshev's kernels primed (on the priming graph made
// undirected) beside a Chebyshev run: every format's run made, the run's
// ranks bit for bit those of a run alone.
TEST_F(CudaPageRank, ChebyshevPrimingBesideARunLeavesItsRanksBitForBit) {
  const Graph g = test::random_graph(test::GraphShape::power_law, 20000, 8.0, false, false, 22);
  PageRankOptions o;
  o.tol = 1e-12;
  o.method = PageRankMethod::chebyshev;
  const PageRankResult alone = pagerank(gpu_, g, o);
  int runs = -1;
  std::thread primer([&runs] {
    runs = prime_pagerank_kernels(0, SpmvFormat::automatic, Reorder::automatic, nullptr,
                                  PageRankMethod::chebyshev);
  });
  const PageRankResult beside = pagerank(gpu_, g, o);
  primer.join();
  EXPECT_EQ(runs, 12);
  EXPECT_EQ(beside.method, PageRankMethod::chebyshev);
  ASSERT_EQ(beside.rank.size(), alone.rank.size());
  EXPECT_EQ(beside.iterations, alone.iterations);
  EXPECT_EQ(std::memcmp(beside.rank.data(), alone.rank.data(), alone.rank.size() * sizeof(double)),
            0);
  EXPECT_THROW(prime_pagerank_kernels(0, SpmvFormat::coo, Reorder::none, nullptr,
                                      PageRankMethod::gauss_seidel),
               ArgumentError);
}

// x gathered in float (PageRankGather::float32) in every format, the fused
// csr-thread pass included, with Jacobi and (undirected) Chebyshev: at the
// default tolerance converged, and at any tolerance the ranks within the
// float copy's share (d / (1 - d) 2^-24) beyond the tolerance's bound of the
// CPU's double ranks, their sum within that share of 1. (Below about 1e-7 the
// float copy's rounding keeps the L1 change from reaching the tolerance.)
// automatic takes float from 2^19 vertices at the default tolerance, double
// below it, at a tighter tolerance, or where asked.
TEST_F(CudaPageRank, FloatGathersWithinTheirBound) {
  const double rounding = 0.85 / 0.15 * std::ldexp(1.0, -24);
  for (auto shape : {test::GraphShape::power_law, test::GraphShape::disconnected})
    for (bool directed : {true, false}) {
      const Graph g = test::random_graph(shape, 3000, 5.0, directed, false, 91);
      PageRankOptions o;
      o.tol = 1e-13;
      o.max_iter = 2000;
      const std::vector<double> want = pagerank(cpu_, g, o).rank;
      for (PageRankMethod method : {PageRankMethod::jacobi, PageRankMethod::chebyshev}) {
        if (method == PageRankMethod::chebyshev && directed) continue;
        for (SpmvFormat f : all_spmv_formats()) {
          for (double tol : {1e-6, 1e-10}) {
            o.tol = tol;
            o.max_iter = 300;
            o.method = method;
            o.format = f;
            o.gather = PageRankGather::float32;
            const std::string where = test::to_string(shape) + (directed ? " directed " : " ") +
                                      to_string(method) + " " + std::string(to_string(f)) +
                                      " tol " + std::to_string(tol);
            PageRankResult got;
            try {
              got = pagerank(gpu_, g, o);
            } catch (const FormatError&) {
              EXPECT_TRUE(f == SpmvFormat::ell || f == SpmvFormat::sell) << where;
              continue;
            }
            EXPECT_TRUE(got.float_gathers) << where;
            if (tol == 1e-6) {
              EXPECT_TRUE(got.converged) << where;
            }
            EXPECT_LE(l1(got.rank, want), 0.85 / 0.15 * tol + rounding) << where;
            EXPECT_NEAR(std::accumulate(got.rank.begin(), got.rank.end(), 0.0), 1.0, rounding)
                << where;
            o.gather = PageRankGather::float64;
            EXPECT_FALSE(pagerank(gpu_, g, o).float_gathers) << where;
          }
        }
      }
    }
  const Graph large =
      test::random_graph(test::GraphShape::power_law, 1 << 19, 4.0, true, false, 92);
  const Graph below =
      test::random_graph(test::GraphShape::power_law, (1 << 19) - 1, 4.0, true, false, 92);
  PageRankOptions defaults;
  EXPECT_TRUE(pagerank(gpu_, large, defaults).float_gathers);
  EXPECT_FALSE(pagerank(gpu_, below, defaults).float_gathers);
  defaults.tol = 1e-7;
  EXPECT_FALSE(pagerank(gpu_, large, defaults).float_gathers);
}

TEST_F(CudaPageRank, EmptyGraph) {
  const Graph g(Csr<double>(), {}, true, false);
  const PageRankResult r = pagerank(gpu_, g);
  EXPECT_TRUE(r.rank.empty());
  EXPECT_TRUE(r.converged);
}

TEST_F(CudaPageRank, EdgelessGraphIsUniform) {
  // Every vertex dangling: all rank is redistributed, r = 1/n after one step.
  const vertex_t n = 7;
  Csr<double> a(n, n, std::vector<offset_t>(n + 1, 0), {}, {});
  const Graph g(std::move(a), {}, true, false);
  const PageRankResult r = pagerank(gpu_, g);
  ASSERT_EQ(r.rank.size(), std::size_t{n});
  for (double x : r.rank) EXPECT_NEAR(x, 1.0 / n, 1e-15);
  EXPECT_TRUE(r.converged);
  EXPECT_EQ(r.iterations, 1);
}

TEST_F(CudaPageRank, DampingZeroIsUniform) {
  const Graph g = test::random_graph(test::GraphShape::power_law, 300, 4.0, true, false, 3);
  PageRankOptions o;
  o.damping = 0.0;
  const PageRankResult r = pagerank(gpu_, g, o);
  for (double x : r.rank) EXPECT_NEAR(x, 1.0 / 300, 1e-15);
}

TEST_F(CudaPageRank, CallbackStopsWhereTheCpuStops) {
  const Graph g = test::random_graph(test::GraphShape::erdos_renyi, 1000, 4.0, true, false, 11);
  PageRankOptions o;
  o.tol = 1e-14;
  std::vector<double> residuals;
  o.on_iteration = [&](const IterationInfo& it) {
    residuals.push_back(it.residual);
    EXPECT_EQ(it.iteration, static_cast<int>(residuals.size()));
    return it.iteration < 3;
  };
  const PageRankResult got = pagerank(gpu_, g, o);
  EXPECT_EQ(got.iterations, 3);
  EXPECT_FALSE(got.converged);
  ASSERT_EQ(residuals.size(), 3u);
  EXPECT_GT(residuals[0], residuals[2]);  // the power iteration contracts
  residuals.clear();
  const PageRankResult want = pagerank(cpu_, g, o);
  EXPECT_LE(l1(got.rank, want.rank), 1e-12);
  EXPECT_NEAR(got.residual, want.residual, 1e-12);
}

// From a given start: one iteration as on the CPU (the same scaled start,
// sums in another order), a warm start from the answer stops at once, and a
// bad start is the CPU's ArgumentError.
TEST_F(CudaPageRank, StartAsOnTheCpu) {
  std::uint64_t seed = 40;
  for (auto shape : kShapes) {
    const Graph g = test::random_graph(shape, 2000, 5.0, true, true, ++seed);
    std::vector<double> start(static_cast<std::size_t>(g.n_vertices()));
    for (std::size_t v = 0; v < start.size(); ++v) start[v] = 1.0 + static_cast<double>(v % 13);
    PageRankOptions o;
    o.max_iter = 1;
    o.start = start;
    const PageRankResult want = pagerank(cpu_, g, o), got = pagerank(gpu_, g, o);
    EXPECT_EQ(got.iterations, 1) << test::to_string(shape);
    EXPECT_LE(l1(got.rank, want.rank), 1e-14) << test::to_string(shape);
    EXPECT_NEAR(got.residual, want.residual, 1e-13) << test::to_string(shape);

    o.max_iter = 300;
    o.tol = 1e-12;
    o.start = {};
    const PageRankResult cold = pagerank(gpu_, g, o);
    ASSERT_TRUE(cold.converged) << test::to_string(shape);
    o.start = cold.rank;
    const PageRankResult warm = pagerank(gpu_, g, o);
    EXPECT_EQ(warm.iterations, 1) << test::to_string(shape);
    EXPECT_LE(l1(warm.rank, cold.rank), 1e-12) << test::to_string(shape);
  }
  const Graph g = test::random_graph(test::GraphShape::chain, 10, 1.0, true, false, 1);
  PageRankOptions o;
  const std::vector<double> short_start(9, 1.0);
  o.start = short_start;
  EXPECT_THROW(pagerank(gpu_, g, o), ArgumentError);
}

TEST_F(CudaPageRank, MaxIterReachedIsNotConverged) {
  const Graph g = test::random_graph(test::GraphShape::power_law, 1000, 4.0, true, false, 13);
  PageRankOptions o;
  o.max_iter = 2;
  const PageRankResult r = pagerank(gpu_, g, o);
  EXPECT_EQ(r.iterations, 2);
  EXPECT_FALSE(r.converged);
}

TEST_F(CudaPageRank, BadOptionsAreArgumentErrors) {
  const Graph g = test::random_graph(test::GraphShape::chain, 10, 1.0, true, false, 1);
  PageRankOptions o;
  o.damping = 1.0;
  EXPECT_THROW(pagerank(gpu_, g, o), ArgumentError);
}

TEST_F(CudaPageRank, MissingDeviceIdIsADeviceError) {
  Context nowhere(Device::cuda, 0, 1 << 20);
  const Graph g = test::random_graph(test::GraphShape::chain, 10, 1.0, true, false, 1);
  EXPECT_THROW(pagerank(nowhere, g), DeviceError);
}

using test::graph_files;

TEST_F(CudaPageRank, SharedDatasetsLarge) {
  const auto files = graph_files(GRAPHRUN_DATASETS);
  if (files.empty()) GTEST_SKIP() << "shared datasets not present";
  int checked = 0;
  for (const fs::path& file : files) {
    Graph g;
    try {
      g = io::load_graph(file.string());
    } catch (const InputError&) {
      continue;  // not a graph with numeric ids
    }
    const auto& v = g.adj().values();
    PageRankOptions o;
    o.tol = 1e-10;
    o.max_iter = 1000;
    o.method = PageRankMethod::jacobi;
    // Negative weights (some SuiteSparse matrices) make no Markov chain.
    o.use_weights = std::none_of(v.begin(), v.end(), [](double x) { return x < 0; });
    expect_same(cpu_, gpu_, g, o, file.filename().string());
    ++checked;
  }
  EXPECT_GT(checked, 10);
}

TEST_F(CudaPageRank, LargePowerLawEveryFormat) {
  const Graph g = test::random_graph(test::GraphShape::power_law, 200'000, 10.0, true, false, 21);
  for (SpmvFormat f : all_spmv_formats()) {
    PageRankOptions o;
    o.format = f;
    expect_same(cpu_, gpu_, g, o, std::string(to_string(f)), 1e-6);
  }
}

// ---- Chebyshev semi-iteration (PageRankMethod::chebyshev)

// Undirected graphs where the recurrence starts early (a path, a grid,
// several components: error modes at ±d) and where it starts late or never
// (random graphs, expanders), unweighted and weighted.
struct ChebyshevCase {
  std::string name;
  Graph g;
};

std::vector<ChebyshevCase> chebyshev_cases() {
  using test::GraphShape;
  std::vector<ChebyshevCase> cases;
  cases.push_back(
      {"erdos_renyi", test::random_graph(GraphShape::erdos_renyi, 3000, 4.0, false, false, 501)});
  cases.push_back(
      {"power_law", test::random_graph(GraphShape::power_law, 3000, 6.0, false, false, 502)});
  cases.push_back({"disconnected (four components, isolated vertices)",
                   test::random_graph(GraphShape::disconnected, 3000, 3.0, false, false, 503)});
  cases.push_back({"chain", test::random_graph(GraphShape::chain, 3000, 1.0, false, false, 504)});
  cases.push_back({"grid 60x50", test::grid_graph(60, 50)});
  cases.push_back({"power_law weighted",
                   test::random_graph(GraphShape::power_law, 3000, 6.0, false, true, 505)});
  cases.push_back({"disconnected weighted",
                   test::random_graph(GraphShape::disconnected, 3000, 3.0, false, true, 506)});
  return cases;
}

// Jacobi's ranks on the CPU to an L1 change below 1e-14: the fixed point, to
// within 6e-14.
std::vector<double> fixed_point(Context& cpu, const Graph& g) {
  PageRankOptions o;
  o.method = PageRankMethod::jacobi;
  o.tol = 1e-14;
  o.max_iter = 5000;
  const PageRankResult r = pagerank(cpu, g, o);
  EXPECT_TRUE(r.converged);
  return r.rank;
}

// Chebyshev on the GPU reaches Jacobi's fixed point: the ranks are the Jacobi
// step whose L1 change met tol, within d / (1 - d) tol of it (4x that here,
// for rounding), in every SpMV format (csr-thread runs the fused pass) and
// under a vertex ordering (the ranks rebuilt, then scattered back); in the
// CPU Chebyshev's iterations give or take 2 (ω is picked from L1 changes
// that differ from the CPU's in rounding).
TEST_F(CudaPageRank, ChebyshevReachesTheFixedPointInEveryFormat) {
  constexpr double tol = 1e-10;
  const double bound = 4 * 0.85 / (1 - 0.85) * tol;
  std::vector<std::pair<SpmvFormat, Reorder>> runs;
  for (SpmvFormat f : all_spmv_formats()) runs.emplace_back(f, Reorder::none);
  runs.emplace_back(SpmvFormat::automatic, Reorder::degree);
  runs.emplace_back(SpmvFormat::csr_thread, Reorder::degree);
  runs.emplace_back(SpmvFormat::csr_bins, Reorder::degree);
  for (const ChebyshevCase& c : chebyshev_cases()) {
    const std::vector<double> exact = fixed_point(cpu_, c.g);
    PageRankOptions o;
    o.method = PageRankMethod::chebyshev;
    o.tol = tol;
    o.max_iter = 1000;
    const PageRankResult cpu = pagerank(cpu_, c.g, o);
    ASSERT_TRUE(cpu.converged) << c.name;
    for (const auto& [format, how] : runs) {
      o.format = format;
      o.reorder = how;
      const std::string where =
          c.name + " " + std::string(to_string(format)) + " " + std::string(to_string(how));
      PageRankResult got;
      try {
        got = pagerank(gpu_, c.g, o);
      } catch (const FormatError& e) {
        EXPECT_TRUE(format == SpmvFormat::ell || format == SpmvFormat::sell)
            << where << ": " << e.what();
        continue;
      }
      EXPECT_EQ(got.method, PageRankMethod::chebyshev) << where;
      EXPECT_EQ(got.reorder, how) << where;
      EXPECT_TRUE(got.converged) << where;
      EXPECT_LT(got.residual, tol) << where;
      EXPECT_LE(std::abs(got.iterations - cpu.iterations), 2)
          << where << ": " << got.iterations << " iterations, the CPU " << cpu.iterations;
      ASSERT_EQ(got.rank.size(), exact.size()) << where;
      EXPECT_LE(l1(got.rank, exact), bound) << where;
      EXPECT_NEAR(std::accumulate(got.rank.begin(), got.rank.end(), 0.0), 1.0, 1e-9) << where;
    }
  }
}

// csr-bins, the chooser's format for a large skewed graph renumbered by
// degree, on a graph of thousands of its blocks (hubs' blocks first, more
// blocks than any GPU holds at once): the same ranks and iterations run
// after run, and the CPU's to 1e-9, with Jacobi's passes and Chebyshev's
// (to its bound); a directed weighted graph too (dangling vertices, values
// read).
TEST_F(CudaPageRank, CsrBinsLarge) {
  const Graph undirected =
      test::random_graph(test::GraphShape::power_law, 300'000, 8.0, false, false, 31);
  const Graph directed =
      test::random_graph(test::GraphShape::power_law, 300'000, 8.0, true, true, 32);
  for (const auto& [g, method, name] :
       {std::tuple{&undirected, PageRankMethod::jacobi, "undirected jacobi"},
        std::tuple{&undirected, PageRankMethod::chebyshev, "undirected chebyshev"},
        std::tuple{&directed, PageRankMethod::jacobi, "directed weighted jacobi"}}) {
    PageRankOptions o;
    o.tol = 1e-12;
    o.max_iter = 500;
    o.method = method;
    o.format = SpmvFormat::csr_bins;
    o.reorder = Reorder::degree;
    const PageRankResult a = pagerank(gpu_, *g, o), b = pagerank(gpu_, *g, o);
    EXPECT_EQ(a.format, SpmvFormat::csr_bins) << name;
    EXPECT_EQ(a.iterations, b.iterations) << name;
    ASSERT_EQ(a.rank.size(), b.rank.size()) << name;
    EXPECT_EQ(std::memcmp(a.rank.data(), b.rank.data(), a.rank.size() * sizeof(double)), 0) << name;
    if (method == PageRankMethod::jacobi) {
      expect_same(cpu_, gpu_, *g, o, name, 1e-9);
    } else {
      const std::vector<double> want = fixed_point(cpu_, *g);
      EXPECT_LE(l1(a.rank, want), 4.0 * o.damping / (1.0 - o.damping) * o.tol + 1e-12) << name;
    }
  }
}

// Where Jacobi is slow the recurrence cuts the GPU's iterations as it cuts
// the CPU's (ω is set on the device, not left at 0): on a path (eigenvalues
// near ±d) to under half of Jacobi's (the CPU: 12 / 29 at tol 1e-6, 27 / 86
// at 1e-10), with several components to fewer (38 / 52 at 1e-10).
TEST_F(CudaPageRank, ChebyshevCutsTheIterationsWhereJacobiIsSlow) {
  using test::GraphShape;
  for (const auto& [shape, tol] :
       {std::pair{GraphShape::chain, 1e-6}, std::pair{GraphShape::chain, 1e-10},
        std::pair{GraphShape::disconnected, 1e-10}}) {
    const Graph g =
        test::random_graph(shape, 20000, shape == GraphShape::chain ? 1.0 : 3.0, false, false, 77);
    PageRankOptions o;
    o.tol = tol;
    o.max_iter = 1000;
    o.method = PageRankMethod::jacobi;
    const PageRankResult jacobi = pagerank(gpu_, g, o);
    o.method = PageRankMethod::chebyshev;
    const PageRankResult cheb = pagerank(gpu_, g, o);
    const std::string what = test::to_string(shape) + " tol " + std::to_string(tol) + ": " +
                             std::to_string(cheb.iterations) + " iterations, Jacobi " +
                             std::to_string(jacobi.iterations);
    EXPECT_TRUE(cheb.converged) << what;
    if (shape == GraphShape::chain)
      EXPECT_LT(2 * cheb.iterations, jacobi.iterations) << what;
    else
      EXPECT_LT(cheb.iterations, jacobi.iterations) << what;
  }
}

// Batches decide ω on the device; with a callback every pass is a batch of
// one. Both run the same passes with the same ω: the same iterations,
// residual and ranks to the bit, fused (csr-thread) or not, under an
// ordering, stopped at tol or at max_iter in mid-recurrence.
TEST_F(CudaPageRank, ChebyshevBatchedIterationsEqualOneAtATime) {
  std::uint64_t seed = 90;
  for (auto shape : {test::GraphShape::chain, test::GraphShape::disconnected}) {
    const Graph g = test::random_graph(shape, 3000, 3.0, false, true, seed++);
    for (SpmvFormat f : {SpmvFormat::automatic, SpmvFormat::csr_thread, SpmvFormat::csr_bins,
                         SpmvFormat::coo, SpmvFormat::merge_path})
      for (Reorder how : {Reorder::none, Reorder::degree})
        for (const auto& [tol, max_iter] :
             {std::pair{1e-10, 1000}, std::pair{1e-6, 100}, std::pair{1e-14, 25}}) {
          PageRankOptions o;
          o.method = PageRankMethod::chebyshev;
          o.tol = tol;
          o.max_iter = max_iter;
          o.format = f;
          o.reorder = how;
          const PageRankResult batched = pagerank(gpu_, g, o);
          int calls = 0;
          o.on_iteration = [&](const IterationInfo&) { return ++calls > 0; };
          const PageRankResult one_by_one = pagerank(gpu_, g, o);
          const std::string where = test::to_string(shape) + " " + std::string(to_string(f)) + " " +
                                    std::string(to_string(how)) + " tol " + std::to_string(tol) +
                                    " max_iter " + std::to_string(max_iter);
          expect_same_run(batched, one_by_one, calls, where);
        }
  }
}

// As on the CPU: Chebyshev on a directed graph (complex eigenvalues, where
// it diverges) and Gauss–Seidel are refused on the GPU.
TEST_F(CudaPageRank, ChebyshevRefusesADirectedGraph) {
  const Graph directed =
      test::random_graph(test::GraphShape::erdos_renyi, 500, 3.0, true, false, 7);
  PageRankOptions o;
  o.method = PageRankMethod::chebyshev;
  EXPECT_THROW(pagerank(gpu_, directed, o), ArgumentError);
  o.method = PageRankMethod::gauss_seidel;
  const Graph undirected =
      test::random_graph(test::GraphShape::erdos_renyi, 500, 3.0, false, false, 7);
  EXPECT_THROW(pagerank(gpu_, undirected, o), ArgumentError);
}

// automatic on the GPU: Chebyshev on an undirected graph (the same run as
// asked for by name), Jacobi on a directed one.
TEST_F(CudaPageRank, AutomaticIsChebyshevOnUndirectedGraphs) {
  for (bool directed : {true, false}) {
    const Graph g =
        test::random_graph(test::GraphShape::disconnected, 4000, 3.0, directed, false, 8);
    PageRankOptions o;
    o.tol = 1e-10;
    o.method = PageRankMethod::automatic;
    const PageRankResult automatic = pagerank(gpu_, g, o);
    const PageRankMethod want = directed ? PageRankMethod::jacobi : PageRankMethod::chebyshev;
    EXPECT_EQ(automatic.method, want) << to_string(want);
    o.method = want;
    const PageRankResult named = pagerank(gpu_, g, o);
    EXPECT_EQ(named.iterations, automatic.iterations) << to_string(want);
    EXPECT_EQ(named.rank, automatic.rank) << to_string(want);
  }
}

#endif  // GRAPHRUN_HAVE_CUDA

// Every build: without a CUDA backend (or GPU) the GPU path is a clear error.
TEST(CudaPageRankAvailability, NoBackendOrDeviceIsADeviceError) {
  if (cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device is present";
  Context gpu(Device::cuda);
  const Graph g(Csr<double>(3, 3, {0, 1, 2, 3}, {1, 2, 0}, {}), {}, true, false);
  EXPECT_THROW(pagerank(gpu, g), DeviceError);
}

}  // namespace
}  // namespace graphrun
