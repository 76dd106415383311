// The GAP Benchmark Suite's serialized graphs (.sg, .wsg): files laid out as
// gapbs's WriteSerializedGraph writes them (a 1-byte directed flag, the edge
// and vertex counts, the row offsets, the neighbours or {neighbour, weight}
// pairs, and for a directed graph the in-edges again) read back as the
// graph they describe: isolated vertices kept, unsorted rows sorted with
// their weights, --undirected symmetrizing a directed one, negative weights
// refused where asked; random graphs round-trip array for array; every
// damaged file is an InputError naming it.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "graphrun/io/load.hpp"
#include "io_test_support.hpp"
#include "support/random_graphs.hpp"

namespace graphrun::io::test {
namespace {

// One side of a serialized graph: offsets, neighbours, weights (none: .sg).
struct Side {
  std::vector<std::int64_t> offsets;
  std::vector<std::int32_t> neighbours;
  std::vector<std::int32_t> weights;
};

template <class T>
void append(std::string& out, const T& x) {
  out.append(reinterpret_cast<const char*>(&x), sizeof x);
}

std::string serialized(bool directed, std::int64_t n, const Side& out, const Side* in = nullptr) {
  std::string bytes;
  bytes.push_back(directed ? 1 : 0);
  append(bytes, static_cast<std::int64_t>(out.neighbours.size()));
  append(bytes, n);
  for (const Side* side : {&out, in}) {
    if (!side) continue;
    for (std::int64_t o : side->offsets) append(bytes, o);
    for (std::size_t k = 0; k < side->neighbours.size(); ++k) {
      append(bytes, side->neighbours[k]);
      if (!side->weights.empty()) append(bytes, side->weights[k]);
    }
  }
  return bytes;
}

// The out-edges of g as a serialized side, weights rounded to int32.
Side side_of(const Csr<double>& a) {
  Side s;
  s.offsets.assign(a.row_ptr().begin(), a.row_ptr().end());
  s.neighbours.assign(a.col_idx().begin(), a.col_idx().end());
  for (double w : a.values()) s.weights.push_back(static_cast<std::int32_t>(w));
  return s;
}

TEST(GapbsGraph, UndirectedWithAnIsolatedVertex) {
  TempDir dir;
  // A triangle 0-1-2 stored both ways, and vertex 3 with no edge.
  const Side s{{0, 2, 4, 6, 6}, {1, 2, 0, 2, 0, 1}, {}};
  const std::string path = write_file(dir.file("t.sg"), serialized(false, 4, s));
  const Graph g = load_graph(path);
  EXPECT_FALSE(g.directed());
  EXPECT_FALSE(g.weighted());
  EXPECT_EQ(g.n_vertices(), 4);
  EXPECT_EQ(g.adj().row_ptr(), (std::vector<offset_t>{0, 2, 4, 6, 6}));
  EXPECT_EQ(g.adj().col_idx(), (std::vector<vertex_t>{1, 2, 0, 2, 0, 1}));
  EXPECT_EQ(g.input_id(3), 3u);
}

TEST(GapbsGraph, DirectedSkipsTheInEdgesAndSymmetrizesWhenAsked) {
  TempDir dir;
  // 0 -> 1, 0 -> 2, 2 -> 1; the in-edges after them as gapbs writes them.
  const Side out{{0, 2, 2, 3}, {1, 2, 1}, {}};
  const Side in{{0, 0, 2, 3}, {0, 2, 0}, {}};
  const std::string path = write_file(dir.file("d.sg"), serialized(true, 3, out, &in));
  const Graph g = load_graph(path);
  EXPECT_TRUE(g.directed());
  EXPECT_EQ(g.adj().row_ptr(), (std::vector<offset_t>{0, 2, 2, 3}));
  EXPECT_EQ(g.adj().col_idx(), (std::vector<vertex_t>{1, 2, 1}));
  EXPECT_EQ(g.transpose().col_idx(), (std::vector<vertex_t>{0, 2, 0}));
  const Graph u = load_graph(path, options(true));
  EXPECT_FALSE(u.directed());
  EXPECT_EQ(u.adj().row_ptr(), (std::vector<offset_t>{0, 2, 4, 6}));
  EXPECT_EQ(u.adj().col_idx(), (std::vector<vertex_t>{1, 2, 0, 2, 0, 1}));
}

TEST(GapbsGraph, WeightedRowsSortedWithTheirWeights) {
  TempDir dir;
  // Row 0 out of order: {2: 7, 1: 5}; row 1: {0: -3}.
  const Side s{{0, 2, 3, 3}, {2, 1, 0}, {7, 5, -3}};
  const std::string path = write_file(dir.file("w.wsg"), serialized(false, 3, s));
  const Graph g = load_graph(path);
  EXPECT_TRUE(g.weighted());
  EXPECT_EQ(g.adj().col_idx(), (std::vector<vertex_t>{1, 2, 0}));
  EXPECT_EQ(g.adj().values(), (std::vector<double>{5, 7, -3}));
  // The suffix in capitals picks the same reader and the same layout.
  const std::string upper = write_file(dir.file("W.WSG"), serialized(false, 3, s));
  EXPECT_EQ(load_graph(upper).adj().values(), (std::vector<double>{5, 7, -3}));
  LoadOptions o;
  o.non_negative_weights = true;
  expect_input_error([&] { load_graph(path, o); }, path, 0, "negative");
  // The same bytes named .sg are read as int32 neighbours: the size cannot match.
  const std::string as_sg = write_file(dir.file("w.sg"), serialized(false, 3, s));
  expect_input_error([&] { load_graph(as_sg); }, as_sg, 0, "read as .sg");
}

TEST(GapbsGraph, RandomGraphsRoundTrip) {
  TempDir dir;
  for (bool directed : {false, true})
    for (bool valued : {false, true}) {
      const Graph g = ::graphrun::test::random_graph(::graphrun::test::GraphShape::power_law, 3000,
                                                     6.0, directed, valued, 91);
      Csr<double> a = g.adj();
      if (valued) {  // .wsg weights are integers
        std::vector<double> w(a.values().size());
        for (std::size_t k = 0; k < w.size(); ++k) w[k] = static_cast<double>(1 + k % 255);
        a = Csr<double>(a.n_rows(), a.n_cols(), a.row_ptr(), a.col_idx(), std::move(w));
      }
      const Side out = side_of(a);
      const Side in = side_of(a.transpose());
      const std::string path =
          write_file(dir.file(valued ? "r.wsg" : "r.sg"),
                     serialized(directed, a.n_rows(), out, directed ? &in : nullptr));
      const Graph back = load_graph(path);
      EXPECT_EQ(back.directed(), directed);
      EXPECT_EQ(back.adj().row_ptr(), a.row_ptr());
      EXPECT_EQ(back.adj().col_idx(), a.col_idx());
      EXPECT_EQ(back.adj().values(), a.values());
    }
}

TEST(GapbsGraph, DamagedFilesNameTheFile) {
  TempDir dir;
  const Side s{{0, 2, 4, 6}, {1, 2, 0, 2, 0, 1}, {}};
  const std::string good = serialized(false, 3, s);
  const auto refuse = [&](const std::string& name, const std::string& bytes,
                          const std::string& fragment) {
    const std::string path = write_file(dir.file(name), bytes);
    expect_input_error([&] { load_graph(path); }, path, 0, fragment);
  };
  refuse("empty.sg", "", "shorter than its 17-byte header");
  refuse("short.sg", good.substr(0, 10), "shorter than its 17-byte header");
  refuse("cut.sg", good.substr(0, good.size() - 1), "truncated GAP serialized graph");
  refuse("long.sg", good + "x", "oversized GAP serialized graph");
  std::string flag = good;
  flag[0] = 2;
  refuse("flag.sg", flag, "directed flag");
  std::string vertices = good;
  const std::int64_t negative = -5;
  std::memcpy(vertices.data() + 9, &negative, sizeof negative);
  refuse("vertices.sg", vertices, "is not a graph graphrun can hold");
  refuse("offsets.sg", serialized(false, 3, Side{{0, 4, 2, 6}, s.neighbours, {}}),
         "row offsets do not rise");
  refuse("range.sg", serialized(false, 3, Side{s.offsets, {1, 2, 0, 9, 0, 1}, {}}),
         "a neighbour outside 0 .. 2");
  refuse("twice.sg", serialized(false, 3, Side{s.offsets, {1, 1, 0, 2, 0, 1}, {}}),
         "names a neighbour twice");
  // Counts past what any file can hold are caught before allocating.
  std::string huge = good;
  const std::int64_t edges = std::int64_t{1} << 62;
  std::memcpy(huge.data() + 1, &edges, sizeof edges);
  const std::string path = write_file(dir.file("huge.sg"), huge);
  EXPECT_THROW(load_graph(path), Error);
}

// A named pipe under a binary format's name (.sg, .wsg, .grb) is refused
// before it is opened: opening it would wait for a writer that may never
// come.
TEST(GapbsGraph, NamedPipesAreRefusedWithoutWaiting) {
  TempDir dir;
  for (const char* name : {"p.sg", "p.wsg", "p.grb"}) {
    const std::string path = dir.file(name);
    ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0) << path;
    expect_input_error([&] { load_graph(path); }, path, 0, "must be a regular file");
  }
}

}  // namespace
}  // namespace graphrun::io::test
