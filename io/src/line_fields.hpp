// Whole-line field splitting for the small per-vertex files (labels,
// values): serial and simple, unlike the chunked scanners of text_fields.hpp
// that the graph readers run in their hot loop. Internal to io/.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "printable.hpp"  // quote_input(), for messages about a field

namespace graphrun::io::detail {

inline bool is_line_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

// The blank-separated fields of a line.
inline std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_line_blank(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !is_line_blank(line[i])) ++i;
    if (i > start) fields.push_back(line.substr(start, i - start));
  }
  return fields;
}

// Calls fn(line_number, fields) for each line of [begin, end) that has
// fields and whose first field does not start with one of `comment_marks`;
// lines are numbered from 1. Returns the number of lines.
template <class Fn>
std::int64_t for_each_field_line(const char* begin, const char* end, std::string_view comment_marks,
                                 Fn&& fn) {
  std::int64_t line_no = 0;
  for (const char* p = begin; p < end;) {
    const char* eol = std::find(p, end, '\n');
    const std::string_view line(p, static_cast<std::size_t>(eol - p));
    p = eol + 1;
    ++line_no;
    const std::vector<std::string_view> f = split_fields(line);
    if (f.empty() || comment_marks.find(f[0].front()) != std::string_view::npos) continue;
    fn(line_no, f);
  }
  return line_no;
}

}  // namespace graphrun::io::detail
