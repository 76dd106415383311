// Per-vertex value files ("ID VALUE" per line), e.g. a PageRank warm start.
//
// Serial, like the label reader: one short line per vertex, and the check
// that no vertex appears twice needs the whole file anyway.
#include "graphrun/io/vertex_values.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string_view>

#include "graphrun/engine/error.hpp"
#include "line_fields.hpp"
#include "progress.hpp"
#include "text_input.hpp"

namespace graphrun::io {

namespace {

using detail::quote_input;

// A finite number, as the edge-list weights are read: decimal or exponent
// form, optional sign. False for anything else, NaN and infinities included.
bool parse_finite(std::string_view s, double& out) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);  // from_chars takes no '+'
  const char* last = s.data() + s.size();
  const auto [p, ec] = std::from_chars(s.data(), last, out);
  return !s.empty() && ec == std::errc() && p == last && std::isfinite(out);
}

}  // namespace

VertexValues read_vertex_values(const std::string& path, const Graph& g,
                                const VertexValueOptions& options) {
  detail::Progress quiet{nullptr};
  const detail::TextBuffer text = detail::read_text(path, quiet);
  const std::string graph =
      options.graph_name.empty() ? "the graph" : "the graph " + options.graph_name;
  const vertex_t n = g.n_vertices();
  VertexValues out;
  out.value.assign(static_cast<std::size_t>(n), 0.0);
  std::vector<std::int64_t> line_of(static_cast<std::size_t>(n), 0);  // 0: no line yet
  detail::for_each_field_line(
      text.begin(), text.end(), "#%", [&](std::int64_t line_no, const auto& f) {
        if (f.size() != 2)
          throw InputError(path, line_no,
                           "expected 2 fields 'ID<TAB>VALUE', found " + std::to_string(f.size()));
        double x = 0;
        if (!parse_finite(f[1], x))
          throw InputError(path, line_no, "value " + quote_input(f[1]) + " is not a finite number");
        if (options.non_negative && x < 0)
          throw InputError(path, line_no, "value " + quote_input(f[1]) + " is negative");
        ++out.lines;
        const std::optional<vertex_t> v = g.find_name(f[0]);
        if (!v) {
          ++out.unknown;
          return;
        }
        if (line_of[*v] != 0)
          throw InputError(path, line_no,
                           "vertex " + quote_input(f[0]) + " appears twice (first on line " +
                               std::to_string(line_of[*v]) + ")");
        line_of[*v] = line_no;
        out.value[*v] = x;
      });
  detail::check_unchanged(text, path);
  if (out.lines == 0)
    throw InputError(path, "no 'ID<TAB>VALUE' line (the file is empty or all comments)");
  out.missing = std::count(line_of.begin(), line_of.end(), std::int64_t{0});
  return out;
}

}  // namespace graphrun::io
