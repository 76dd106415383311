// BFS on the GPU against the CPU version: levels identical, the same
// push/pull steps (both follow one direction rule on the same counts),
// parents valid (at level - 1 and an in-neighbour), on random graphs of
// several shapes, directed and undirected, under default, push-only and
// pull-only rules, every SpMV format forced for the pull steps, sources
// without out-edges, and the shared real graphs. Skips where there is no
// CUDA backend or no GPU.
#include "graphrun/algorithms/bfs.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "graphrun/engine/coo.hpp"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/spmv_format.hpp"
#include "graphrun/io/load.hpp"
#include "support/algorithm_oracles.hpp"
#include "support/random_graphs.hpp"
#include "support/shared_graphs.hpp"

namespace graphrun {
namespace {

#if defined(GRAPHRUN_HAVE_CUDA)

namespace fs = std::filesystem;

constexpr double inf = std::numeric_limits<double>::infinity();

class CudaBfs : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }
  Context cpu_{Device::cpu, 2};
  Context gpu_{Device::cuda};
};

// GPU and CPU from `source` under options o. Returns false when an
// explicitly requested format refused the matrix.
bool expect_same(Context& cpu, Context& gpu, const Graph& g, vertex_t source, const BfsOptions& o,
                 const std::string& where) {
  const BfsResult want = bfs(cpu, g, source, o);
  BfsResult got;
  try {
    got = bfs(gpu, g, source, o);
  } catch (const FormatError& e) {
    // Only ELL and SELL refuse a matrix (padding past their limits);
    // automatic falls back.
    EXPECT_TRUE(o.format == SpmvFormat::ell || o.format == SpmvFormat::sell)
        << where << ": " << e.what();
    return false;
  }
  EXPECT_EQ(got.level, want.level) << where;
  EXPECT_EQ(got.reached, want.reached) << where;
  EXPECT_EQ(got.depth, want.depth) << where;
  EXPECT_EQ(got.push_steps, want.push_steps) << where;
  EXPECT_EQ(got.pull_steps, want.pull_steps) << where;
  EXPECT_EQ(got.edges_examined, want.edges_examined) << where;
  EXPECT_LE(got.compute_seconds, got.seconds) << where;
  if (got.pull_steps > 0) {
    EXPECT_NE(got.format, SpmvFormat::automatic) << where;
    if (o.format != SpmvFormat::automatic) {
      EXPECT_EQ(got.format, o.format) << where;
    }
  }
  if (o.parents) test::expect_valid_bfs(g, source, got, where);
  return true;
}

// Source 0, the vertex of largest out-degree, and the last vertex.
std::vector<vertex_t> sources_of(const Graph& g) {
  vertex_t hub = 0;
  for (vertex_t v = 0; v < g.n_vertices(); ++v)
    if (g.adj().row_length(v) > g.adj().row_length(hub)) hub = v;
  return {0, hub, g.n_vertices() - 1};
}

const test::GraphShape kShapes[] = {test::GraphShape::erdos_renyi,  test::GraphShape::power_law,
                                    test::GraphShape::chain,        test::GraphShape::star,
                                    test::GraphShape::disconnected, test::GraphShape::no_sinks};

// One case per shape and direction, so that the sanitizer runs can spread them over shards.
class CudaBfsRandom : public CudaBfs,
                      public ::testing::WithParamInterface<std::tuple<test::GraphShape, bool>> {};

TEST_P(CudaBfsRandom, EveryDirectionRule) {
  const auto [shape, directed] = GetParam();
  const std::uint64_t seed = 100 + 2 * static_cast<std::uint64_t>(shape) + (directed ? 0 : 1);
  const Graph g = test::random_graph(shape, 2000, 4.0, directed, false, seed);
  for (vertex_t source : sources_of(g))
    for (double alpha : {15.0, 0.0, inf})
      for (bool parents : {false, true}) {
        BfsOptions o;
        o.alpha = alpha;
        o.beta = alpha == inf ? inf : 18.0;
        o.parents = parents;
        const std::string where = test::to_string(shape) +
                                  (directed ? " directed" : " undirected") + " source " +
                                  std::to_string(source) + " alpha " + std::to_string(alpha) +
                                  (parents ? " parents" : "");
        expect_same(cpu_, gpu_, g, source, o, where);
      }
}

INSTANTIATE_TEST_SUITE_P(Shapes, CudaBfsRandom,
                         ::testing::Combine(::testing::ValuesIn(kShapes), ::testing::Bool()),
                         [](const auto& shape_and_direction) {
                           return test::to_string(std::get<0>(shape_and_direction.param)) +
                                  (std::get<1>(shape_and_direction.param) ? "_directed"
                                                                          : "_undirected");
                         });

TEST_F(CudaBfs, EveryFormatForThePullSteps) {
  for (auto shape :
       {test::GraphShape::power_law, test::GraphShape::disconnected, test::GraphShape::star}) {
    for (bool directed : {true, false}) {
      const Graph g = test::random_graph(shape, 3000, 5.0, directed, true, 31);
      for (SpmvFormat f : all_spmv_formats())
        for (double alpha : {15.0, inf}) {
          BfsOptions o;
          o.format = f;
          o.alpha = alpha;
          o.beta = alpha == inf ? inf : 18.0;
          o.parents = true;
          const std::string where = test::to_string(shape) + (directed ? " directed " : " ") +
                                    std::string(to_string(f)) + " alpha " + std::to_string(alpha);
          expect_same(cpu_, gpu_, g, 0, o, where);
        }
    }
  }
}

TEST_F(CudaBfs, SourceWithoutOutEdges) {
  // A directed chain's last vertex, and an isolated vertex.
  const Graph chain = test::random_graph(test::GraphShape::chain, 50, 1.0, true, false, 1);
  BfsOptions o;
  o.parents = true;
  const BfsResult r = bfs(gpu_, chain, 49, o);
  EXPECT_EQ(r.reached, 1);
  EXPECT_EQ(r.depth, 1);
  EXPECT_EQ(r.level[49], 0);
  EXPECT_EQ(r.parent[49], 49);
  EXPECT_EQ(std::count(r.level.begin(), r.level.end(), -1), 49);
  EXPECT_EQ(r.push_steps + r.pull_steps, 0);
  expect_same(cpu_, gpu_, chain, 49, o, "chain end");

  const Graph g = test::random_graph(test::GraphShape::disconnected, 500, 3.0, false, false, 2);
  expect_same(cpu_, gpu_, g, 499, o, "isolated vertex");
}

TEST_F(CudaBfs, StarFromTheCentreAndFromALeaf) {
  for (bool directed : {true, false}) {
    const Graph g = test::random_graph(test::GraphShape::star, 5000, 1.0, directed, false, 3);
    BfsOptions o;
    o.parents = true;
    expect_same(cpu_, gpu_, g, 0, o, directed ? "directed centre" : "centre");
    expect_same(cpu_, gpu_, g, 17, o, directed ? "directed leaf" : "leaf");
  }
}

TEST_F(CudaBfs, CallbackStopsAfterTwoLevels) {
  const Graph g = test::random_graph(test::GraphShape::chain, 100, 1.0, true, false, 4);
  BfsOptions o;
  o.on_iteration = [](const IterationInfo& it) {
    EXPECT_EQ(it.frontier, 1);
    return it.iteration < 2;
  };
  const BfsResult r = bfs(gpu_, g, 0, o);
  EXPECT_EQ(r.reached, 3);
  EXPECT_EQ(r.level[2], 2);
  EXPECT_EQ(r.level[3], -1);
  expect_same(cpu_, gpu_, g, 0, o, "stopped");
}

// A rows x cols 4-neighbour grid, undirected: rows + cols - 1 levels from a
// corner, frontiers of up to min(rows, cols) vertices.
Graph grid_graph(vertex_t rows, vertex_t cols) {
  Coo<double> coo;
  coo.n_rows = coo.n_cols = rows * cols;
  const auto link = [&](vertex_t u, vertex_t v) {
    coo.row.push_back(u);
    coo.col.push_back(v);
    coo.row.push_back(v);
    coo.col.push_back(u);
  };
  for (vertex_t r = 0; r < rows; ++r)
    for (vertex_t c = 0; c < cols; ++c) {
      if (c + 1 < cols) link(r * cols + c, r * cols + c + 1);
      if (r + 1 < rows) link(r * cols + c, (r + 1) * cols + c);
    }
  return Graph(Csr<double>::from_coo(coo), {}, false, false);
}

// Directed: the source 0 reaches a few feeders 1..kFeeders; every hub
// (ids past the feeders) has in-edges from a run of feeders, so that at the
// second level it is reached only through the frontier feeders inside its
// run: from its first few in-edges (a lane), within the next 256 (its
// warp), further on (chunks over the grid), at the very end of a row of
// 50,000, after hits in several chunks of one row, or not at all. The
// first hit in a row's order is the parent the CPU takes too.
Graph hub_graph(std::vector<vertex_t>& frontier_feeders) {
  constexpr vertex_t kFeeders = 100'000;
  const std::vector<std::pair<vertex_t, vertex_t>> runs = {
      {1, 3},          {5, 600},           {300, 2'000},     {2'500, 9'000},
      {9'001, 9'400},  {41'000, kFeeders}, {40'000, 41'000}, {60'000, 99'000},
      {1'000, 42'000}, {99'990, kFeeders}};
  frontier_feeders = {2, 150, 555, 1'999, 7'000, 40'999, 100'000};
  Coo<double> coo;
  const vertex_t hubs = 40;
  coo.n_rows = coo.n_cols = kFeeders + 1 + hubs;
  for (vertex_t f : frontier_feeders) {
    coo.row.push_back(0);
    coo.col.push_back(f);
  }
  for (vertex_t h = 0; h < hubs; ++h) {
    const auto [first, last] = runs[static_cast<std::size_t>(h) % runs.size()];
    const vertex_t shift = h / static_cast<vertex_t>(runs.size());  // rows differ a little
    for (vertex_t f = std::min(first + shift, last); f <= last; ++f) {
      coo.row.push_back(f);
      coo.col.push_back(kFeeders + 1 + h);
    }
  }
  return Graph(Csr<double>::from_coo(coo), {}, true, false);
}

TEST_F(CudaBfs, PullRowsOfEveryLengthFindTheirFirstFrontierInNeighbour) {
  std::vector<vertex_t> feeders;
  const Graph g = hub_graph(feeders);
  for (double alpha : {15.0, inf})
    for (bool parents : {false, true}) {
      BfsOptions o;
      o.alpha = alpha;
      o.beta = alpha == inf ? inf : 18.0;
      o.parents = parents;
      const std::string where =
          "alpha " + std::to_string(alpha) + (parents ? " parents" : " no parents");
      expect_same(cpu_, gpu_, g, 0, o, where);
      // Pulling from the first step, every parent is a row's first hit.
      if (!parents || alpha != inf) continue;
      const BfsResult want = bfs(cpu_, g, 0, o), got = bfs(gpu_, g, 0, o);
      ASSERT_GT(got.pull_steps, 0) << where;
      EXPECT_EQ(got.parent, want.parent) << where;  // the first hit of every row
    }
}

// Without a callback, levels stay on the device (one cooperative kernel, up
// to 1024 levels a launch, leaving to the host a push frontier with a vertex
// of over 4096 out-edges, and pull steps on graphs with a vertex of over 4096
// in-edges); with one, every level returns to the host. Both must give the
// CPU's result, step for step: chains longer than a launch, grids (pull
// steps near the end, on the device), a star entered from a leaf (its
// centre's 9,999 edges go to the host both ways), power-law graphs (pull
// steps on the device; directed: through the transpose).
struct LoopCase {
  std::string name;
  Graph g;
  vertex_t source;
};

void expect_device_loop_matches(Context& cpu, Context& gpu, const std::vector<LoopCase>& cases) {
  for (const LoopCase& c : cases)
    for (bool parents : {false, true}) {
      BfsOptions o;
      o.parents = parents;
      const std::string where = c.name + (parents ? " parents" : "");
      expect_same(cpu, gpu, c.g, c.source, o, where + ", device loop");
      int levels = 0;
      o.on_iteration = [&levels](const IterationInfo&) {
        ++levels;
        return true;
      };
      expect_same(cpu, gpu, c.g, c.source, o, where + ", level at a time");
      EXPECT_GT(levels, 0) << where;
    }
}

TEST_F(CudaBfs, DeviceLevelLoopEqualsLevelAtATime) {
  std::vector<LoopCase> cases;
  // 1,025 levels from the middle: one launch boundary crossed.
  cases.push_back({"chain 2049 undirected",
                   test::random_graph(test::GraphShape::chain, 2049, 1.0, false, false, 7), 1024});
  cases.push_back({"grid 300x40", grid_graph(300, 40), 0});
  cases.push_back({"grid 64x64 middle", grid_graph(64, 64), 32 * 64 + 32});
  cases.push_back(
      {"star leaf", test::random_graph(test::GraphShape::star, 10000, 1.0, false, false, 8), 5});
  const Graph pl = test::random_graph(test::GraphShape::power_law, 20000, 6.0, false, false, 9);
  cases.push_back({"power law", pl, sources_of(pl)[2]});
  const Graph pld = test::random_graph(test::GraphShape::power_law, 20000, 6.0, true, false, 10);
  cases.push_back({"power law directed", pld, sources_of(pld)[1]});
  expect_device_loop_matches(cpu_, gpu_, cases);
}

// Five launches of 1,024 levels: each level is a grid-wide barrier, which
// the sanitizers make slow, so this case runs in the plain GPU run only.
TEST_F(CudaBfs, DeviceLevelLoopLongChainLarge) {
  expect_device_loop_matches(
      cpu_, gpu_,
      {{"chain 5000", test::random_graph(test::GraphShape::chain, 5000, 1.0, true, false, 6), 0}});
}

TEST_F(CudaBfs, ProgressReportsLevelsAndFrontier) {
  const Graph g = grid_graph(50, 20);
  for (Context* ctx : {&cpu_, &gpu_}) {
    StepProgress step;
    BfsOptions o;
    o.progress = &step;
    const BfsResult r = bfs(*ctx, g, 0, o);
    EXPECT_EQ(r.depth, 69);
    EXPECT_EQ(step.iteration.load(), r.push_steps + r.pull_steps);
    EXPECT_EQ(step.frontier.load(), 0);  // the last level found nothing new
  }
}

TEST_F(CudaBfs, BadSourceIsAnArgumentError) {
  const Graph g = test::random_graph(test::GraphShape::chain, 10, 1.0, true, false, 5);
  EXPECT_THROW(bfs(gpu_, g, 10, {}), ArgumentError);
  EXPECT_THROW(bfs(gpu_, g, -1, {}), ArgumentError);
}

using test::graph_files;

TEST_F(CudaBfs, SharedDatasetsLarge) {
  const auto files = graph_files(GRAPHRUN_DATASETS);
  if (files.empty()) GTEST_SKIP() << "shared datasets not present";
  int checked = 0;
  for (const fs::path& file : files) {
    for (bool undirected : {false, true}) {
      io::LoadOptions lo;
      lo.undirected = undirected;
      Graph g;
      try {
        g = io::load_graph(file.string(), lo);
      } catch (const InputError&) {
        continue;  // not a graph with numeric ids
      }
      if (g.n_vertices() == 0) continue;
      for (vertex_t source : sources_of(g)) {
        BfsOptions o;
        o.parents = true;
        expect_same(cpu_, gpu_, g, source, o,
                    file.filename().string() + (undirected ? " undirected" : "") + " source " +
                        std::to_string(source));
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 20);
}

TEST_F(CudaBfs, LargePowerLawEveryFormat) {
  for (bool directed : {true, false}) {
    const Graph g =
        test::random_graph(test::GraphShape::power_law, 300'000, 8.0, directed, false, 41);
    for (SpmvFormat f : all_spmv_formats()) {
      BfsOptions o;
      o.format = f;
      o.parents = true;
      expect_same(cpu_, gpu_, g, sources_of(g)[1], o,
                  std::string(directed ? "directed " : "undirected ") + std::string(to_string(f)));
    }
  }
}

#endif  // GRAPHRUN_HAVE_CUDA

// Every build: without a CUDA backend (or GPU) the GPU path is a clear error.
TEST(CudaBfsAvailability, NoBackendOrDeviceIsADeviceError) {
  if (cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device is present";
  Context gpu(Device::cuda);
  const Graph g(Csr<double>(3, 3, {0, 1, 2, 3}, {1, 2, 0}, {}), {}, true, false);
  EXPECT_THROW(bfs(gpu, g, 0), DeviceError);
}

}  // namespace
}  // namespace graphrun
