// Every malformed edge list is an InputError naming the file and the line.

#include <gtest/gtest.h>

#include "graphrun/io/load.hpp"
#include "io_test_support.hpp"

namespace graphrun::io::test {
namespace {

struct BadCase {
  const char* name;
  const char* text;
  std::int64_t line;
  const char* fragment;
};

const BadCase bad_cases[] = {
    {"non_numeric", "1 2\n3 x\n", 2, "target id 'x' is not a number"},
    {"non_numeric_suffix", "# c\n1 2\n12a 3\n", 3, "source id '12a' is not a number"},
    {"negative", "1 2\n\n-3 4\n", 3, "source id '-3' is negative"},
    {"beyond_64_bits", "1 18446744073709551616\n", 1,
     "'18446744073709551616' does not fit in 64 bits"},
    {"max_64_bits_then_bad", "18446744073709551615 1\n1 99999999999999999999\n", 2, "64 bits"},
    {"missing_column", "1 2\n3\n", 2,
     "expected 2 columns (source, target) as on the first data line, found 1"},
    {"third_column_later", "1 2\n2 3\n1 2 3\n", 3, "expected 2 columns"},
    {"missing_weight", "1 2 1.0\n1 2\n", 2, "expected 3 columns"},
    {"extra_column", "1 2 1.0\n1 2 1 4\n", 2, "found 4"},
    {"first_line_four_columns", "# h\n1 2 3 4\n", 2, "expected 2 or 3 columns"},
    {"first_line_one_column", "7\n", 1, "expected 2 or 3 columns"},
    {"weight_nan", "1 2 1\n1 2 nan\n", 2, "weight 'nan' is not a finite number"},
    {"weight_inf", "1 2 -inf\n", 1, "not a finite number"},
    {"weight_overflow", "1 2 1e999\n", 1, "not a finite number"},
    {"weight_garbage", "1 2 1.5x\n", 1, "weight '1.5x' is not a number"},
    {"crlf_comments_blank", "# c\r\n\r\n1 2\r\n1 y\r\n", 4, "'y' is not a number"},
    {"plus_sign_id", "+1 2\n", 1, "not a number"},
    {"named_source", "YKR068C YOR123W 0.9\n", 1,
     "source id 'YKR068C' is not a number; for named vertices use --abc"},
    {"named_target", "# yeast\n1 YOR123W\n", 2,
     "target id 'YOR123W' is not a number; for named vertices use --abc"},
};

class EdgeListErrors : public ::testing::TestWithParam<BadCase> {};

TEST_P(EdgeListErrors, NameFileAndLine) {
  const BadCase& c = GetParam();
  TempDir dir;
  const std::string path = write_file(dir.file(std::string(c.name) + ".txt"), c.text);
  expect_input_error([&] { read_edge_list(path); }, path, c.line, c.fragment);
  // The same through gzip and through the parallel path with tiny chunks.
  const std::string gz = write_gz(dir.file(std::string(c.name) + ".txt.gz"), c.text);
  expect_input_error([&] { read_edge_list(gz); }, gz, c.line, c.fragment);
  LoadOptions opt;
  opt.threads = 2;
  opt.chunk_bytes = 3;
  expect_input_error([&] { read_edge_list(path, opt); }, path, c.line, c.fragment);
}

INSTANTIATE_TEST_SUITE_P(Malformed, EdgeListErrors, ::testing::ValuesIn(bad_cases),
                         [](const auto& test_info) { return std::string(test_info.param.name); });

// Names suggest the ABC reader; numbers that are negative or too large do
// not: they are ids, only out of range.
TEST(EdgeListErrors, OnlyIdsThatAreNoNumberSuggestAbc) {
  TempDir dir;
  for (const char* text : {"-3 4\n", "1 -4\n", "1 18446744073709551616\n", "1 2 x\n"}) {
    const std::string path = write_file(dir.file("ids.txt"), text);
    try {
      read_edge_list(path);
      ADD_FAILURE() << "expected InputError for " << text;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).find("--abc"), std::string::npos) << e.what();
    }
  }
}

TEST(EdgeListErrors, EmptyOrCommentOnlyFileHasNoEdges) {
  TempDir dir;
  for (const char* text : {"", "\n\n", "# only\n% comments\n   \n"}) {
    const std::string path = write_file(dir.file("empty.txt"), text);
    expect_input_error([&] { read_edge_list(path); }, path, 0, "no edges");
  }
  const std::string gz = write_gz(dir.file("empty.gz"), "");
  expect_input_error([&] { read_edge_list(gz); }, gz, 0, "no edges");
}

TEST(EdgeListErrors, MissingFileNamesPathAndReason) {
  const std::string path = "/nonexistent/graphrun/edges.txt";
  expect_input_error([&] { load_graph(path); }, path, 0, "No such file or directory");
}

TEST(EdgeListErrors, DirectoryIsRefused) {
  TempDir dir;
  expect_input_error([&] { read_edge_list(dir.path().string()); }, dir.path().string(), 0,
                     "directory");
}

std::string numbered_edges(int lines) {
  std::string text;
  for (int i = 0; i < lines; ++i) text += std::to_string(i) + "\t" + std::to_string(i + 1) + "\n";
  return text;
}

TEST(EdgeListErrors, TruncatedGzipNamesTheFile) {
  TempDir dir;
  const std::string whole = read_file(write_gz(dir.file("whole.gz"), numbered_edges(5000)));
  ASSERT_GT(whole.size(), 100u);
  // Cut the trailer only, then into the compressed data.
  for (std::size_t cut : {std::size_t(4), std::size_t(8), whole.size() / 2}) {
    const std::string path = write_file(dir.file("cut" + std::to_string(cut) + ".gz"),
                                        whole.substr(0, whole.size() - cut));
    expect_input_error([&] { read_edge_list(path); }, path, 0, "gzip");
  }
}

TEST(EdgeListErrors, CorruptGzipNamesTheFile) {
  TempDir dir;
  std::string bytes = read_file(write_gz(dir.file("whole.gz"), numbered_edges(5000)));
  for (std::size_t i = 20; i < 40; ++i) bytes[i] = static_cast<char>(bytes[i] ^ 0x5a);
  const std::string path = write_file(dir.file("corrupt.gz"), bytes);
  expect_input_error([&] { read_edge_list(path); }, path, 0, "gzip");
}

TEST(EdgeListErrors, ErrorDeepInALargeFileHasTheRightLine) {
  TempDir dir;
  std::string text = "# header\n" + numbered_edges(3000);
  // Line 2000 of the file (1 header + 1999 edges before it) becomes bad.
  std::size_t pos = 0;
  for (int l = 1; l < 2000; ++l) pos = text.find('\n', pos) + 1;
  text.insert(pos, "5 oops\n");
  const std::string path = write_file(dir.file("deep.txt"), text);
  for (int threads : {1, 2}) {
    for (std::size_t chunk : {std::size_t(0), std::size_t(64), std::size_t(1000)}) {
      LoadOptions opt;
      opt.threads = threads;
      opt.chunk_bytes = chunk;
      expect_input_error([&] { read_edge_list(path, opt); }, path, 2000, "'oops'");
    }
  }
}

// The earliest error still wins where a later chunk holds an id past 32
// bits (the file is parsed a second time, with 64-bit ids), and an error
// after that id in its own chunk is found too.
TEST(EdgeListErrors, EarliestErrorWinsWhenTheFileIsParsedAgainWith64BitIds) {
  TempDir dir;
  const std::string before =
      write_file(dir.file("before.txt"), numbered_edges(500) + "1 bad\n" + numbered_edges(500) +
                                             "4294967296 1\n" + numbered_edges(100));
  const std::string after =
      write_file(dir.file("after.txt"),
                 numbered_edges(500) + "4294967296 1\n" + numbered_edges(3) + "7 8 9 10\n");
  for (const int threads : {1, 2})
    for (const std::size_t chunk : {std::size_t(0), std::size_t(50), std::size_t(4096)}) {
      LoadOptions opt;
      opt.threads = threads;
      opt.chunk_bytes = chunk;
      expect_input_error([&] { read_edge_list(before, opt); }, before, 501, "'bad'");
      expect_input_error([&] { read_edge_list(after, opt); }, after, 505, "columns");
    }
}

TEST(EdgeListErrors, EarliestErrorWinsAcrossChunks) {
  TempDir dir;
  std::string text = numbered_edges(500) + "1 bad\n" + numbered_edges(500) + "-1 2\n";
  const std::string path = write_file(dir.file("two.txt"), text);
  LoadOptions opt;
  opt.threads = 2;
  opt.chunk_bytes = 50;
  expect_input_error([&] { read_edge_list(path, opt); }, path, 501, "'bad'");
}

}  // namespace
}  // namespace graphrun::io::test
