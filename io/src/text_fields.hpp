// Field scanners for the text readers (internal to io/).
//
// Hand-written because they are the hot loop of every text load: no locale,
// no iostreams, no allocation. Every scanner stops at a blank, '\r' or '\n';
// the buffers they run over always end with '\n' and have text_padding
// readable bytes after it (see text_input.hpp), so they never need the end
// pointer, and parse_u64 may read whole words.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "printable.hpp"

namespace graphrun::io::detail {

inline bool is_blank(char c) noexcept { return c == ' ' || c == '\t'; }
inline bool ends_field(char c) noexcept { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

inline const char* skip_blanks(const char* p) noexcept {
  while (is_blank(*p)) ++p;
  return p;
}

// True at "\n" or "\r\n" (CRLF files are accepted as they are).
inline bool at_line_end(const char* p) noexcept {
  return *p == '\n' || (*p == '\r' && p[1] == '\n');
}

// One past the '\n' that ends the line containing p.
inline const char* next_line(const char* p) noexcept {
  while (*p != '\n') ++p;
  return p + 1;
}

enum class FieldError { none, not_a_number, negative, too_large, not_finite };

// Digits one at a time with an overflow check each: the reference for
// parse_u64 below, and its tail past 16 digits. Returns one past the last
// digit; `overflow` is set where the value passed 64 bits.
inline const char* parse_digits(const char* s, std::uint64_t& v, bool& overflow) noexcept {
  for (unsigned d = static_cast<unsigned char>(*s) - unsigned('0'); d <= 9;
       d = static_cast<unsigned char>(*++s) - unsigned('0')) {
    overflow |= __builtin_mul_overflow(v, std::uint64_t{10}, &v);
    overflow |= __builtin_add_overflow(v, std::uint64_t{d}, &v);
  }
  return s;
}

// Eight bytes at p, the first in the lowest byte (the text readers run on
// x86-64 and AArch64, both little-endian).
inline std::uint64_t load8(const char* p) noexcept {
  std::uint64_t x;
  std::memcpy(&x, p, sizeof x);
  return x;
}

// How many of the eight bytes of x, from the first, are ASCII digits (0-8;
// 8 when all are). A byte is a digit where its high nibble is 3 both as it
// is and after adding 6 ('9' + 6 is 0x3F, ':' + 6 is 0x40); a carry of the
// addition only runs into later bytes, past the first non-digit.
inline unsigned leading_digits(std::uint64_t x) noexcept {
  constexpr std::uint64_t high = 0xF0F0F0F0F0F0F0F0, threes = 0x3030303030303030,
                          sixes = 0x0606060606060606;
  const std::uint64_t other = ((x & high) ^ threes) | (((x + sixes) & high) ^ threes);
  return other == 0 ? 8 : static_cast<unsigned>(__builtin_ctzll(other)) / 8;
}

// The value of the first n (1-8) digit bytes of x: the digits moved to the
// top (zeros come in ahead of them), then pairs, quads and the eight joined
// by three multiplications (Lemire, "Fast conversion of eight digits", as in
// simdjson), instead of a multiply-add chain of n steps.
inline std::uint64_t digits_value(std::uint64_t x, unsigned n) noexcept {
  x = (x - 0x3030303030303030) << (8 * (8 - n));
  x = x * 10 + (x >> 8);
  constexpr std::uint64_t pairs = 0x000000FF000000FF;
  return (((x & pairs) * (100 + (std::uint64_t{1000000} << 32))) +
          (((x >> 16) & pairs) * (1 + (std::uint64_t{10000} << 32)))) >>
         32;
}

// A non-negative decimal integer of at most 64 bits; advances p past it.
// Reads up to 16 bytes from p: the buffers it runs over have text_padding
// readable bytes after their final '\n' (text_input.hpp). Eight digits at a
// time: ids are the hot loop of every edge-list load, and a digit at a
// time is a dependent multiply-add per byte (R-MAT 21, one thread: the
// parse 1.16 s before, see docs/performance.md "Loading").
inline FieldError parse_u64(const char*& p, std::uint64_t& out) noexcept {
  const char* s = p;
  const std::uint64_t x = load8(s);
  const unsigned n = leading_digits(x);
  if (n == 0) {
    const unsigned next = static_cast<unsigned char>(s[1]) - unsigned('0');
    return *s == '-' && next <= 9 ? FieldError::negative : FieldError::not_a_number;
  }
  std::uint64_t v = digits_value(x, n);
  bool overflow = false;
  s += n;
  if (n == 8) {
    const std::uint64_t y = load8(s);
    const unsigned m = leading_digits(y);
    if (m > 0) {
      constexpr std::uint64_t pow10[9] = {1,      10,      100,      1000,     10000,
                                          100000, 1000000, 10000000, 100000000};
      v = v * pow10[m] + digits_value(y, m);  // < 10^16: no overflow
      s += m;
      if (m == 8) s = parse_digits(s, v, overflow);
    }
  }
  if (!ends_field(*s)) return FieldError::not_a_number;
  if (overflow) return FieldError::too_large;
  p = s;
  out = v;
  return FieldError::none;
}

// A finite floating-point number (decimal or exponent form, optional sign).
inline FieldError parse_weight(const char*& p, double& out) noexcept {
  const char* s = p;
  if (*s == '+') ++s;  // from_chars takes no '+', files do
  const char* e = s;
  while (!ends_field(*e)) ++e;
  const auto r = std::from_chars(s, e, out);
  if (r.ec == std::errc::result_out_of_range) return FieldError::not_finite;
  if (r.ec != std::errc() || r.ptr != e) return FieldError::not_a_number;
  if (!std::isfinite(out)) return FieldError::not_finite;
  p = e;
  return FieldError::none;
}

// The field starting at p, for messages: printable, cut short if long.
inline std::string field_text(const char* p) {
  // quote_chars characters take at most 4 bytes each: a field cut here is
  // longer than printable() keeps, so it ends in "..." all the same.
  const char* e = p;
  while (!ends_field(*e) && static_cast<std::size_t>(e - p) <= 4 * quote_chars) ++e;
  return printable(std::string_view(p, static_cast<std::size_t>(e - p)));
}

// Blank-separated fields on the line starting at p (for column-count messages).
inline int count_fields(const char* p) noexcept {
  int n = 0;
  for (p = skip_blanks(p); !at_line_end(p); p = skip_blanks(p)) {
    ++n;
    while (!ends_field(*p)) ++p;
    if (*p == '\r' && p[1] != '\n') ++p;  // a stray '\r' inside the line
  }
  return n;
}

// "source id '-3' is negative" and friends; `what` names the field.
// (Built by appending: GCC 12 warns falsely on chains of operator+.)
inline std::string field_message(FieldError e, const char* what, const char* p) {
  std::string m(what);
  m += " '";
  m += field_text(p);
  switch (e) {
    case FieldError::negative:
      m += "' is negative";
      break;
    case FieldError::too_large:
      m += "' does not fit in 64 bits";
      break;
    case FieldError::not_finite:
      m += "' is not a finite number";
      break;
    case FieldError::not_a_number:
    case FieldError::none:
      m += "' is not a number";
      break;
  }
  return m;
}

// "edge SRC -> DST has weight W, which is negative[NOTE][; HINT]", for
// LoadOptions::non_negative_weights; W is written back in its shortest form.
inline std::string negative_weight_message(std::string_view src, std::string_view dst, double w,
                                           std::string_view hint, std::string_view note = {}) {
  char number[32];
  const auto r = std::to_chars(number, number + sizeof number, w);
  std::string m = "edge ";
  m += src;
  m += " -> ";
  m += dst;
  m += " has weight ";
  m.append(number, r.ptr);
  m += ", which is negative";
  m += note;
  if (!hint.empty()) {
    m += "; ";
    m += hint;
  }
  return m;
}

}  // namespace graphrun::io::detail
