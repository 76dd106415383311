// The grammar of an unweighted edge list's lines, as the device parses
// them (device_edge_text.cu), character for character what the host's
// parse takes for two columns (io/src/edge_list.cpp's parse_chunk over
// text_fields.hpp): host and device code, so that a test without a GPU
// holds the two to the same language (tests/io/edge_text_grammar_test.cpp).
// Internal to engine/.
#pragma once

#include <cstddef>

#include "graphrun/engine/host_device.hpp"

namespace graphrun::edge_text {

// Bytes of line starts per thread: a thread parses the lines that start in
// its slice, to their ends. An edge line has at least 4 bytes ("1 2\n"), so
// a slice starts at most 16 of them: its count fits a byte.
constexpr std::size_t kSliceBytes = 64;

// Bytes of the text through one cached aligned word: a thread walks its
// bytes in order, so it loads each word once.
class TextReader {
 public:
  GRAPHRUN_HD explicit TextReader(const unsigned long long* words) : words_(words) {}
  GRAPHRUN_HD unsigned operator()(std::size_t i) {
    const std::size_t k = i >> 3;
    if (k != at_) {
      at_ = k;
#if defined(__CUDA_ARCH__)
      word_ = __ldg(words_ + k);
#else
      word_ = words_[k];
#endif
    }
    return static_cast<unsigned>(word_ >> (8 * (i & 7))) & 0xffu;
  }

 private:
  const unsigned long long* words_;
  std::size_t at_ = ~std::size_t{0};
  unsigned long long word_ = 0;
};

GRAPHRUN_HD inline bool is_blank(unsigned c) { return c == ' ' || c == '\t'; }

// A field of decimal digits (leading zeros allowed) ending at a blank or a
// line end, of at most 64 bits, as parse_u64 takes it; q moves past it.
GRAPHRUN_HD inline bool parse_id(TextReader& r, std::size_t& q, unsigned long long& out) {
  unsigned d = r(q) - unsigned{'0'};
  if (d > 9) return false;
  unsigned long long v = 0;
  int digits = 0;
  do {
    // Only a 20th digit or later can take the value past 2^64 - 1
    // (18446744073709551615 = 1844674407370955161 * 10 + 5).
    if (++digits >= 20 && (v > 1844674407370955161ull || (v == 1844674407370955161ull && d > 5)))
      return false;
    v = v * 10 + d;
    d = r(++q) - unsigned{'0'};
  } while (d <= 9);
  const unsigned c = r(q);
  if (!(is_blank(c) || c == '\r' || c == '\n')) return false;
  out = v;
  return true;
}

enum class Line { skip, edge, refused };

// The line starting at p: skipped (blank or comment), an edge (u, v), or
// refused; p moves to the next line's start unless refused.
GRAPHRUN_HD inline Line parse_line(TextReader& r, std::size_t& p, unsigned long long& u,
                                   unsigned long long& v) {
  std::size_t q = p;
  unsigned c = r(q);
  while (is_blank(c)) c = r(++q);
  if (c == '\n' || c == '#' || c == '%' || (c == '\r' && r(q + 1) == '\n')) {
    while (r(q) != '\n') ++q;
    p = q + 1;
    return Line::skip;
  }
  if (!parse_id(r, q, u)) return Line::refused;
  for (c = r(q); is_blank(c); c = r(++q)) {
  }
  if (c == '\n' || (c == '\r' && r(q + 1) == '\n')) return Line::refused;  // one column
  if (!parse_id(r, q, v)) return Line::refused;
  for (c = r(q); is_blank(c); c = r(++q)) {
  }
  if (c == '\n') {
    p = q + 1;
  } else if (c == '\r' && r(q + 1) == '\n') {
    p = q + 2;
  } else {
    return Line::refused;  // a third column, or a stray '\r'
  }
  return Line::edge;
}

// The first line start in this thread's slice [a, b), or b where none is.
GRAPHRUN_HD inline std::size_t first_line_start(TextReader& r, std::size_t a, std::size_t b) {
  if (a == 0) return 0;
  std::size_t q = a - 1;
  while (q + 1 < b && r(q) != '\n') ++q;
  return r(q) == '\n' ? q + 1 : b;
}

}  // namespace graphrun::edge_text
