// Input bytes made fit to quote in an error message (internal to io/).
//
// Messages quote fields, names and header words of the input, and they end
// up on a terminal: a raw ESC there starts an escape sequence, '\r' or '\b'
// overwrite what was printed, and a NUL cuts what() short. So control
// characters are written as C escapes, bytes that are not UTF-8 as \xNN, and
// text stays as it is, accents and scripts included.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace graphrun::io::detail {

// The most characters of input a message quotes; longer text ends in "...".
inline constexpr std::size_t quote_chars = 40;

// Length of the well-formed UTF-8 sequence of 2 to 4 bytes at s[i] (no
// overlong forms, surrogates or code points past U+10FFFF), 0 if none.
inline std::size_t utf8_sequence(std::string_view s, std::size_t i) noexcept {
  const auto at = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned c = at(0);
  unsigned lo = 0x80, hi = 0xbf;
  std::size_t n = 0;
  if (c >= 0xc2 && c <= 0xdf) {
    n = 2;
  } else if (c >= 0xe0 && c <= 0xef) {
    n = 3;
    if (c == 0xe0) lo = 0xa0;
    if (c == 0xed) hi = 0x9f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4;
    if (c == 0xf0) lo = 0x90;
    if (c == 0xf4) hi = 0x8f;
  } else {
    return 0;
  }
  if (s.size() - i < n || at(1) < lo || at(1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if ((at(k) & 0xc0) != 0x80) return 0;
  return n;
}

// `s` with \0 \t \n \r \\ for those bytes, \xNN for other control bytes,
// DEL and bytes that are not part of well-formed UTF-8, \u0080..\u009f for
// the C1 controls (some terminals obey them), everything else unchanged;
// cut after `max_chars` characters (an escape counts as one) with "...".
inline std::string printable(std::string_view s, std::size_t max_chars = quote_chars) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size() < max_chars ? s.size() : max_chars);
  std::size_t i = 0;
  for (std::size_t chars = 0; i < s.size() && chars < max_chars; ++chars) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f) {
      if (c == '\\') out += '\\';
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    if (c == 0 || c == '\t' || c == '\n' || c == '\r') {
      out += '\\';
      out += c == 0 ? '0' : c == '\t' ? 't' : c == '\n' ? 'n' : 'r';
      ++i;
      continue;
    }
    if (const std::size_t n = c >= 0x80 ? utf8_sequence(s, i) : 0; n > 0) {
      const auto next = static_cast<unsigned char>(s[i + 1]);
      if (c == 0xc2 && next < 0xa0) {
        out += "\\u00";
        out += hex[next >> 4];
        out += hex[next & 15];
      } else {
        out.append(s.substr(i, n));
      }
      i += n;
      continue;
    }
    out += "\\x";
    out += hex[c >> 4];
    out += hex[c & 15];
    ++i;
  }
  if (i < s.size()) out += "...";
  return out;
}

// printable(s) between single quotes. (Built by appending: GCC 12 warns
// falsely on "'" + std::string.)
inline std::string quote_input(std::string_view s) {
  std::string out = "'";
  out += printable(s);
  out += '\'';
  return out;
}

}  // namespace graphrun::io::detail
