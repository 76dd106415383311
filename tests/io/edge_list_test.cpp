// SNAP edge lists: exact CSR for small files, plain and gzip.

#include <gtest/gtest.h>

#include "graphrun/io/load.hpp"
#include "graphrun/io/write.hpp"
#include "io_test_support.hpp"

namespace graphrun::io::test {
namespace {

// Ids 5, 10, 20, 30 -> dense 0, 1, 2, 3. A repeated edge, a self loop,
// comments of both kinds, blank lines, tabs and spaces.
const std::string unweighted =
    "# comment\n"
    "% another comment\n"
    "10 20\n"
    "20   30\n"
    "\n"
    "10\t20\n"
    "   \n"
    "30 30\n"
    "5 10\n";

TEST(EdgeList, UnweightedDirectedIsPatternCsrWithSortedIds) {
  TempDir dir;
  const Graph g = read_edge_list(write_file(dir.file("g.txt"), unweighted));
  EXPECT_TRUE(g.directed());
  EXPECT_FALSE(g.weighted());
  EXPECT_TRUE(g.adj().is_pattern());
  const Arrays want{{0, 1, 2, 3, 4}, {1, 2, 3, 3}, {}, {5, 10, 20, 30}};
  EXPECT_EQ(arrays(g), want);
  EXPECT_EQ(g.find(20), 2);
  EXPECT_EQ(g.input_id(3), 30u);
}

TEST(EdgeList, UndirectedSymmetrizesAndKeepsOneSelfLoop) {
  TempDir dir;
  LoadOptions opt;
  opt.undirected = true;
  const Graph g = read_edge_list(write_file(dir.file("g.txt"), unweighted), opt);
  EXPECT_FALSE(g.directed());
  const Arrays want{{0, 1, 3, 5, 7}, {1, 0, 2, 1, 3, 2, 3}, {}, {5, 10, 20, 30}};
  EXPECT_EQ(arrays(g), want);
}

const std::string weighted =
    "1 2 0.5\n"
    "2 1 1.5\n"
    "1 2 2\n"
    "3 3 4e0\n"
    "3 1 -1.25\n";

TEST(EdgeList, WeightedDuplicatesAreSummed) {
  TempDir dir;
  const Graph g = read_edge_list(write_file(dir.file("w.txt"), weighted));
  EXPECT_TRUE(g.weighted());
  EXPECT_FALSE(g.adj().is_pattern());
  const Arrays want{{0, 1, 2, 4}, {1, 0, 0, 2}, {2.5, 1.5, -1.25, 4.0}, {1, 2, 3}};
  EXPECT_EQ(arrays(g), want);
}

TEST(EdgeList, WeightedUndirectedSumsBothDirections) {
  TempDir dir;
  LoadOptions opt;
  opt.undirected = true;
  const Graph g = read_edge_list(write_file(dir.file("w.txt"), weighted), opt);
  // (1,2): 0.5 + 1.5 + 2 both ways; (3,1): -1.25 both ways; (3,3): 4 once.
  const Arrays want{{0, 2, 3, 5}, {1, 2, 0, 0, 2}, {4.0, -1.25, 4.0, -1.25, 4.0}, {1, 2, 3}};
  EXPECT_EQ(arrays(g), want);
}

TEST(EdgeList, DuplicatesMaxIsPassedThrough) {
  TempDir dir;
  LoadOptions opt;
  opt.duplicates = Duplicates::max;
  const Graph g = read_edge_list(write_file(dir.file("w.txt"), weighted), opt);
  EXPECT_EQ(g.adj().values(), (std::vector<double>{2.0, 1.5, -1.25, 4.0}));
}

TEST(EdgeList, GzipCrlfAndMissingFinalNewlineGiveTheSameGraph) {
  TempDir dir;
  const Graph plain = read_edge_list(write_file(dir.file("g.txt"), unweighted));
  std::string crlf;
  for (char c : unweighted) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  crlf.resize(crlf.size() - 2);  // no line end after the last line
  const Graph g1 = read_edge_list(write_file(dir.file("crlf.txt"), crlf));
  // gzip is detected by magic bytes, not by the name.
  const Graph g2 = read_edge_list(write_gz(dir.file("g.edges"), unweighted));
  const Graph g3 = read_edge_list(write_gz(dir.file("crlf.txt.gz"), crlf));
  EXPECT_EQ(arrays(g1), arrays(plain));
  EXPECT_EQ(arrays(g2), arrays(plain));
  EXPECT_EQ(arrays(g3), arrays(plain));
}

TEST(EdgeList, MultiMemberGzipIsReadToTheEnd) {
  TempDir dir;
  const std::string a = write_gz(dir.file("a.gz"), "1 2\n");
  const std::string b = write_gz(dir.file("b.gz"), "2 3\n");
  const std::string cat = write_file(dir.file("ab.gz"), read_file(a) + read_file(b));
  EXPECT_EQ(read_edge_list(cat).n_edges(), 2);
}

TEST(EdgeList, HugeIdsAreRemappedInAscendingOrder) {
  TempDir dir;
  // Ids far beyond the edge count take the sorted-table path of the id map.
  const std::string text =
      "18446744073709551615 0\n"
      "1000000000000 18446744073709551615\n"
      "0 1000000000000\n";
  const Graph g = read_edge_list(write_file(dir.file("big.txt"), text));
  const Arrays want{{0, 1, 2, 3}, {1, 2, 0}, {}, {0, 1000000000000ull, 18446744073709551615ull}};
  EXPECT_EQ(arrays(g), want);
}

// Ids are parsed into 32 bits while they fit; one id past 2^32 - 1 in any
// chunk has the whole file parsed again with 64-bit ids. The graph is the
// one a file with a small id in that place gives (the same rank among the
// ids), whatever the chunks, threads and weights; 2^32 - 1 itself still
// fits.
TEST(EdgeList, AnIdPast32BitsHasTheFileParsedWith64BitIds) {
  TempDir dir;
  for (const bool with_weights : {false, true}) {
    std::string text, small;
    for (int i = 0; i < 3000; ++i) {
      std::string line = std::to_string(i % 700);
      line += ' ';
      line += std::to_string((i * 7) % 701);
      if (with_weights) line += ' ', line += std::to_string(i % 5 + 1);
      line += '\n';
      text += line;
      small += line;
      if (i == 1800 || i == 2) {  // past 32 bits in one chunk, at 2^32 - 1 in another
        const char* big = i == 1800 ? "3 4294967296" : "3 4294967295";
        const char* stand_in = i == 1800 ? "3 90001" : "3 90000";
        const char* end = with_weights ? " 2\n" : "\n";
        text.append(big).append(end);
        small.append(stand_in).append(end);
      }
    }
    const std::string path = write_file(dir.file("big-id.txt"), text);
    const std::string small_path = write_file(dir.file("small-id.txt"), small);
    Arrays want = arrays(read_edge_list(small_path));
    ASSERT_EQ(want.ids.back(), 90001u);
    want.ids.end()[-2] = 4294967295u;
    want.ids.back() = 4294967296u;
    for (const int threads : {1, 2, 3})
      for (const std::size_t chunk : {std::size_t(0), std::size_t(64), std::size_t(4096)}) {
        LoadOptions opt;
        opt.threads = threads;
        opt.chunk_bytes = chunk;
        EXPECT_EQ(arrays(read_edge_list(path, opt)), want)
            << "threads " << threads << ", chunk " << chunk << (with_weights ? ", weighted" : "");
      }
  }
}

TEST(EdgeList, StatsAndProgress) {
  TempDir dir;
  std::vector<double> seen;
  LoadOptions opt;
  opt.on_progress = [&](double f) { seen.push_back(f); };
  LoadStats stats;
  read_edge_list(write_file(dir.file("g.txt"), unweighted), opt, &stats);
  EXPECT_EQ(stats.bytes_read, unweighted.size());
  EXPECT_GE(stats.seconds_read, 0.0);
  EXPECT_GE(stats.seconds_build, 0.0);
  ASSERT_FALSE(seen.empty());
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
  EXPECT_EQ(seen.back(), 1.0);
}

TEST(EdgeList, WrittenEdgeListReadsBackInInputIds) {
  TempDir dir;
  LoadOptions opt;
  opt.undirected = true;
  const Graph g = read_edge_list(write_file(dir.file("w.txt"), weighted), opt);
  write_edge_list(dir.file("out.txt"), g);
  EXPECT_EQ(arrays(read_edge_list(dir.file("out.txt"), opt)), arrays(g));

  const Graph d = read_edge_list(write_file(dir.file("g.txt"), unweighted));
  write_edge_list(dir.file("d.txt"), d);
  EXPECT_EQ(arrays(read_edge_list(dir.file("d.txt"))), arrays(d));
}

TEST(LoadGraph, DispatchesOnTheFileName) {
  TempDir dir;
  const std::string mtx = write_gz(
      dir.file("m.mtx.gz"), "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n");
  const Graph m = load_graph(mtx);
  EXPECT_EQ(m.input_ids(), (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(m.n_edges(), 1);
  const Graph e = load_graph(write_file(dir.file("e.MTX.txt"), "7 8\n"));
  EXPECT_EQ(e.input_ids(), (std::vector<std::uint64_t>{7, 8}));
}

}  // namespace
}  // namespace graphrun::io::test
