// The .grb cache: exact round trip, and every kind of damage is an InputError.

#include <gtest/gtest.h>

#include "graphrun/io/load.hpp"
#include "graphrun/io/write.hpp"
#include "io_test_support.hpp"

namespace graphrun::io::test {
namespace {

const std::string weighted_text =
    "1000000000000 7 0.5\n"
    "7 42 -1.25\n"
    "42 42 3\n"
    "7 1000000000000 0.1\n";

Graph sample(const TempDir& dir, bool undirected) {
  LoadOptions opt;
  opt.undirected = undirected;
  return read_edge_list(write_file(dir.file("w.txt"), weighted_text), opt);
}

TEST(Cache, RoundTripIsBitIdentical) {
  TempDir dir;
  for (bool undirected : {false, true}) {
    const Graph g = sample(dir, undirected);
    write_cache(dir.file("g.grb"), g);
    const Graph back = read_cache(dir.file("g.grb"));
    EXPECT_EQ(arrays(back), arrays(g));
    EXPECT_EQ(back.directed(), g.directed());
    EXPECT_EQ(back.weighted(), g.weighted());
    // load_graph picks the cache by its suffix.
    EXPECT_EQ(arrays(load_graph(dir.file("g.grb"))), arrays(g));
  }
}

TEST(Cache, PatternGraphStaysPattern) {
  TempDir dir;
  const Graph g = load_graph(GRAPHRUN_SOURCE_DIR "/datasets/karate/karate.txt.gz", options(true));
  write_cache(dir.file("k.grb"), g);
  const Graph back = read_cache(dir.file("k.grb"));
  EXPECT_TRUE(back.adj().is_pattern());
  EXPECT_FALSE(back.weighted());
  EXPECT_FALSE(back.directed());
  EXPECT_EQ(arrays(back), arrays(g));
  // 64-byte header + row_ptr + col_idx + ids: no values array.
  EXPECT_EQ(read_file(dir.file("k.grb")).size(), 64u + 35 * 8 + 156 * 4 + 34 * 8);
}

TEST(Cache, UndirectedOptionSymmetrizesADirectedCache) {
  TempDir dir;
  write_cache(dir.file("d.grb"), sample(dir, false));
  LoadOptions opt;
  opt.undirected = true;
  const Graph g = load_graph(dir.file("d.grb"), opt);
  EXPECT_FALSE(g.directed());
  EXPECT_EQ(arrays(g), arrays(sample(dir, true)));
}

class CacheDamage : public ::testing::Test {
 protected:
  void SetUp() override {
    write_cache(dir.file("g.grb"), sample(dir, false));
    bytes = read_file(dir.file("g.grb"));
  }
  void expect_refused(const std::string& damaged, const std::string& fragment) {
    const std::string path = write_file(dir.file("bad.grb"), damaged);
    expect_input_error([&] { read_cache(path); }, path, 0, fragment);
  }
  TempDir dir;
  std::string bytes;
};

TEST_F(CacheDamage, EveryFlippedPayloadByteIsCaught) {
  for (std::size_t i = 64; i < bytes.size(); ++i) {
    std::string damaged = bytes;
    damaged[i] = static_cast<char>(damaged[i] ^ 0x01);
    expect_refused(damaged, "corrupt graphrun cache");
  }
}

TEST_F(CacheDamage, FlippedHeaderByteIsCaught) {
  for (std::size_t i = 8; i < 48; ++i) {
    std::string damaged = bytes;
    damaged[i] = static_cast<char>(damaged[i] ^ 0x10);
    const std::string path = write_file(dir.file("bad.grb"), damaged);
    EXPECT_THROW(read_cache(path), InputError) << "byte " << i;
  }
}

TEST_F(CacheDamage, TruncatedIsRefused) {
  expect_refused(bytes.substr(0, bytes.size() - 1), "truncated graphrun cache");
  expect_refused(bytes.substr(0, 100), "truncated graphrun cache");
  expect_refused(bytes.substr(0, 10), "not a graphrun cache");
  expect_refused("", "not a graphrun cache");
  expect_refused(bytes + "x", "oversized graphrun cache");
}

TEST_F(CacheDamage, WrongMagicOrVersionIsRefused) {
  std::string magic = bytes;
  magic[0] = 'X';
  expect_refused(magic, "no GRAPHRUN magic");
  std::string version = bytes;
  version[8] = 9;
  expect_refused(version, "graphrun cache format version 9, this build reads version 1");
  expect_refused("1 2\n3 4\n", "no GRAPHRUN magic");
}

TEST(Cache, MissingFileNamesPath) {
  expect_input_error([] { read_cache("/nonexistent/x.grb"); }, "/nonexistent/x.grb", 0,
                     "No such file or directory");
}

}  // namespace
}  // namespace graphrun::io::test
