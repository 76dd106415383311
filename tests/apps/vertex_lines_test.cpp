// write_vertex_lines: the text is byte for byte what one writer puts, line
// after line in vertex order, at every thread count and around the block
// size (65,536 vertices).
#include "vertex_lines.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace graphrun::cli {
namespace {

// What `put` writes through one TextWriter into memory.
template <class Put>
std::string written(Put&& put) {
  char* buf = nullptr;
  std::size_t size = 0;
  std::FILE* mem = open_memstream(&buf, &size);
  {
    io::TextWriter w(mem);
    put(w);
  }
  std::fclose(mem);
  std::string text(buf, size);
  std::free(buf);
  return text;
}

TEST(VertexLines, SameTextAsOneWriterAtEveryThreadCount) {
  const auto line = [](io::TextWriter& w, std::size_t v) {
    w.put(v * 7919).put('\t').put(1.0 / static_cast<double>(v + 3)).put('\n');
    if (v % 1000 == 0) w.put(std::string(70000, 'x')).put('\n');  // longer than a buffer
  };
  const int saved = omp_get_max_threads();
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{65535},
                              std::size_t{65536}, std::size_t{65537}, std::size_t{5 * 65536 + 3}})
    for (const int threads : {1, 2, 3, 7}) {
      omp_set_num_threads(threads);
      std::vector<double> seen;
      const std::string got = written([&](io::TextWriter& w) {
        write_vertex_lines(w, n, line, [&](double f) { seen.push_back(f); });
      });
      const std::string want = written([&](io::TextWriter& w) {
        for (std::size_t v = 0; v < n; ++v) line(w, v);
      });
      EXPECT_EQ(got, want) << n << " vertices, " << threads << " threads";
      for (std::size_t i = 1; i < seen.size(); ++i) EXPECT_LE(seen[i - 1], seen[i]);
      for (const double f : seen) {
        EXPECT_GE(f, 0.0);
        EXPECT_LE(f, 1.0);
      }
    }
  omp_set_num_threads(saved);
}

}  // namespace
}  // namespace graphrun::cli
