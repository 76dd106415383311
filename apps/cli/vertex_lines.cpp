// See vertex_lines.hpp.
#include "vertex_lines.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "graphrun/engine/error.hpp"

namespace graphrun::cli {

namespace {

// Vertices per block: ~1-2 MB of text, enough to keep each thread busy
// between the writes of a wave.
constexpr std::size_t kBlock = std::size_t{1} << 16;

// The text of vertices [begin, end), through a TextWriter over a memory
// stream; false where the stream could not be opened.
bool format_block(std::size_t begin, std::size_t end,
                  const std::function<void(io::TextWriter&, std::size_t)>& line,
                  std::string& text) {
  char* buf = nullptr;
  std::size_t size = 0;
  std::FILE* mem = open_memstream(&buf, &size);
  if (mem == nullptr) return false;
  {
    io::TextWriter w(mem);
    for (std::size_t v = begin; v < end; ++v) line(w, v);
  }
  const bool ok = std::fclose(mem) == 0;
  if (ok) text.assign(buf, size);
  std::free(buf);
  return ok;
}

}  // namespace

void write_vertex_lines(io::TextWriter& out, std::size_t n,
                        const std::function<void(io::TextWriter&, std::size_t)>& line,
                        const std::function<void(double)>& progress) {
  const std::size_t blocks = (n + kBlock - 1) / kBlock;
  const auto threads = static_cast<std::size_t>(std::max(1, omp_get_max_threads()));
  if (blocks <= 1 || threads == 1) {
    for (std::size_t v = 0; v < n; ++v) {
      line(out, v);
      if ((v & (kBlock - 1)) == 0) progress(static_cast<double>(v) / static_cast<double>(n));
    }
    return;
  }
  // Waves of one block per thread: formatted side by side, then written in
  // order while nothing else runs (the writer is not shared).
  std::vector<std::string> text(threads);
  for (std::size_t first = 0; first < blocks; first += threads) {
    const auto wave = static_cast<std::ptrdiff_t>(std::min(threads, blocks - first));
    int failed = 0;
#pragma omp parallel for schedule(static, 1) reduction(+ : failed)
    for (std::ptrdiff_t b = 0; b < wave; ++b) {
      const std::size_t begin = (first + static_cast<std::size_t>(b)) * kBlock;
      failed += !format_block(begin, std::min(n, begin + kBlock), line,
                              text[static_cast<std::size_t>(b)]);
    }
    if (failed > 0) throw Error("cannot format the output in memory (out of memory?)");
    for (std::ptrdiff_t b = 0; b < wave; ++b) out.put(text[static_cast<std::size_t>(b)]);
    const std::size_t done = std::min(n, (first + static_cast<std::size_t>(wave)) * kBlock);
    progress(static_cast<double>(done) / static_cast<double>(n));
  }
}

}  // namespace graphrun::cli
