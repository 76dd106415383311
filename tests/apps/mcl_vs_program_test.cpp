// Markov clustering on the CPU against van Dongen's mcl program (run here
// through the anchors library, as the oracle): the same clusters on the
// shipped graphs with default and with tight pruning parameters (selection
// and recovery at work), and on random weighted graphs. Skips where mcl is
// not installed.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "anchors/mcl_program.hpp"
#include "graphrun/algorithms/cluster_compare.hpp"
#include "graphrun/algorithms/mcl.hpp"
#include "graphrun/io/load.hpp"
#include "support/random_graphs.hpp"
#include "support/shared_graphs.hpp"

namespace graphrun {
namespace {

using anchors::mcl_program_available;
using anchors::MclProgramOptions;
using anchors::run_mcl_program;

std::vector<std::string> labels_of(const Graph& g) {
  std::vector<std::string> l(static_cast<std::size_t>(g.n_vertices()));
  for (vertex_t v = 0; v < g.n_vertices(); ++v) l[v] = g.label(v);
  return l;
}

MclResult run(const Graph& g, const MclOptions& o = {}, int threads = 2) {
  Context ctx(Device::cpu, threads);
  return mcl(ctx, g, o);
}

// graphrun's clusters against the mcl program's on the same graph and
// parameters.
void expect_as_mcl_program(const Graph& g, const MclOptions& o, const std::string& what) {
  const MclResult ours = run(g, o);
  MclProgramOptions p;
  p.inflation = o.inflation;
  p.prune_number = o.prune_number;
  p.select_number = o.select_number;
  p.recover_number = o.recover_number;
  p.recover_percent = o.recover_percent;
  const auto theirs = run_mcl_program(g.adj(), labels_of(g), p);
  EXPECT_TRUE(same_clustering(ours.cluster, theirs.cluster))
      << what << ": " << ours.n_clusters << " clusters vs mcl's " << theirs.n_clusters << ", ARI "
      << adjusted_rand_index(ours.cluster, theirs.cluster);
  EXPECT_TRUE(ours.converged) << what;
}

TEST(MclVsProgram, ShippedGraphsGiveMclsClusters) {
  if (!mcl_program_available()) GTEST_SKIP() << "the mcl program is not installed";
  const auto files = test::shipped_graph_files();
  ASSERT_FALSE(files.empty());
  for (const auto& file : files) {
    const Graph g = io::load_graph(file.string());
    for (double inflation : {1.4, 2.0, 3.0}) {
      MclOptions o;
      o.inflation = inflation;
      expect_as_mcl_program(g, o, file.filename().string() + " -I " + std::to_string(inflation));
    }
  }
}

// Tight resources: selection (-S) and recovery (-R, -pct) decide most
// columns, so every branch of the pruning is compared with mcl's.
TEST(MclVsProgram, TightPruningGivesMclsClusters) {
  if (!mcl_program_available()) GTEST_SKIP() << "the mcl program is not installed";
  for (const auto& file : test::shipped_graph_files()) {
    const Graph g = io::load_graph(file.string());
    for (auto [p, s, r, pct] : {std::tuple{50, 3, 5, 90}, std::tuple{1000, 4, 12, 95},
                                std::tuple{20, 6, 6, 50}, std::tuple{10000, 2, 0, 90}}) {
      MclOptions o;
      o.prune_number = p;
      o.select_number = s;
      o.recover_number = r;
      o.recover_percent = pct;
      expect_as_mcl_program(g, o,
                            file.filename().string() + " -P " + std::to_string(p) + " -S " +
                                std::to_string(s) + " -R " + std::to_string(r) + " -pct " +
                                std::to_string(pct));
    }
  }
}

TEST(MclVsProgram, RandomWeightedGraphs) {
  if (!mcl_program_available()) GTEST_SKIP() << "the mcl program is not installed";
  std::uint64_t seed = 410;
  for (auto shape : {test::GraphShape::erdos_renyi, test::GraphShape::power_law,
                     test::GraphShape::disconnected, test::GraphShape::star})
    for (bool directed : {false, true}) {
      const Graph g = test::flow_graph(shape, 300, 6, directed, ++seed);
      expect_as_mcl_program(g, {}, test::to_string(shape) + (directed ? " directed" : ""));
    }
}

}  // namespace
}  // namespace graphrun
