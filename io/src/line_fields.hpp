// Whole-line field splitting for the small per-vertex files (labels,
// values): serial and simple, unlike the chunked scanners of text_fields.hpp
// that the graph readers run in their hot loop. Internal to io/.
#pragma once

#include <string>
#include <string_view>
#include <vector>

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

// A token for a message: quoted, cut short when long.
inline std::string quoted(std::string_view s) {
  std::string out = "'";
  out.append(s.substr(0, 40));
  if (s.size() > 40) out += "...";
  out += "'";
  return out;
}

}  // namespace graphrun::io::detail
