// Real graphs: the shipped datasets always, and the shared collection
// (GRAPHRUN_DATASETS) for whatever of it is present on this machine.

#include <gtest/gtest.h>

#include <map>

#include "graphrun/io/load.hpp"
#include "io_test_support.hpp"
#include "support/shared_graphs.hpp"

namespace graphrun::io::test {
namespace {

struct Shipped {
  const char* file;
  bool undirected;
  vertex_t vertices;
  offset_t entries;  // stored CSR entries after loading
  bool weighted;
};

// Counts from datasets/README.md: undirected files store each edge once, so
// the CSR holds two entries per edge; celegansneural's 14 repeated arcs merge.
const Shipped shipped[] = {
    {"karate/karate.txt.gz", true, 34, 2 * 78, false},
    {"dolphins/dolphins.txt.gz", true, 62, 2 * 159, false},
    {"lesmis/lesmis.txt.gz", true, 77, 2 * 254, true},
    {"celegansneural/celegansneural.txt.gz", false, 297, 2345, true},
};

TEST(Datasets, ShippedGraphsHaveTheirPublishedSizes) {
  for (const Shipped& s : shipped) {
    SCOPED_TRACE(s.file);
    LoadOptions opt;
    opt.undirected = s.undirected;
    LoadStats stats;
    const Graph g = load_graph(std::string(GRAPHRUN_SOURCE_DIR "/datasets/") + s.file, opt, &stats);
    EXPECT_EQ(g.n_vertices(), s.vertices);
    EXPECT_EQ(g.n_edges(), s.entries);
    EXPECT_EQ(g.weighted(), s.weighted);
    EXPECT_EQ(g.adj().is_pattern(), !s.weighted);
    EXPECT_EQ(g.directed(), !s.undirected);
    EXPECT_GT(stats.bytes_read, 0u);
    // All four use ids 0..N-1.
    EXPECT_EQ(g.input_id(0), 0u);
    EXPECT_EQ(g.input_id(s.vertices - 1), static_cast<std::uint64_t>(s.vertices - 1));
  }
}

TEST(Datasets, KarateIsZacharysClub) {
  const Graph g = load_graph(GRAPHRUN_SOURCE_DIR "/datasets/karate/karate.txt.gz", options(true));
  // Degrees of the instructor (0) and the administrator (33).
  EXPECT_EQ(g.adj().row_length(0), 16);
  EXPECT_EQ(g.adj().row_length(33), 17);
}

// Files in the shared collection that are not integer edge lists, and why
// they must be refused: ids there are names, a comment line lacks its '#',
// or a weight is infinite (Newman's 1/(authors-1) for single-author papers).
const std::map<std::string, std::pair<std::int64_t, std::string>> refused = {
    {"WormNet.v3.benchmark.txt.gz", {1, "is not a number"}},
    {"yeast-ppi-dip.txt.gz", {1, "is not a number"}},
    {"yeast-ppi-combined6.txt.gz", {1, "is not a number"}},
    {"yeast-ppi-biogrid.txt.gz", {1, "is not a number"}},
    {"as-caida20071105.txt.gz", {4, "expected 2 or 3 columns"}},
    {"cond-mat-2005.txt.gz", {4861, "weight 'inf' is not a finite number"}},
};

using graphrun::test::is_graph_file;

TEST(Datasets, EveryGraphOfTheSharedCollectionLoads) {
  // The shipped folder is always there; the shared one where it exists.
  std::vector<fs::path> roots = {fs::path(GRAPHRUN_SOURCE_DIR) / "datasets"};
  if (fs::is_directory(GRAPHRUN_DATASETS)) roots.emplace_back(GRAPHRUN_DATASETS);
  int loaded = 0;
  for (const auto& root : roots) {
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
      const std::string name = entry.path().filename();
      if (!entry.is_regular_file() || !is_graph_file(name)) continue;
      const std::string path = entry.path().string();
      SCOPED_TRACE(path);
      if (const auto it = refused.find(name); it != refused.end()) {
        expect_input_error([&] { load_graph(path); }, path, it->second.first, it->second.second);
        continue;
      }
      const Graph g = load_graph(path);
      EXPECT_GT(g.n_edges(), 0);
      EXPECT_GT(g.n_vertices(), 0);
      ++loaded;
    }
  }
  EXPECT_GE(loaded, 4);  // at least the shipped ones
}

}  // namespace
}  // namespace graphrun::io::test
