// Large plain-text files are mapped, not copied (mapped_text.hpp): the text
// must read exactly as the file with the final '\n' and the zero padding the
// readers rely on, at every size around a page boundary, and a file truncated
// while it is mapped must never crash a reader: the lost pages read as line
// ends and the reader refuses the file.
#include "mapped_text.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "graphrun/engine/error.hpp"
#include "graphrun/io/load.hpp"
#include "io_test_support.hpp"
#include "text_fields.hpp"
#include "text_input.hpp"

namespace graphrun::io::detail {
namespace {

namespace fs = std::filesystem;

class MappedText : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("graphrun_mapped_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& content) {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << content;
    return p.string();
  }
  static bool mapped(const TextBuffer& t) { return t.data.get_deleter().mapped != 0; }

  fs::path dir_;
};

// Whole "u<TAB>v" lines, then blank lines up to exactly `bytes`.
std::string edge_lines(std::size_t bytes) {
  std::string s;
  for (std::uint64_t i = 0;; ++i) {
    const std::string line =
        std::to_string(i % 1000) + '\t' + std::to_string((i * 7919) % 1000) + '\n';
    if (s.size() + line.size() > bytes) break;
    s += line;
  }
  s.resize(bytes, '\n');
  return s;
}

TEST_F(MappedText, ReadsAsTheFileWithItsEndAndPadding) {
  const long page = ::sysconf(_SC_PAGESIZE);
  for (const std::size_t size :
       {map_min_bytes, map_min_bytes + 1, 2 * map_min_bytes - 1,
        256 * static_cast<std::size_t>(page), 256 * static_cast<std::size_t>(page) + 5})
    for (const bool final_newline : {true, false}) {
      std::string content = edge_lines(size);
      if (!final_newline) content.back() = '7';
      const std::string path = write("t.txt", content);
      Progress quiet{nullptr};
      const TextBuffer t = read_text(path, quiet);
      if (!mapped(t)) GTEST_SKIP() << "the file was read, not mapped (no SIGBUS guard here)";
      ASSERT_EQ(t.size, content.size());
      ASSERT_EQ(std::string(t.begin(), t.size), content) << size;
      ASSERT_EQ(t.end(), t.begin() + size + (final_newline ? 0 : 1));
      EXPECT_EQ(t.end()[-1], '\n');
      for (std::size_t k = 0; k < text_padding; ++k) ASSERT_EQ(t.end()[k], '\0') << size;
      EXPECT_FALSE(t.changed());
    }
}

TEST_F(MappedText, SmallAndCompressedFilesAreRead) {
  Progress quiet{nullptr};
  EXPECT_FALSE(mapped(read_text(write("small.txt", edge_lines(map_min_bytes - 1)), quiet)));
  const std::string gz = (dir_ / "big.txt.gz").string();
  test::write_gz(gz, edge_lines(2 * map_min_bytes));
  const TextBuffer t = read_text(gz, quiet);
  EXPECT_FALSE(mapped(t));
  EXPECT_EQ(std::string(t.begin(), t.size), edge_lines(2 * map_min_bytes));
}

// The file cut to a few lines under its mapping: every scanner still ends
// at the text's end, the text says it changed, and the reader's check
// refuses it with the file's name.
TEST_F(MappedText, ATruncatedFileNeverCrashesAReader) {
  const std::string content = edge_lines(3 * map_min_bytes);
  const std::string path = write("cut.txt", content);
  Progress quiet{nullptr};
  const TextBuffer t = read_text(path, quiet);
  if (!mapped(t)) GTEST_SKIP() << "the file was read, not mapped (no SIGBUS guard here)";
  fs::resize_file(path, 100);
  std::size_t lines = 0;
  for (const char* p = t.begin(); p < t.end(); p = next_line(p)) ++lines;
  EXPECT_GT(lines, 0u);
  EXPECT_TRUE(t.changed());
  try {
    check_unchanged(t, path);
    FAIL() << "a truncated file was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

// Where another SIGBUS handler has replaced the guard's (a program that
// uses graphrun as a library, say), files are read, never mapped unguarded.
TEST_F(MappedText, NoMappingWithoutTheGuard) {
  const std::string path = write("g.txt", edge_lines(2 * map_min_bytes));
  Progress quiet{nullptr};
  if (!mapped(read_text(path, quiet))) GTEST_SKIP() << "no SIGBUS guard here";
  struct sigaction guard {};
  ASSERT_EQ(::sigaction(SIGBUS, nullptr, &guard), 0);
  ::signal(SIGBUS, SIG_DFL);
  const TextBuffer t = read_text(path, quiet);
  ::sigaction(SIGBUS, &guard, nullptr);
  EXPECT_FALSE(mapped(t));
  EXPECT_EQ(std::string(t.begin(), t.size), edge_lines(2 * map_min_bytes));
  EXPECT_TRUE(mapped(read_text(path, quiet)));  // the guard back, mapped again
}

// Through the loader: a mapped edge list gives the graph its gzip twin
// (which is read, not mapped) gives.
TEST_F(MappedText, AMappedEdgeListLoadsAsItsGzipTwin) {
  const std::string content = edge_lines(2 * map_min_bytes);
  const std::string plain = write("g.txt", content);
  const std::string gz = (dir_ / "g.txt.gz").string();
  test::write_gz(gz, content);
  LoadOptions o;
  o.undirected = true;
  const Graph a = load_graph(plain, o), b = load_graph(gz, o);
  EXPECT_EQ(test::arrays(a), test::arrays(b));
  EXPECT_GT(a.n_edges(), 0);
}

}  // namespace
}  // namespace graphrun::io::detail
