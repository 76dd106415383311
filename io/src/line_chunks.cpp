#include "line_chunks.hpp"

#include <algorithm>
#include <cstring>

#include "graphrun/engine/error.hpp"
#include "text_fields.hpp"

namespace graphrun::io::detail {

void TextChunk::fail(std::int64_t line, const char* at, std::string message) {
  error_line = line;
  error = std::move(message);
  // `at` lies on the failing line; the newlines from there on are that line's
  // own terminator and every later line.
  newlines = line + std::count(at, end, '\n');
}

std::size_t auto_chunk_bytes(std::size_t bytes, int threads) {
  const std::size_t per = bytes / (static_cast<std::size_t>(std::max(threads, 1)) * 8);
  return std::clamp<std::size_t>(per, std::size_t(64) << 10, std::size_t(16) << 20);
}

std::vector<TextChunk> split_lines(const char* begin, const char* end, std::size_t chunk_bytes) {
  std::vector<TextChunk> chunks;
  chunk_bytes = std::max<std::size_t>(chunk_bytes, 1);
  const char* p = begin;
  while (p < end) {
    const char* cut = static_cast<std::size_t>(end - p) <= chunk_bytes ? end : p + chunk_bytes;
    if (cut < end) {
      // Extend to the end of the line the cut falls in.
      const void* nl = std::memchr(cut - 1, '\n', static_cast<std::size_t>(end - (cut - 1)));
      cut = static_cast<const char*>(nl) + 1;
    }
    TextChunk c;
    c.begin = p;
    c.end = cut;
    chunks.push_back(std::move(c));
    p = cut;
  }
  return chunks;
}

void number_lines(std::vector<TextChunk>& chunks, std::int64_t first_line,
                  const std::string& path) {
  std::int64_t line = first_line;
  for (TextChunk& c : chunks) {
    c.first_line = line;
    if (c.error_line >= 0) throw InputError(path, line + c.error_line, c.error);
    line += c.newlines;
  }
}

std::int64_t line_of_data_line(const TextChunk& chunk, std::int64_t k, const char* comment_chars) {
  std::int64_t line = chunk.first_line;
  for (const char* p = chunk.begin; p < chunk.end; p = next_line(p), ++line) {
    const char* q = skip_blanks(p);
    if (at_line_end(q) || (*q != '\0' && std::strchr(comment_chars, *q) != nullptr)) continue;
    if (k-- == 0) return line;
  }
  return line;
}

}  // namespace graphrun::io::detail
