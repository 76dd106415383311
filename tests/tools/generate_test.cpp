// graphrun-generate: the graphs it writes have the sizes and structure its
// parameters promise, load through the edge-list reader, and are the same
// file for the same command.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "graphrun/engine/row_stats.hpp"
#include "graphrun/io/labels.hpp"
#include "graphrun/io/load.hpp"

namespace graphrun {
namespace {

namespace fs = std::filesystem;

fs::path generate(const std::string& args, const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / "graphrun_generate_test";
  fs::create_directories(dir);
  const fs::path out = dir / name;
  const std::string cmd = std::string(GRAPHRUN_GENERATE_EXE) + " " + args + " -o " + out.string();
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  return out;
}

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

TEST(Generate, GridHasTheFivePointStructure) {
  const auto path = generate("grid 30 40", "grid.txt");
  io::LoadOptions o;
  o.undirected = true;
  Graph g = io::load_graph(path.string(), o);
  EXPECT_EQ(g.n_vertices(), 30 * 40);
  EXPECT_EQ(g.n_edges(), 2 * (30 * 39 + 40 * 29));  // both directions stored
  RowStats s = analyze(g.adj().view());
  EXPECT_EQ(s.min_length, 2);  // corners
  EXPECT_EQ(s.max_length, 4);  // interior
}

TEST(Generate, UniformHasTheRequestedEdgeCountAndIsReproducible) {
  const auto a = generate("uniform 5000 8 --seed 7", "u1.txt");
  const auto b = generate("uniform 5000 8 --seed 7", "u2.txt");
  const auto c = generate("uniform 5000 8 --seed 8", "u3.txt");
  EXPECT_TRUE(slurp(a) == slurp(b)) << "same command, different files";
  EXPECT_FALSE(slurp(a) == slurp(c)) << "another seed, the same file";
  Graph g = io::load_graph(a.string());
  EXPECT_LE(g.n_vertices(), 5000);
  EXPECT_GT(g.n_vertices(), 4900);  // few of 5000 vertices miss all 80000 endpoints
  // 40000 draws among 25M pairs: only a handful of repeats collapse.
  EXPECT_GT(g.n_edges(), 39900);
  EXPECT_LE(g.n_edges(), 40000);
}

TEST(Generate, RmatIsSkewed) {
  const auto path = generate("rmat 14 16 --seed 3", "rmat.txt");
  Graph g = io::load_graph(path.string());
  EXPECT_LE(g.n_vertices(), 1 << 14);
  RowStats s = analyze(g.adj().view());
  // a = 0.57 concentrates edges on low ids: far more skewed than uniform
  // (whose coefficient of variation would be about 1/sqrt(16) = 0.25).
  EXPECT_GT(s.cv, 1.0);
  EXPECT_GT(s.max_length, 50 * s.mean);
}

TEST(Generate, LfrWritesTheGraphAndItsCommunitiesAsTheLoadersReadThem) {
  const fs::path dir = fs::temp_directory_path() / "graphrun_generate_test";
  const fs::path communities = dir / "lfr.communities";
  const auto path =
      generate("lfr 3000 --degree 12 --max-degree 40 --mu 0.2 --seed 5 --communities " +
                   communities.string(),
               "lfr.txt");
  io::LoadOptions o;
  o.undirected = true;
  const Graph g = io::load_graph(path.string(), o);
  EXPECT_GT(g.n_vertices(), 2900);
  EXPECT_NEAR(static_cast<double>(g.n_edges()) / g.n_vertices(), 12.0, 0.5);
  // Every vertex of the graph exactly once (the reader checks it), as
  // graphrun contract --labels reads it.
  const io::VertexLabels labels = io::read_vertex_labels(communities.string(), g);
  EXPECT_GT(labels.names.size(), 10u);
  EXPECT_EQ(labels.labels.size(), static_cast<std::size_t>(g.n_vertices()));
  // The same command, the same files.
  const std::string first = slurp(path), first_communities = slurp(communities);
  generate("lfr 3000 --degree 12 --max-degree 40 --mu 0.2 --seed 5 --communities " +
               communities.string(),
           "lfr.txt");
  EXPECT_EQ(slurp(path), first);
  EXPECT_EQ(slurp(communities), first_communities);
}

// A run that fails leaves no half-written file, and never removes what is
// not a regular file it wrote.
TEST(Generate, FailedRunsLeaveNothingBehind) {
  const fs::path dir = fs::temp_directory_path() / "graphrun_generate_test";
  fs::create_directories(dir);
  const fs::path out = dir / "failed.txt";
  const auto sh = [](const std::string& args) {
    const std::string cmd = std::string(GRAPHRUN_GENERATE_EXE) + " " + args + " 2>/dev/null";
    const int rc = std::system(cmd.c_str());
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  };
  fs::remove(out);
  EXPECT_EQ(sh("lfr 30 -o " + out.string()), 2);  // --max-degree 50 >= n
  EXPECT_FALSE(fs::exists(out));
  EXPECT_EQ(sh("lfr 300 --degree 5 --max-degree 20 -o " + out.string() + " --communities " +
               (dir / "no-such-dir" / "c.tsv").string()),
            1);
  EXPECT_FALSE(fs::exists(out)) << "a graph without its communities";
  if (fs::exists("/dev/full")) {
    EXPECT_EQ(sh("grid 50 50 -o /dev/full"), 1);
    EXPECT_TRUE(fs::is_character_file("/dev/full"));
  }
}

TEST(Generate, BadArgumentsExitTwo) {
  for (const char* args :
       {"torus 3 3", "grid 0 5", "rmat 40 16", "uniform 10 x", "grid 3", "lfr 1000 --mu 1.5",
        "lfr 1000 --degree 90", "lfr", "lfr 1000 --max-community 5"}) {
    const std::string cmd = std::string(GRAPHRUN_GENERATE_EXE) + " " + args + " >/dev/null 2>&1";
    const int rc = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(rc)) << args;
    EXPECT_EQ(WEXITSTATUS(rc), 2) << args;
  }
}

}  // namespace
}  // namespace graphrun
