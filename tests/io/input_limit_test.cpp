// LoadOptions::max_input_bytes: a file, a gzip stream or a pipe past the
// limit is a SizeError naming the file and the limit, raised before a
// regular file is read and as soon as decompression or a pipe passes it (a
// gzip bomb, /dev/zero); at the limit exactly, the graph reads.
#include <gtest/gtest.h>

#include <string>

#include "graphrun/io/load.hpp"
#include "graphrun/io/write.hpp"
#include "io_test_support.hpp"

namespace graphrun::io {
namespace {

using test::TempDir;
using test::write_file;

// "0 1\n1 2\n..." : a path, `lines` edges.
std::string path_text(int lines) {
  std::string s;
  for (int i = 0; i < lines; ++i) s += std::to_string(i) + " " + std::to_string(i + 1) + "\n";
  return s;
}

void expect_size_error(const std::string& path, const LoadOptions& o, const std::string& fragment) {
  try {
    load_graph(path, o);
    ADD_FAILURE() << "expected SizeError for " << path;
  } catch (const SizeError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(path + ": ", 0), 0u) << what;
    EXPECT_NE(what.find(fragment), std::string::npos) << what;
    EXPECT_NE(what.find("LoadOptions::max_input_bytes"), std::string::npos) << what;
  }
}

TEST(InputLimit, PlainFilesAtAndPastTheLimit) {
  TempDir dir;
  const std::string text = path_text(1000);
  for (const char* name : {"g.txt", "g.abc"}) {
    const std::string f = write_file(dir.file(name), text);
    LoadOptions o;
    o.abc = std::string(name).ends_with(".abc");
    o.max_input_bytes = text.size();
    EXPECT_EQ(load_graph(f, o).n_edges(), 1000) << name;
    o.max_input_bytes = text.size() - 1;
    expect_size_error(f, o, "the file is larger than the input limit");
  }
  const std::string mtx = write_file(
      dir.file("m.mtx"), "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n");
  LoadOptions o;
  o.max_input_bytes = 20;
  expect_size_error(mtx, o, "the file is larger than the input limit of 20 bytes");
}

// 4 MB of text in a gzip of a few KB: refused as decompression passes the
// limit; at the exact size of its text it reads.
TEST(InputLimit, GzipBombIsRefusedWhileInflating) {
  TempDir dir;
  const std::string text = path_text(1000) + std::string(4 << 20, '#');  // comments after
  const std::string f = test::write_gz(dir.file("bomb.txt.gz"), text);
  ASSERT_LT(std::filesystem::file_size(f), 64u << 10);
  LoadOptions o;
  o.max_input_bytes = 1 << 20;
  expect_size_error(f, o, "the decompressed text is larger than the input limit of 1048576 bytes");
  o.max_input_bytes = text.size();
  EXPECT_EQ(load_graph(f, o).n_edges(), 1000);
}

// One byte past the limit, in a stream that ends in the same inflate call
// that passes it (found by the edge_list_gz fuzz target).
TEST(InputLimit, GzipTextOneBytePastTheLimit) {
  TempDir dir;
  std::string text;
  for (int i = 0; i < 100; ++i) text += "0 1\n";  // compresses to a few dozen bytes
  const std::string f = test::write_gz(dir.file("g.txt.gz"), text);
  LoadOptions o;
  o.max_input_bytes = text.size() - 1;
  ASSERT_LE(std::filesystem::file_size(f), o.max_input_bytes);
  expect_size_error(f, o, "the decompressed text is larger than the input limit");
  o.max_input_bytes = text.size();
  EXPECT_EQ(load_graph(f, o).n_edges(), 1);  // the repeats are one edge
}

// A device that never ends: refused at the limit, no hang.
TEST(InputLimit, EndlessDeviceIsRefused) {
  LoadOptions o;
  o.max_input_bytes = 3 << 20;  // past the first 1 MB buffer, through two doublings
  expect_size_error("/dev/zero", o, "the input is larger than the input limit of 3145728 bytes");
}

TEST(InputLimit, CachePastTheLimit) {
  TempDir dir;
  const std::string f = write_file(dir.file("g.txt"), path_text(500));
  const std::string grb = dir.file("g.grb");
  write_cache(grb, load_graph(f));
  const auto size = std::filesystem::file_size(grb);
  LoadOptions o;
  o.max_input_bytes = size;
  EXPECT_EQ(load_graph(grb, o).n_edges(), 500);
  o.max_input_bytes = size - 1;
  expect_size_error(grb, o, "the cache is larger than the input limit");
}

// Without a limit set, text is bounded by half the machine's memory; every
// file here is far below it.
TEST(InputLimit, DefaultReadsOrdinaryFiles) {
  TempDir dir;
  const std::string f = test::write_gz(dir.file("g.txt.gz"), path_text(100));
  EXPECT_EQ(load_graph(f).n_edges(), 100);
}

}  // namespace
}  // namespace graphrun::io
