// LoadOptions::non_negative_weights: the first negative weight of the file,
// in file order whatever the parse threads, ends the load naming the line,
// the edge by input ids or names, the weight and the caller's hint.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "graphrun/io/load.hpp"
#include "graphrun/io/write.hpp"
#include "io_test_support.hpp"

namespace graphrun::io::test {
namespace {

const char* const hint = "PageRank needs non-negative weights; use --unweighted";

LoadOptions refusing(int threads = 0, std::size_t chunk_bytes = 0) {
  LoadOptions o = options(false, threads, chunk_bytes);
  o.non_negative_weights = true;
  o.negative_weight_hint = hint;
  return o;
}

// The whole message, exactly.
template <class Fn>
void expect_message(Fn&& fn, const std::string& message) {
  try {
    fn();
    ADD_FAILURE() << "expected InputError: " << message;
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}

TEST(NegativeWeights, EdgeList) {
  TempDir dir;
  const std::string path =
      write_file(dir.file("g.txt"), "# weights\n1 2 0.5\n30 4 -5e-1\n5 6 -1\n");
  expect_message([&] { read_edge_list(path, refusing()); },
                 path + ":3: edge 30 -> 4 has weight -0.5, which is negative; " + hint);
  LoadOptions no_hint = refusing();
  no_hint.negative_weight_hint.clear();
  expect_message([&] { load_graph(path, no_hint); },
                 path + ":3: edge 30 -> 4 has weight -0.5, which is negative");
  const std::string gz = write_gz(dir.file("g.txt.gz"), read_file(path));
  expect_message([&] { load_graph(gz, refusing(2, 4)); },
                 gz + ":3: edge 30 -> 4 has weight -0.5, which is negative; " + hint);
}

TEST(NegativeWeights, OffByDefault) {
  TempDir dir;
  const std::string path = write_file(dir.file("g.txt"), "1 2 0.5\n3 4 -0.5\n");
  const Graph g = read_edge_list(path);
  EXPECT_EQ(g.adj().values(), (std::vector<double>{0.5, -0.5}));
  const Graph a = read_abc(write_file(dir.file("g.abc"), "a b -2\n"));
  EXPECT_EQ(a.adj().values(), (std::vector<double>{-2}));
  const Graph m = read_matrix_market_graph(write_file(
      dir.file("g.mtx"), "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 -3\n"));
  EXPECT_EQ(m.adj().values(), (std::vector<double>{-3}));
}

TEST(NegativeWeights, MinusZeroIsNotNegative) {
  TempDir dir;
  const std::string path = write_file(dir.file("g.txt"), "1 2 -0.0\n2 3 -0\n");
  const Graph g = read_edge_list(path, refusing());
  ASSERT_EQ(g.adj().values().size(), 2u);
  EXPECT_TRUE(std::signbit(g.adj().values()[0]));
  const std::string skew = write_file(dir.file("k.mtx"),
                                      "%%MatrixMarket matrix coordinate real skew-symmetric\n"
                                      "2 2 1\n"
                                      "2 1 -0.0\n");
  EXPECT_EQ(read_matrix_market_graph(skew, refusing()).n_edges(), 2);
}

TEST(NegativeWeights, Abc) {
  TempDir dir;
  const std::string path =
      write_file(dir.file("g.abc"), "YKR068C YAL001C\nZZZ YKR068C 0.25\nAAA\tZZZ -1e300\n");
  LoadOptions o = refusing();
  o.abc = true;
  expect_message([&] { load_graph(path, o); },
                 path + ":3: edge AAA -> ZZZ has weight -1e+300, which is negative; " + hint);
  // Names are quoted printably.
  const std::string esc = write_file(dir.file("esc.abc"), "a\x1b[1m b -2\n");
  expect_message([&] { load_graph(esc, o); },
                 esc + ":1: edge a\\x1b[1m -> b has weight -2, which is negative; " + hint);
}

TEST(NegativeWeights, MatrixMarket) {
  TempDir dir;
  const std::string banner = "%%MatrixMarket matrix coordinate real ";
  const std::string general =
      write_file(dir.file("g.mtx"), banner + "general\n% c\n3 3 3\n1 2 1\n3 1 -0.25\n2 2 -7\n");
  expect_message([&] { load_graph(general, refusing()); },
                 general + ":5: edge 3 -> 1 has weight -0.25, which is negative; " + hint);
  // Hypersparse: the indices are the ids all the same.
  const std::string sparse =
      write_file(dir.file("s.mtx"), banner +
                                        "general\n2000000000 2000000000 2\n9 1999999999 1\n"
                                        "1999999999 5 -4\n");
  expect_message([&] { load_graph(sparse, refusing(2, 3)); },
                 sparse + ":4: edge 1999999999 -> 5 has weight -4, which is negative; " + hint);
  // A skew-symmetric file implies the negated mirror of each entry.
  const std::string skew =
      write_file(dir.file("k.mtx"), banner + "skew-symmetric\n3 3 2\n3 3 1\n2 1 3\n");
  expect_message([&] { load_graph(skew, refusing()); },
                 skew +
                     ":4: edge 1 -> 2 has weight -3, which is negative (the mirror of entry 2 1 of "
                     "a skew-symmetric matrix); " +
                     hint);
  // Pattern files weigh 1 everywhere.
  const std::string symmetric = write_file(
      dir.file("y.mtx"), "%%MatrixMarket matrix coordinate pattern symmetric\n2 2 1\n2 1\n");
  EXPECT_EQ(read_matrix_market_graph(symmetric, refusing()).n_edges(), 2);
}

// A cache has no lines: the first negative weight in storage order, its
// edge by input ids, or by names.
TEST(NegativeWeights, Cache) {
  TempDir dir;
  const Graph g = read_edge_list(write_file(dir.file("g.txt"), "7 9 1\n12 7 -2.5\n9 12 -1\n"));
  const std::string path = dir.file("g.grb");
  write_cache(path, g);
  expect_message([&] { load_graph(path, refusing()); },
                 path + ": edge 9 -> 12 has weight -1, which is negative; " + hint);
  EXPECT_EQ(load_graph(path).n_edges(), 3);

  const Graph named = read_abc(write_file(dir.file("g.abc"), "b a 2\nc\x1b b -0.5\n"));
  const std::string names = dir.file("n.grb");
  write_cache(names, named);
  expect_message([&] { load_graph(names, refusing()); },
                 names + ": edge c\\x1b -> b has weight -0.5, which is negative; " + hint);
}

// Negative weights from line 1500 on, one per line, with chunks of a few
// lines each: whichever thread meets one first, the one reported is the
// first in the file; and an earlier error of another kind comes first.
TEST(NegativeWeights, FirstInFileOrderWhateverTheThreads) {
  TempDir dir;
  std::string text = "# header\n";
  for (int i = 2; i <= 3000; ++i)
    text += std::to_string(i) + " " + std::to_string(i + 1) + (i < 1500 ? " 1\n" : " -2\n");
  const std::string path = write_file(dir.file("g.txt"), text);
  std::string mtx = "%%MatrixMarket matrix coordinate real general\n3001 3001 2999\n" + text;
  mtx.erase(mtx.find("# header\n"), 9);
  const std::string mm = write_file(dir.file("g.mtx"), mtx);
  for (int threads : {1, 2, 4}) {
    for (std::size_t chunk : {std::size_t(0), std::size_t(7), std::size_t(64), std::size_t(3000)}) {
      SCOPED_TRACE(std::to_string(threads) + " threads, chunk_bytes " + std::to_string(chunk));
      for (int repeat = 0; repeat < 5; ++repeat) {
        expect_message([&] { read_edge_list(path, refusing(threads, chunk)); },
                       path + ":1500: edge 1500 -> 1501 has weight -2, which is negative; " + hint);
        expect_message([&] { read_matrix_market_graph(mm, refusing(threads, chunk)); },
                       mm + ":1501: edge 1500 -> 1501 has weight -2, which is negative; " + hint);
      }
    }
  }
  std::string bad = text;
  bad.insert(bad.find("\n1000 1001 1\n") + 1, "1 x 1\n");
  const std::string earlier = write_file(dir.file("earlier.txt"), bad);
  expect_input_error([&] { read_edge_list(earlier, refusing(2, 64)); }, earlier, 1000,
                     "target id 'x' is not a number");
}

}  // namespace
}  // namespace graphrun::io::test
