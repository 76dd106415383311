// Matrix Market: fields, symmetries, lying headers, write -> read round trip.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <string>
#include <vector>

#include "graphrun/io/load.hpp"
#include "graphrun/io/write.hpp"
#include "io_test_support.hpp"

namespace graphrun::io::test {
namespace {

struct CsrArrays {
  vertex_t rows, cols;
  std::vector<offset_t> row_ptr;
  std::vector<vertex_t> col_idx;
  std::vector<double> values;
  bool operator==(const CsrArrays&) const = default;
};

CsrArrays csr_arrays(const Csr<double>& a) {
  return {a.n_rows(), a.n_cols(), a.row_ptr(), a.col_idx(), a.values()};
}

TEST(MatrixMarket, RealGeneralRectangularSumsDuplicates) {
  TempDir dir;
  const std::string path = write_file(dir.file("a.mtx"),
                                      "%%MatrixMarket matrix coordinate real general\n"
                                      "% a comment\n"
                                      "%\n"
                                      "3 4 4\n"
                                      "1 1 1.5\n"
                                      "3 4 -2\n"
                                      "2 1 3e0\n"
                                      "1 1 0.5\n");
  const CsrArrays want{3, 4, {0, 1, 2, 3}, {0, 0, 3}, {2.0, 3.0, -2.0}};
  EXPECT_EQ(csr_arrays(read_matrix_market(path)), want);
}

TEST(MatrixMarket, IntegerSymmetricIsExpanded) {
  TempDir dir;
  const std::string path = write_file(dir.file("s.mtx"),
                                      "%%MatrixMarket matrix coordinate integer symmetric\n"
                                      "3 3 3\n"
                                      "1 1 4\n"
                                      "2 1 5\n"
                                      "3 2 6\n");
  const CsrArrays want{3, 3, {0, 2, 4, 5}, {0, 1, 0, 2, 1}, {4, 5, 5, 6, 6}};
  EXPECT_EQ(csr_arrays(read_matrix_market(path)), want);
}

TEST(MatrixMarket, SkewSymmetricNegatesTheMirror) {
  TempDir dir;
  const std::string path = write_file(dir.file("k.mtx"),
                                      "%%MatrixMarket matrix coordinate real skew-symmetric\n"
                                      "2 2 1\n"
                                      "2 1 3\n");
  const CsrArrays want{2, 2, {0, 1, 2}, {1, 0}, {-3, 3}};
  EXPECT_EQ(csr_arrays(read_matrix_market(path)), want);
}

TEST(MatrixMarket, PatternSymmetricGraphIsUndirectedWithIdsOneToN) {
  TempDir dir;
  const std::string path = write_gz(dir.file("p.mtx.gz"),
                                    "%%MatrixMarket matrix coordinate pattern symmetric\r\n"
                                    "4 4 3\r\n"
                                    "2 1\r\n"
                                    "3 3\r\n"
                                    "4 2\r\n");
  const Graph g = load_graph(path);
  EXPECT_FALSE(g.directed());
  EXPECT_FALSE(g.weighted());
  EXPECT_TRUE(g.adj().is_pattern());
  const Arrays want{{0, 1, 3, 4, 5}, {1, 0, 3, 2, 1}, {}, {1, 2, 3, 4}};
  EXPECT_EQ(arrays(g), want);
}

TEST(MatrixMarket, GeneralGraphIsDirectedUnlessAskedOtherwise) {
  TempDir dir;
  const std::string path = write_file(dir.file("d.mtx"),
                                      "%%MatrixMarket matrix coordinate real general\n"
                                      "3 3 2\n"
                                      "1 2 0.25\n"
                                      "2 1 0.5\n");
  const Graph d = read_matrix_market_graph(path);
  EXPECT_TRUE(d.directed());
  EXPECT_TRUE(d.weighted());
  EXPECT_EQ(arrays(d), (Arrays{{0, 1, 2, 2}, {1, 0}, {0.25, 0.5}, {1, 2, 3}}));
  LoadOptions opt;
  opt.undirected = true;
  const Graph u = read_matrix_market_graph(path, opt);
  EXPECT_FALSE(u.directed());
  EXPECT_EQ(arrays(u), (Arrays{{0, 1, 2, 2}, {1, 0}, {0.75, 0.75}, {1, 2, 3}}));
}

TEST(MatrixMarket, WriteReadRoundTripIsExact) {
  TempDir dir;
  Coo<double> coo;
  coo.n_rows = 4;
  coo.n_cols = 6;
  coo.row = {0, 3, 3, 1, 0};
  coo.col = {5, 0, 2, 1, 0};
  coo.val = {0.1, 1.0 / 3.0, -2.5e10, 1e-300, -0.0};
  const Csr<double> a = Csr<double>::from_coo(coo);
  write_matrix_market(dir.file("rt.mtx"), a);
  EXPECT_EQ(csr_arrays(read_matrix_market(dir.file("rt.mtx"))), csr_arrays(a));
  EXPECT_NE(read_file(dir.file("rt.mtx")).find("0.10000000000000001"), std::string::npos);

  coo.val.clear();
  const Csr<double> p = Csr<double>::from_coo(coo);
  write_matrix_market(dir.file("p.mtx"), p);
  EXPECT_EQ(
      read_file(dir.file("p.mtx")).rfind("%%MatrixMarket matrix coordinate pattern general\n", 0),
      0u);
  const Csr<double> back = read_matrix_market(dir.file("p.mtx"));
  EXPECT_TRUE(back.is_pattern());
  EXPECT_EQ(csr_arrays(back), csr_arrays(p));
}

struct BadMtx {
  const char* name;
  const char* text;
  std::int64_t line;
  const char* fragment;
};

const BadMtx bad_mtx[] = {
    {"too_few", "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1\n2 2 2\n", 4,
     "only 2 entries, the header declares 3"},
    {"too_many",
     "%%MatrixMarket matrix coordinate real general\n% c\n3 3 2\n1 1 1\n2 2 2\n\n3 3 3\n", 7,
     "more entries than the 2 declared"},
    {"row_beyond", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n4 2 2\n", 4,
     "row index 4 beyond the 3 rows"},
    {"col_beyond", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 3\n", 3,
     "column index 3 beyond the 2 columns"},
    {"index_zero", "%%MatrixMarket matrix coordinate real general\n3 3 1\n0 1 1\n", 3,
     "row index 0 (Matrix Market indices start at 1)"},
    {"missing_value", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1\n", 3,
     "expected 3 columns"},
    {"pattern_with_value", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 1 5\n", 3,
     "expected 2 columns"},
    {"nan_value", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 nan\n", 3,
     "not a finite number"},
    {"negative_index", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 -1 1\n", 3,
     "negative"},
    {"complex", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", 1,
     "unsupported Matrix Market field 'complex'"},
    {"array", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", 1,
     "unsupported Matrix Market format 'array'"},
    {"hermitian", "%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n", 1,
     "unsupported Matrix Market symmetry 'hermitian'"},
    {"no_banner", "3 3 1\n1 1 1\n", 1, "not a Matrix Market file"},
    {"bad_size_line", "%%MatrixMarket matrix coordinate real general\n% c\n3 x 1\n", 3,
     "column count 'x' is not a number"},
    {"short_size_line", "%%MatrixMarket matrix coordinate real general\n3 3\n", 2,
     "size line needs 3 numbers"},
    {"symmetric_rectangular", "%%MatrixMarket matrix coordinate real symmetric\n2 3 0\n", 2,
     "must be square"},
};

class MatrixMarketErrors : public ::testing::TestWithParam<BadMtx> {};

TEST_P(MatrixMarketErrors, NameFileAndLine) {
  const BadMtx& c = GetParam();
  TempDir dir;
  const std::string path = write_file(dir.file(std::string(c.name) + ".mtx"), c.text);
  expect_input_error([&] { read_matrix_market(path); }, path, c.line, c.fragment);
  LoadOptions opt;
  opt.threads = 2;
  opt.chunk_bytes = 4;
  expect_input_error([&] { read_matrix_market_graph(path, opt); }, path, c.line, c.fragment);
}

INSTANTIATE_TEST_SUITE_P(Malformed, MatrixMarketErrors, ::testing::ValuesIn(bad_mtx),
                         [](const auto& test_info) { return std::string(test_info.param.name); });

TEST(MatrixMarketErrors, GraphMustBeSquare) {
  TempDir dir;
  const std::string path = write_file(dir.file("r.mtx"),
                                      "%%MatrixMarket matrix coordinate real general\n"
                                      "2 3 1\n"
                                      "1 3 1\n");
  expect_input_error([&] { read_matrix_market_graph(path); }, path, 2, "square");
  EXPECT_EQ(read_matrix_market(path).n_cols(), 3);  // fine as a plain matrix
}

TEST(MatrixMarketErrors, NoSizeLine) {
  TempDir dir;
  const std::string path =
      write_file(dir.file("n.mtx"), "%%MatrixMarket matrix coordinate real general\n% c\n");
  expect_input_error([&] { read_matrix_market(path); }, path, 0, "no size line");
}

TEST(MatrixMarketErrors, TooManyRowsIsASizeError) {
  TempDir dir;
  const std::string path = write_file(dir.file("huge.mtx"),
                                      "%%MatrixMarket matrix coordinate pattern general\n"
                                      "3000000000 3 0\n");
  try {
    read_matrix_market(path);
    ADD_FAILURE() << "expected SizeError";
  } catch (const SizeError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

// A few bytes may declare 2^31 - 2 rows: 34 GB of row pointers and ids. Past
// the machine's memory that is refused before anything is allocated, with
// the file, the line and the bytes (found by fuzzing: such files made the
// reader ask for the memory, which the kernel may grant and then kill for).
// Rows that are not hypersparse, since the entry count says as many: the
// file lies about them, but that is found out only after reading.
TEST(MatrixMarketErrors, DeclaredSizePastTheMachinesMemoryIsRefused) {
  const double memory =
      static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
  if (memory >= 16.0 * 2147483647.0)
    GTEST_SKIP() << "this machine has the memory such a matrix asks for";
  TempDir dir;
  const std::string path = write_file(dir.file("lying.mtx"),
                                      "%%MatrixMarket matrix coordinate pattern general\n"
                                      "% a comment\n"
                                      "2147483646 2147483646 600000000\n"
                                      "1 1\n");
  for (int graph = 0; graph < 2; ++graph) {
    try {
      if (graph)
        read_matrix_market_graph(path);
      else
        read_matrix_market(path);
      ADD_FAILURE() << "expected SizeError";
    } catch (const SizeError& e) {
      const std::string m = e.what();
      EXPECT_EQ(m.rfind(path + ":3: the size line declares 2147483646 rows", 0), 0u) << m;
      EXPECT_NE(m.find("GB of memory"), std::string::npos) << m;
    }
  }
}

// Peak resident memory of this process in bytes (VmHWM).
std::int64_t peak_rss() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::stoll(line.substr(6)) * 1024;
  return -1;
}

// The peak, reset first where the kernel allows, so that the peak of what
// follows shows even when an earlier test went higher.
std::int64_t reset_peak_rss() {
  std::ofstream("/proc/self/clear_refs") << "5";
  return peak_rss();
}

constexpr std::int64_t billion = 1000000000;

// One entry in a 10^9 x 10^9 matrix: 16 GB of rows and ids if every declared
// vertex were kept, a graph of the two indices that occur instead, quickly
// and in little memory, their ids the file's indices.
TEST(MatrixMarketHypersparse, OneEntryOfABillionRowsIsAGraphOfTwoVertices) {
  TempDir dir;
  const std::string path = write_file(dir.file("one.mtx"),
                                      "%%MatrixMarket matrix coordinate real general\n"
                                      "1000000000 1000000000 1\n"
                                      "999999999 7 2.5\n");
  const std::int64_t before = reset_peak_rss();
  ASSERT_GT(before, 0);
  const auto t0 = std::chrono::steady_clock::now();
  LoadStats stats;
  const Graph g = read_matrix_market_graph(path, {}, &stats);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(peak_rss() - before, std::int64_t(200) << 20);
  EXPECT_LT(seconds, 5.0);
  EXPECT_TRUE(g.directed());
  EXPECT_TRUE(g.weighted());
  EXPECT_EQ(arrays(g), (Arrays{{0, 0, 1}, {0}, {2.5}, {7, 999999999}}));
  EXPECT_EQ(g.find(999999999), 1);
  EXPECT_EQ(g.find(7), 0);
  EXPECT_FALSE(g.find(1).has_value());
  EXPECT_EQ(g.label(1), "999999999");
  EXPECT_EQ(stats.declared_vertices, billion);
  EXPECT_EQ(stats.omitted_vertices, billion - 2);
}

TEST(MatrixMarketHypersparse, SymmetricDiagonalEntryIsOneVertex) {
  TempDir dir;
  const std::string path = write_gz(dir.file("loop.mtx.gz"),
                                    "%%MatrixMarket matrix coordinate pattern symmetric\n"
                                    "1000000000 1000000000 1\n"
                                    "5 5\n");
  LoadStats stats;
  const Graph g = load_graph(path, {}, &stats);
  EXPECT_FALSE(g.directed());
  EXPECT_EQ(arrays(g), (Arrays{{0, 1}, {0}, {}, {5}}));
  EXPECT_EQ(stats.omitted_vertices, billion - 1);
}

// Indices past 2^31 are ids like any other: only the distinct ones count.
TEST(MatrixMarketHypersparse, IndicesPastTwoToThe31AreIds) {
  TempDir dir;
  const std::string path = write_file(dir.file("big.mtx"),
                                      "%%MatrixMarket matrix coordinate integer symmetric\n"
                                      "10000000000000 10000000000000 2\n"
                                      "10000000000000 3 4\n"
                                      "5000000000 3 -1\n");
  const Graph g = read_matrix_market_graph(path);
  EXPECT_EQ(
      arrays(g),
      (Arrays{{0, 2, 3, 4}, {1, 2, 0, 0}, {-1, 4, -1, 4}, {3, 5000000000ull, 10000000000000ull}}));
}

// Undirected, duplicates, skew-symmetric and chunked parsing behave as in a
// dense file: the hypersparse graph is the dense one restricted to the
// indices that occur.
TEST(MatrixMarketHypersparse, EqualsTheDenseGraphOnTheIndicesThatOccur) {
  TempDir dir;
  const std::string entries =
      "40 2 1.5\n2 40 2\n40 2 0.5\n17 17 3\n9 40 -1\n% a comment\n\n2 9 4\n40 17 5\n";
  for (const char* symmetry : {"general", "skew-symmetric"}) {
    const std::string banner =
        std::string("%%MatrixMarket matrix coordinate real ") + symmetry + "\n";
    const std::string sparse =
        write_file(dir.file("sparse.mtx"), banner + "2000000000 2000000000 7\n" + entries);
    const std::string dense = write_file(dir.file("dense.mtx"), banner + "40 40 7\n" + entries);
    for (bool undirected : {false, true}) {
      SCOPED_TRACE(std::string(symmetry) + (undirected ? " undirected" : ""));
      const Graph want = read_matrix_market_graph(dense, options(undirected));
      // Dense vertex v has id v + 1; keep the rows of those that occur.
      Arrays restricted;
      const std::vector<std::uint64_t> occur = {2, 9, 17, 40};
      restricted.ids = occur;
      restricted.row_ptr = {0};
      for (std::uint64_t id : occur) {
        const vertex_t v = *want.find(id);
        for (offset_t k = want.adj().row_ptr()[v]; k < want.adj().row_ptr()[v + 1]; ++k) {
          const auto col = want.input_id(want.adj().col_idx()[k]);
          restricted.col_idx.push_back(
              static_cast<vertex_t>(std::find(occur.begin(), occur.end(), col) - occur.begin()));
          restricted.values.push_back(want.adj().values()[k]);
        }
        restricted.row_ptr.push_back(static_cast<offset_t>(restricted.col_idx.size()));
      }
      for (std::size_t chunk : {std::size_t(0), std::size_t(5)}) {
        const Graph g = read_matrix_market_graph(sparse, options(undirected, 2, chunk));
        EXPECT_EQ(arrays(g), restricted) << "chunk_bytes " << chunk;
        EXPECT_EQ(g.directed(), want.directed());
      }
    }
  }
}

// Below the rule the declared vertices are all kept, isolated ones too.
TEST(MatrixMarketHypersparse, SmallOrDenseFilesKeepIsolatedVertices) {
  TempDir dir;
  LoadStats stats;
  const std::string small = write_file(dir.file("small.mtx"),
                                       "%%MatrixMarket matrix coordinate pattern general\n"
                                       "5 5 1\n"
                                       "4 2\n");
  EXPECT_EQ(arrays(read_matrix_market_graph(small, {}, &stats)),
            (Arrays{{0, 0, 0, 0, 1, 1}, {1}, {}, {1, 2, 3, 4, 5}}));
  EXPECT_EQ(stats.declared_vertices, 5);
  EXPECT_EQ(stats.omitted_vertices, 0);

  // 2^20 rows and one entry: at the bound, still dense.
  const std::string bound = write_file(dir.file("bound.mtx"),
                                       "%%MatrixMarket matrix coordinate pattern general\n"
                                       "1048576 1048576 1\n"
                                       "1 1048576\n");
  const Graph b = read_matrix_market_graph(bound, {}, &stats);
  EXPECT_EQ(b.n_vertices(), 1048576);
  EXPECT_EQ(b.input_id(1048575), 1048576u);
  EXPECT_EQ(stats.omitted_vertices, 0);
  const std::string past = write_file(dir.file("past.mtx"),
                                      "%%MatrixMarket matrix coordinate pattern general\n"
                                      "1048577 1048577 1\n"
                                      "1 1048577\n");
  EXPECT_EQ(read_matrix_market_graph(past, {}, &stats).n_vertices(), 2);
  EXPECT_EQ(stats.omitted_vertices, 1048575);

  // 2^20 + 1000 rows, 200000 entries: more than 4 rows per entry in a
  // general file, fewer than 4 per stored entry once symmetric doubles them.
  std::string body;
  for (int i = 1; i <= 200000; ++i) body += std::to_string(i) + " " + std::to_string(i) + "\n";
  for (const char* symmetry : {"general", "symmetric"}) {
    const std::string path =
        write_file(dir.file("mid.mtx"), std::string("%%MatrixMarket matrix coordinate pattern ") +
                                            symmetry + "\n1049576 1049576 200000\n" + body);
    const Graph g = read_matrix_market_graph(path, {}, &stats);
    const bool general = std::string(symmetry) == "general";
    EXPECT_EQ(g.n_vertices(), general ? 200000 : 1049576) << symmetry;
    EXPECT_EQ(stats.omitted_vertices, general ? 849576 : 0) << symmetry;
  }
}

// A plain matrix keeps every row, so hypersparse rows are refused from the
// size line: promptly, in little memory, saying why.
TEST(MatrixMarketHypersparse, PlainMatrixRefusesHypersparseRows) {
  TempDir dir;
  const std::string path = write_file(dir.file("one.mtx"),
                                      "%%MatrixMarket matrix coordinate real general\n"
                                      "% c\n"
                                      "1000000000 1000000000 1\n"
                                      "999999999 7 2.5\n");
  const std::int64_t before = reset_peak_rss();
  try {
    read_matrix_market(path);
    ADD_FAILURE() << "expected SizeError";
  } catch (const SizeError& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind(path + ":3: the size line declares a 1000000000 x 1000000000 matrix with 1 "
                             "entry",
                      0),
              0u)
        << m;
    EXPECT_NE(m.find("8000000008 bytes"), std::string::npos) << m;
    EXPECT_NE(m.find("graph view"), std::string::npos) << m;
  }
  EXPECT_LT(peak_rss() - before, std::int64_t(200) << 20);
  // Few rows and many columns cost nothing: still read.
  const std::string wide = write_file(dir.file("wide.mtx"),
                                      "%%MatrixMarket matrix coordinate real general\n"
                                      "2 1000000000 1\n"
                                      "2 999999999 2.5\n");
  EXPECT_EQ(read_matrix_market(wide).n_cols(), billion);
}

}  // namespace
}  // namespace graphrun::io::test
