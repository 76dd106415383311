// Writers: a name ending in ".gz" writes gzip that the readers read back as
// the same graph or matrix; plain names stay plain; all or nothing either way.

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "graphrun/io/load.hpp"
#include "graphrun/io/write.hpp"
#include "io_test_support.hpp"

namespace graphrun::io::test {
namespace {

bool has_gzip_magic(const std::string& path) {
  const std::string bytes = read_file(path);
  return bytes.size() >= 18 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

// Decompressed by zlib's own gzip reader, independently of graphrun's.
std::string gunzip(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  EXPECT_NE(f, nullptr) << path;
  if (!f) return {};
  std::string text;
  char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) text.append(buf, std::size_t(n));
  EXPECT_EQ(n, 0) << path;
  EXPECT_EQ(gzclose(f), Z_OK) << path;
  return text;
}

// A random edge list, large enough that the compressed output takes many
// buffers: ids spread over 64 bits, weights with all their digits.
std::string random_edge_list(std::size_t lines, bool weighted) {
  std::mt19937_64 rng(42);
  std::vector<std::uint64_t> ids(5000);
  for (auto& id : ids) id = rng() >> 1;
  std::string text = "# random\n";
  char line[96];
  for (std::size_t i = 0; i < lines; ++i) {
    const auto u = ids[rng() % ids.size()], v = ids[rng() % ids.size()];
    const double w = std::ldexp(static_cast<double>(rng() >> 11), -40);
    const int n = weighted ? std::snprintf(line, sizeof line, "%llu\t%llu\t%.17g\n",
                                           (unsigned long long)u, (unsigned long long)v, w)
                           : std::snprintf(line, sizeof line, "%llu\t%llu\n", (unsigned long long)u,
                                           (unsigned long long)v);
    text.append(line, std::size_t(n));
  }
  return text;
}

TEST(WriteGzip, EdgeListRoundTrip) {
  TempDir dir;
  for (const bool undirected : {false, true})
    for (const bool weighted : {false, true}) {
      SCOPED_TRACE(std::string(undirected ? "undirected" : "directed") +
                   (weighted ? " weighted" : " unweighted"));
      const Graph g = read_edge_list(
          write_file(dir.file("in.txt"), random_edge_list(50000, weighted)), options(undirected));
      write_edge_list(dir.file("g.txt.gz"), g);
      write_edge_list(dir.file("g.txt"), g);
      EXPECT_TRUE(has_gzip_magic(dir.file("g.txt.gz")));
      EXPECT_FALSE(has_gzip_magic(dir.file("g.txt")));
      EXPECT_LT(fs::file_size(dir.file("g.txt.gz")), fs::file_size(dir.file("g.txt")));
      // The same text, compressed.
      EXPECT_TRUE(gunzip(dir.file("g.txt.gz")) == read_file(dir.file("g.txt")));
      const Graph back = load_graph(dir.file("g.txt.gz"), options(undirected));
      EXPECT_EQ(arrays(back), arrays(g));
      EXPECT_EQ(back.weighted(), g.weighted());
      EXPECT_EQ(arrays(load_graph(dir.file("g.txt"), options(undirected))), arrays(g));
    }
}

// Little text: the whole stream comes out at finish().
TEST(WriteGzip, EmptyGraphIsAValidGzipFile) {
  TempDir dir;
  const Graph g(Csr<double>::from_coo(Coo<double>{}), {}, true, false);
  write_edge_list(dir.file("e.txt.gz"), g);
  write_edge_list(dir.file("e.txt"), g);
  EXPECT_TRUE(has_gzip_magic(dir.file("e.txt.gz")));
  EXPECT_EQ(gunzip(dir.file("e.txt.gz")), read_file(dir.file("e.txt")));
  EXPECT_EQ(read_file(dir.file("e.txt")).rfind("# directed graph", 0), 0u);
}

TEST(WriteGzip, NamedGraphRoundTrip) {
  TempDir dir;
  Coo<double> coo{3, 3, {0, 1, 2}, {1, 2, 0}, {0.5, 1.5, 2.5}};
  const Graph g =
      Graph::with_names(Csr<double>::from_coo(coo), {"alpha", "beta", "gamma"}, true, true);
  write_edge_list(dir.file("n.abc.gz"), g);
  EXPECT_TRUE(has_gzip_magic(dir.file("n.abc.gz")));
  const Graph back = read_abc(dir.file("n.abc.gz"));
  EXPECT_EQ(arrays(back), arrays(g));
  for (vertex_t v = 0; v < 3; ++v) EXPECT_EQ(back.name(v), g.name(v));
}

TEST(WriteGzip, MatrixMarketRoundTrip) {
  TempDir dir;
  std::mt19937_64 rng(7);
  Coo<double> coo;
  coo.n_rows = 3000;
  coo.n_cols = 2000;
  for (int k = 0; k < 100000; ++k) {
    coo.row.push_back(static_cast<vertex_t>(rng() % 3000));
    coo.col.push_back(static_cast<vertex_t>(rng() % 2000));
    coo.val.push_back(std::ldexp(static_cast<double>(rng() >> 11), -60) - 1.0);
  }
  const Csr<double> a = Csr<double>::from_coo(coo);
  write_matrix_market(dir.file("m.mtx.gz"), a);
  write_matrix_market(dir.file("m.mtx"), a);
  EXPECT_TRUE(has_gzip_magic(dir.file("m.mtx.gz")));
  EXPECT_TRUE(gunzip(dir.file("m.mtx.gz")) == read_file(dir.file("m.mtx")));
  const Csr<double> back = read_matrix_market(dir.file("m.mtx.gz"));
  EXPECT_EQ(back.n_rows(), a.n_rows());
  EXPECT_EQ(back.n_cols(), a.n_cols());
  EXPECT_EQ(back.row_ptr(), a.row_ptr());
  EXPECT_EQ(back.col_idx(), a.col_idx());
  EXPECT_EQ(back.values(), a.values());

  // A pattern matrix, read as a graph.
  Coo<double> p{4, 4, {0, 1, 3}, {1, 2, 0}, {}};
  write_matrix_market(dir.file("p.mtx.gz"), Csr<double>::from_coo(p));
  EXPECT_EQ(gunzip(dir.file("p.mtx.gz")).rfind("%%MatrixMarket matrix coordinate pattern", 0), 0u);
  const Graph g = load_graph(dir.file("p.mtx.gz"));
  EXPECT_EQ(g.n_vertices(), 4);
  EXPECT_EQ(g.n_edges(), 3);
}

// A writer that fails part way leaves nothing behind, compressed or not.
TEST(WriteGzip, FailedWriteLeavesNothing) {
  TempDir dir;
  Coo<double> coo{2, 2, {0}, {1}, {}};
  const Graph hash = Graph::with_names(Csr<double>::from_coo(coo), {"#a", "c"}, true, false);
  EXPECT_THROW(write_edge_list(dir.file("x.abc.gz"), hash), ArgumentError);
  write_file(dir.file("y.abc.gz"), "old\n");
  EXPECT_THROW(write_edge_list(dir.file("y.abc.gz"), hash), ArgumentError);
  EXPECT_EQ(read_file(dir.file("y.abc.gz")), "old\n");
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(dir.path())) left.push_back(e.path().filename());
  EXPECT_EQ(left, std::vector<std::string>{"y.abc.gz"});
}

// Disk full while compressing is an Error (exit status 1), not a path error.
TEST(WriteGzip, DiskFullIsAnError) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  TempDir dir;
  fs::create_symlink("/dev/full", dir.file("full.txt.gz"));
  const Graph g = read_edge_list(write_file(dir.file("in.txt"), random_edge_list(1000, true)));
  try {
    write_edge_list(dir.file("full.txt.gz"), g);
    ADD_FAILURE() << "expected an error";
  } catch (const ArgumentError& e) {
    ADD_FAILURE() << "not a path error: " << e.what();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("No space left on device"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace graphrun::io::test
