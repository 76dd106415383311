// BFS and PageRank on real graphs: the graphs shipped in datasets/ and, where
// present, the shared collection (GRAPHRUN_DATASETS). Whatever exists is
// checked; files that are not graphs with numeric ids (name lists, community
// files) are passed over.
//   BFS: levels equal Boost's for two sources (vertex 0 and the vertex of
//        largest out-degree) under default, push-only and pull-only
//        direction rules; parents valid.
//   PageRank: within 1e-9 (L1) of a serial push-style reference at
//        tol 1e-12, ranks sum to 1, and two runs are bit-identical.
//   Components: weak and strong labels equal Boost's.
//   SSSP, core numbers: equal Boost's. Triangles: equal the textbook loop's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "graphrun/algorithms/bfs.hpp"
#include "graphrun/algorithms/components.hpp"
#include "graphrun/algorithms/kcore.hpp"
#include "graphrun/algorithms/pagerank.hpp"
#include "graphrun/algorithms/sssp.hpp"
#include "graphrun/algorithms/triangles.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/io/load.hpp"
#include "support/algorithm_oracles.hpp"
#include "support/components_oracle.hpp"
#include "support/kcore_oracle.hpp"
#include "support/shared_graphs.hpp"
#include "support/sssp_oracle.hpp"
#include "support/triangles_oracle.hpp"

namespace graphrun {
namespace {

namespace fs = std::filesystem;

using test::graph_files;

bool has_negative_weight(const Graph& g) {
  const auto& v = g.adj().values();
  return std::any_of(v.begin(), v.end(), [](double x) { return x < 0; });
}

void check_bfs(const Graph& g, const std::string& what) {
  if (g.n_vertices() == 0) return;
  vertex_t hub = 0;
  for (vertex_t v = 0; v < g.n_vertices(); ++v)
    if (g.adj().row_length(v) > g.adj().row_length(hub)) hub = v;
  Context ctx(Device::cpu, 2);
  const double inf = std::numeric_limits<double>::infinity();
  for (vertex_t source : {vertex_t(0), hub}) {
    const std::vector<std::int32_t> expect = test::boost_bfs_levels(g, source);
    for (double alpha : {15.0, 0.0, inf}) {
      BfsOptions o;
      o.alpha = alpha;
      o.beta = alpha == inf ? inf : 18.0;
      o.parents = true;
      const BfsResult r = bfs(ctx, g, source, o);
      const std::string where =
          what + " source=" + std::to_string(source) + " alpha=" + std::to_string(alpha);
      ASSERT_EQ(r.level, expect) << where;
      test::expect_valid_bfs(g, source, r, where);
    }
  }
}

void check_pagerank(const Graph& g, const std::string& what) {
  Context ctx(Device::cpu, 2);
  PageRankOptions o;
  o.tol = 1e-12;
  o.max_iter = 1000;
  // Negative weights (some SuiteSparse matrices) make no Markov chain.
  o.use_weights = !has_negative_weight(g);
  const PageRankResult a = pagerank(ctx, g, o);
  const PageRankResult b = pagerank(ctx, g, o);
  EXPECT_TRUE(a.converged) << what;
  ASSERT_EQ(a.rank.size(), b.rank.size()) << what;
  if (!a.rank.empty()) {
    EXPECT_EQ(std::memcmp(a.rank.data(), b.rank.data(), a.rank.size() * sizeof(double)), 0)
        << what << ": two runs differ";
    EXPECT_NEAR(std::accumulate(a.rank.begin(), a.rank.end(), 0.0), 1.0, 1e-9) << what;
  }
  const std::vector<double> expect = test::sparse_pagerank(g, 0.85, o.use_weights);
  EXPECT_LE(test::l1_distance(a.rank, expect), 1e-9) << what;
}

void check_components(const Graph& g, const std::string& what) {
  Context ctx(Device::cpu, 2);
  EXPECT_EQ(connected_components(ctx, g).component, test::boost_weak_components(g)) << what;
  ComponentsOptions strong;
  strong.strong = true;
  EXPECT_EQ(connected_components(ctx, g, strong).component, test::boost_strong_components(g))
      << what;
}

// Shortest paths from vertex 0 (weights where the file has them, hops
// otherwise), skipped on a graph with negative weights.
void check_sssp(const Graph& g, const std::string& what) {
  if (g.n_vertices() == 0) return;
  if (!g.is_pattern())
    for (double w : g.adj().values())
      if (w < 0) return;
  Context ctx(Device::cpu, 2);
  EXPECT_EQ(sssp(ctx, g, 0).distance, test::boost_dijkstra(g, 0)) << what;
}

void check_kcore(const Graph& g, const std::string& what) {
  Context ctx(Device::cpu, 2);
  EXPECT_EQ(core_numbers(ctx, g).core, test::boost_core_numbers(g)) << what;
}

// The textbook loop's cost grows with the wedges: the larger graphs of the
// collection are left to the NetworkX oracle and the GPU's agreement.
void check_triangles(const Graph& g, const std::string& what) {
  if (g.adj().nnz() > 400'000) return;
  Context ctx(Device::cpu, 2);
  const TriangleResult r = triangles(ctx, g);
  const test::TriangleOracle want = test::reference_triangles(g);
  EXPECT_EQ(r.total, want.total) << what;
  EXPECT_EQ(r.per_vertex, want.per_vertex) << what;
}

void check_folder(const fs::path& root, bool also_undirected, int& checked) {
  for (const fs::path& file : graph_files(root)) {
    for (bool undirected : {false, true}) {
      if (undirected && !also_undirected) continue;
      io::LoadOptions lo;
      lo.undirected = undirected;
      Graph g;
      try {
        g = io::load_graph(file.string(), lo);
      } catch (const InputError&) {
        continue;  // not a graph with numeric ids (a name list, say)
      }
      const std::string what = file.filename().string() + (undirected ? " undirected" : "");
      SCOPED_TRACE(what);
      check_bfs(g, what);
      check_pagerank(g, what);
      check_components(g, what);
      check_sssp(g, what);
      check_kcore(g, what);
      check_triangles(g, what);
      ++checked;
    }
  }
}

TEST(RealGraphs, ShippedDatasets) {
  int checked = 0;
  check_folder(fs::path(GRAPHRUN_SOURCE_DIR) / "datasets", true, checked);
  RecordProperty("graphs_checked", checked);
}

TEST(RealGraphs, SharedDatasets) {
  int checked = 0;
  check_folder(fs::path(GRAPHRUN_DATASETS), false, checked);
  RecordProperty("graphs_checked", checked);
}

}  // namespace
}  // namespace graphrun
