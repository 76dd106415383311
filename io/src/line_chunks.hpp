// Parallel parsing of line-oriented text (internal to io/).
//
// The text is cut into chunks that start at line starts; each thread parses
// whole chunks into its own arrays, so no line is ever split and no locking
// is needed. Line numbers for messages come afterwards: every chunk counts
// its newlines, and a prefix sum gives each chunk its first line number.
// When several chunks hold an error, the earliest in the file is reported,
// exactly as a serial parser would.
#pragma once

#include <omp.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "progress.hpp"

namespace graphrun::io::detail {

struct TextChunk {
  const char* begin = nullptr;
  const char* end = nullptr;     // one past a '\n'
  std::int64_t first_line = 0;   // 1-based number of the chunk's first line
  std::int64_t newlines = 0;     // lines in the chunk (set by the parser)
  std::int64_t error_line = -1;  // 0-based line within the chunk, or -1
  std::string error;

  // Records an error at local line `line` (whose text starts before `at`)
  // and counts the chunk's remaining newlines so later numbering stays right.
  void fail(std::int64_t line, const char* at, std::string message);
  // Forgets what a parse recorded, for a second parse of the same lines.
  void restart() {
    newlines = 0;
    error_line = -1;
    error.clear();
  }
};

// Chunk size for `bytes` of text on `threads` threads: several chunks per
// thread for balance, not so small that per-chunk overhead shows.
std::size_t auto_chunk_bytes(std::size_t bytes, int threads);

// Cuts [begin, end) (end[-1] == '\n') into chunks of about `chunk_bytes`.
std::vector<TextChunk> split_lines(const char* begin, const char* end, std::size_t chunk_bytes);

// Gives each chunk its first line number (the first chunk starts at
// `first_line`) and throws InputError for the earliest recorded error.
void number_lines(std::vector<TextChunk>& chunks, std::int64_t first_line, const std::string& path);

// Number of threads for `requested` (0 = OpenMP's default).
inline int thread_count(int requested) { return requested > 0 ? requested : omp_get_max_threads(); }

// Runs parse(i) for every chunk i on `threads` threads, reporting progress
// (by bytes) from the calling thread. Exceptions thrown by parse (memory)
// are carried out of the parallel region and rethrown.
template <class Parse>
void for_each_chunk(std::vector<TextChunk>& chunks, int threads, Progress& progress,
                    Parse&& parse) {
  const auto n = static_cast<std::int64_t>(chunks.size());
  if (n == 0) return;
  const std::size_t total = static_cast<std::size_t>(chunks.back().end - chunks.front().begin) + 1;
  std::atomic<std::size_t> done{0};
  std::exception_ptr failure;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (std::int64_t i = 0; i < n; ++i) {
    try {
      parse(static_cast<std::size_t>(i));
      const auto bytes = static_cast<std::size_t>(chunks[i].end - chunks[i].begin);
      const std::size_t now = done.fetch_add(bytes, std::memory_order_relaxed) + bytes;
      // Thread 0 of the team is the calling thread.
      if (omp_get_thread_num() == 0 && progress.active())
        progress.report(static_cast<double>(now) / static_cast<double>(total));
    } catch (...) {
#pragma omp critical(graphrun_io_chunk_failure)
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
  progress.report(1.0);
}

// Number of the line (1-based, counting from chunk.first_line) holding the
// k-th (0-based) data line of the chunk: lines that are neither blank nor
// start with one of `comment_chars`.
std::int64_t line_of_data_line(const TextChunk& chunk, std::int64_t k, const char* comment_chars);

}  // namespace graphrun::io::detail
