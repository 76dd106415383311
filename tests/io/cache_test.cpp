// The .grb cache: exact round trip, and every kind of damage is an InputError.

#include <gtest/gtest.h>
#include <omp.h>
#include <sys/stat.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <optional>
#include <vector>

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

TEST(Cache, HeaderAloneGivesTheSizesAndDirection) {
  TempDir dir;
  for (bool undirected : {false, true}) {
    const Graph g = sample(dir, undirected);
    write_cache(dir.file("g.grb"), g);
    const std::optional<CacheHeader> h = read_cache_header(dir.file("g.grb"));
    ASSERT_TRUE(h.has_value());
    EXPECT_EQ(h->vertices, g.n_vertices());
    EXPECT_EQ(h->entries, g.adj().nnz());
    EXPECT_EQ(h->directed, g.directed());
  }
  // Not a cache, damaged, or missing: no header, and no exception.
  const std::string cache = read_file(dir.file("g.grb"));
  std::string flipped = cache;
  flipped[24] = static_cast<char>(flipped[24] ^ 0x01);  // the entries, under the header's crc
  for (const std::string& bytes : {std::string(weighted_text), cache.substr(0, 40), flipped})
    EXPECT_FALSE(read_cache_header(write_file(dir.file("x.grb"), bytes)).has_value());
  EXPECT_FALSE(read_cache_header(dir.file("missing.grb")).has_value());
  EXPECT_FALSE(read_cache_header(dir.path().string()).has_value());
  // A FIFO is not opened: that would wait for a writer that never comes.
  const std::string fifo = dir.file("fifo.grb");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_FALSE(read_cache_header(fifo).has_value());
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
  expect_refused(version, "graphrun cache format version 9, this build reads versions 1 to 3");
  expect_refused("1 2\n3 4\n", "no GRAPHRUN magic");
}

// A vertex ordering kept in the cache (version 3) comes back with the graph,
// numeric ids or names alike; a graph without one is still written as
// version 2, which older builds read.
TEST(Cache, StoredOrderingRoundTripsAndOnlyItMakesVersion3) {
  TempDir dir;
  const std::string abc =
      write_file(dir.file("n.abc"), "YKR068C b 1\nb c 2\nc YKR068C 0.5\nd c 1\n");
  for (Graph g : {sample(dir, true), read_abc(abc, options(true))}) {
    write_cache(dir.file("plain.grb"), g);
    EXPECT_EQ(read_file(dir.file("plain.grb"))[8], 2);
    EXPECT_EQ(read_cache(dir.file("plain.grb")).stored_order(), nullptr);

    std::vector<vertex_t> order(static_cast<std::size_t>(g.n_vertices()));
    std::iota(order.rbegin(), order.rend(), vertex_t{0});
    g.set_stored_order(Reorder::rabbit, order);
    write_cache(dir.file("ordered.grb"), g);
    const std::string bytes = read_file(dir.file("ordered.grb"));
    EXPECT_EQ(bytes[8], 3);
    EXPECT_EQ(bytes.size(), read_file(dir.file("plain.grb")).size() + 4 * order.size());
    const Graph back = read_cache(dir.file("ordered.grb"));
    EXPECT_EQ(arrays(back), arrays(g));
    EXPECT_EQ(back.has_names(), g.has_names());
    ASSERT_NE(back.stored_order(), nullptr);
    EXPECT_EQ(back.stored_order()->method, Reorder::rabbit);
    EXPECT_EQ(back.stored_order()->order, order);
    for (vertex_t v = 0; v < g.n_vertices(); ++v) EXPECT_EQ(back.label(v), g.label(v));
  }
}

// A stored ordering's bytes, its method's name included, are under the
// checksum; one that checks out but is no permutation, or names a method
// this build does not know, is refused by name.
TEST(Cache, DamagedStoredOrderingIsRefused) {
  TempDir dir;
  Graph g = sample(dir, false);
  g.set_stored_order(Reorder::dbg, {2, 0, 1});
  write_cache(dir.file("o.grb"), g);
  const std::string bytes = read_file(dir.file("o.grb"));
  for (std::size_t i = 48; i < bytes.size(); ++i) {
    std::string damaged = bytes;
    damaged[i] = static_cast<char>(damaged[i] ^ 0x01);
    const std::string path = write_file(dir.file("bad.grb"), damaged);
    expect_input_error([&] { read_cache(path); }, path, 0, "corrupt graphrun cache");
  }
  // The same damage with the payload checksum made to match.
  const auto rechecked = [&](std::string b) {
    const auto c = static_cast<std::uint32_t>(
        crc32_z(0, reinterpret_cast<const Bytef*>(b.data() + 48), b.size() - 48));
    std::memcpy(b.data() + 40, &c, sizeof c);
    const std::uint32_t h =
        static_cast<std::uint32_t>(crc32_z(0, reinterpret_cast<const Bytef*>(b.data()), 44));
    std::memcpy(b.data() + 44, &h, sizeof h);
    return write_file(dir.file("bad.grb"), b);
  };
  const std::size_t order_at = bytes.size() - 3 * sizeof(vertex_t);
  std::string twice = bytes;
  std::memcpy(twice.data() + order_at, twice.data() + order_at + 4, 4);  // {0, 0, 1}
  std::string path = rechecked(twice);
  expect_input_error([&] { read_cache(path); }, path, 0, "not a permutation");
  std::string unknown = bytes;
  std::memcpy(unknown.data() + 48, "metis", 6);
  path = rechecked(unknown);
  expect_input_error([&] { read_cache(path); }, path, 0, "unknown method 'metis'");
  std::string none = bytes;
  std::memcpy(none.data() + 48, "none", 5);
  path = rechecked(none);
  expect_input_error([&] { read_cache(path); }, path, 0, "unknown method 'none'");
}

// A cache large enough that its arrays are read, and its checksum taken, in
// parallel slices (16 MiB and more each): the payload CRC in the header is
// zlib's crc32 of every byte after the header in one serial pass, the graph
// comes back bit for bit, and a flipped byte deep in a later slice is caught.
TEST(Cache, SlicedReadAndChecksumMatchTheSerialOnes) {
  TempDir dir;
  const vertex_t n = 1 << 20;
  const int degree = 16;
  std::vector<offset_t> row_ptr(static_cast<std::size_t>(n) + 1);
  std::vector<vertex_t> col_idx(static_cast<std::size_t>(n) * degree);
  for (vertex_t i = 0; i < n; ++i) {
    row_ptr[i + 1] = row_ptr[i] + degree;
    for (int k = 0; k < degree; ++k) col_idx[std::size_t(i) * degree + k] = (i / 64) * 64 + k;
  }
  for (vertex_t i = 0; i < n; ++i)
    std::sort(col_idx.begin() + row_ptr[i], col_idx.begin() + row_ptr[i + 1]);
  const Graph g(Csr<double>(n, n, std::move(row_ptr), std::move(col_idx), {}), {}, true, false);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(4);
  write_cache(dir.file("big.grb"), g);
  const std::string bytes = read_file(dir.file("big.grb"));
  ASSERT_GT(bytes.size(), std::size_t{64} << 20);
  std::uint32_t stored = 0;
  std::memcpy(&stored, bytes.data() + 40, sizeof stored);
  const auto serial = static_cast<std::uint32_t>(
      crc32_z(0, reinterpret_cast<const Bytef*>(bytes.data() + 64), bytes.size() - 64));
  EXPECT_EQ(stored, serial);
  EXPECT_EQ(arrays(read_cache(dir.file("big.grb"))), arrays(g));
  std::string damaged = bytes;
  damaged[bytes.size() - 1000] ^= 0x04;
  const std::string path = write_file(dir.file("bad.grb"), damaged);
  expect_input_error([&] { read_cache(path); }, path, 0, "checksum mismatch");
  omp_set_num_threads(threads);
}

TEST(Cache, MissingFileNamesPath) {
  expect_input_error([] { read_cache("/nonexistent/x.grb"); }, "/nonexistent/x.grb", 0,
                     "No such file or directory");
}

}  // namespace
}  // namespace graphrun::io::test
