// Per-vertex value files (io::read_vertex_values): what pagerank --output
// writes reads back; ids and names; a graph that changed since; every bad
// line an InputError naming FILE:LINE.
#include "graphrun/io/vertex_values.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "io_test_support.hpp"

namespace graphrun::io {
namespace {

using test::expect_input_error;
using test::TempDir;
using test::write_file;

// Input ids 3, 5, 9, 12 (dense 0..3), a path 3 -> 5 -> 9 -> 12.
Graph numeric_graph() {
  Coo<double> coo;
  coo.n_rows = coo.n_cols = 4;
  coo.row = {0, 1, 2};
  coo.col = {1, 2, 3};
  return Graph(Csr<double>::from_coo(coo), {3, 5, 9, 12}, true, false);
}

Graph named_graph() {
  Coo<double> coo;
  coo.n_rows = coo.n_cols = 3;
  coo.row = {0, 1};
  coo.col = {1, 2};
  return Graph::with_names(Csr<double>::from_coo(coo), {"YKR068C", "YAL001C", "x"}, false, false);
}

TEST(VertexValues, ReadsIdsInAnyOrderWithCommentsAndExponents) {
  TempDir dir;
  const std::string f = write_file(dir.file("r.tsv"),
                                   "# ranks\n12\t0.25\n% another comment\n\n3 1e-1\r\n"
                                   "9\t+0.4\n5   2.5E-1\n");
  const VertexValues v = read_vertex_values(f, numeric_graph());
  EXPECT_EQ(v.value, (std::vector<double>{0.1, 0.25, 0.4, 0.25}));
  EXPECT_EQ(v.lines, 4);
  EXPECT_EQ(v.missing, 0);
  EXPECT_EQ(v.unknown, 0);
}

TEST(VertexValues, NamesAndGzip) {
  TempDir dir;
  const std::string f = test::write_gz(dir.file("r.tsv.gz"), "x 3\nYKR068C 1\n");
  const VertexValues v = read_vertex_values(f, named_graph());
  EXPECT_EQ(v.value, (std::vector<double>{1, 0, 3}));
  EXPECT_EQ(v.missing, 1);
}

// The graph changed since the file was written: new vertices start at 0,
// lines for vertices it lost are skipped, and both are counted.
TEST(VertexValues, AChangedGraphCountsMissingAndUnknown) {
  TempDir dir;
  const std::string f = write_file(dir.file("r.tsv"), "3 0.5\n4 0.2\n12 0.3\n99 1\n");
  const VertexValues v = read_vertex_values(f, numeric_graph());
  EXPECT_EQ(v.value, (std::vector<double>{0.5, 0, 0, 0.3}));
  EXPECT_EQ(v.lines, 4);
  EXPECT_EQ(v.missing, 2);
  EXPECT_EQ(v.unknown, 2);
}

TEST(VertexValues, BadLinesNameFileAndLine) {
  TempDir dir;
  const Graph g = numeric_graph();
  struct Case {
    std::string text;
    std::int64_t line;
    std::string fragment;
  };
  const Case cases[] = {
      {"3 0.5\n5\n", 2, "expected 2 fields"},
      {"3 0.5 7\n", 1, "expected 2 fields"},
      {"3 abc\n", 1, "'abc' is not a finite number"},
      {"# x\n3 nan\n", 2, "is not a finite number"},
      {"3 inf\n", 1, "is not a finite number"},
      {"3 1e999\n", 1, "is not a finite number"},
      {"3 0.5x\n", 1, "is not a finite number"},
      {"3 0.5\n5 0.1\n3 0.2\n", 3, "vertex '3' appears twice (first on line 1)"},
  };
  for (const Case& c : cases) {
    const std::string f = write_file(dir.file("bad.tsv"), c.text);
    expect_input_error([&] { read_vertex_values(f, g); }, f, c.line, c.fragment);
  }
  // Negative values: allowed unless refused.
  const std::string neg = write_file(dir.file("neg.tsv"), "3 0.5\n5 -0.1\n");
  EXPECT_EQ(read_vertex_values(neg, g).value[1], -0.1);
  expect_input_error([&] { read_vertex_values(neg, g, {.non_negative = true, .graph_name = ""}); },
                     neg, 2, "'-0.1' is negative");
}

TEST(VertexValues, EmptyOrMissingFileIsAnError) {
  TempDir dir;
  const Graph g = numeric_graph();
  for (const char* text : {"", "# only a comment\n\n"}) {
    const std::string f = write_file(dir.file("empty.tsv"), text);
    expect_input_error([&] { read_vertex_values(f, g); }, f, 0, "no 'ID<TAB>VALUE' line");
  }
  EXPECT_THROW(read_vertex_values(dir.file("absent.tsv"), g), InputError);
}

}  // namespace
}  // namespace graphrun::io
