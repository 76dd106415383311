// Shared helpers for the io tests: a scratch directory, file writers (plain
// and gzip), and an assertion for "FILE:LINE: message" errors.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "graphrun/engine/graph.hpp"
#include "graphrun/io/load.hpp"

namespace graphrun::io::test {

namespace fs = std::filesystem;

// A fresh directory removed with everything in it at the end of the test.
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ = fs::temp_directory_path() /
            ("graphrun-io-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

inline std::string write_file(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Writes `text` gzip-compressed through zlib's gzip file interface.
inline std::string write_gz(const std::string& path, const std::string& text) {
  gzFile f = gzopen(path.c_str(), "wb9");
  EXPECT_NE(f, nullptr);
  if (!text.empty()) gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
  gzclose(f);
  return path;
}

// Runs fn, expecting an InputError whose message starts with "FILE:LINE:"
// (line 0: "FILE:" with no line) and contains `fragment`.
template <class Fn>
void expect_input_error(Fn&& fn, const std::string& file, std::int64_t line,
                        const std::string& fragment) {
  try {
    fn();
    ADD_FAILURE() << "expected InputError for " << file << " (" << fragment << ")";
  } catch (const InputError& e) {
    const std::string what = e.what();
    const std::string prefix = line > 0 ? file + ":" + std::to_string(line) + ": " : file + ": ";
    EXPECT_EQ(what.rfind(prefix, 0), 0u) << "message: " << what << "\nexpected prefix: " << prefix;
    EXPECT_NE(what.find(fragment), std::string::npos)
        << "message: " << what << "\nexpected to contain: " << fragment;
    EXPECT_EQ(e.file(), file);
    EXPECT_EQ(e.line(), line);
  }
}

// LoadOptions in one expression (designated initializers would leave
// on_progress out, which -Wextra reports).
inline LoadOptions options(bool undirected, int threads = 0, std::size_t chunk_bytes = 0) {
  LoadOptions o;
  o.undirected = undirected;
  o.threads = threads;
  o.chunk_bytes = chunk_bytes;
  return o;
}

// The arrays of a graph, for exact comparisons.
struct Arrays {
  std::vector<offset_t> row_ptr;
  std::vector<vertex_t> col_idx;
  std::vector<double> values;
  std::vector<std::uint64_t> ids;
  bool operator==(const Arrays&) const = default;
};

inline Arrays arrays(const Graph& g) {
  return {g.adj().row_ptr(), g.adj().col_idx(), g.adj().values(), g.input_ids()};
}

inline void PrintTo(const Arrays& a, std::ostream* os) {
  auto list = [os](const char* name, const auto& v) {
    *os << name << "=[";
    for (std::size_t i = 0; i < v.size() && i < 40; ++i) *os << (i ? "," : "") << v[i];
    *os << (v.size() > 40 ? ",...]" : "]") << " ";
  };
  list("row_ptr", a.row_ptr);
  list("col_idx", a.col_idx);
  list("values", a.values);
  list("ids", a.ids);
}

}  // namespace graphrun::io::test
