// Vertex label files ("ID LABEL" per line) for graph contraction.
//
// Serial and simple: a label file has one short line per vertex, and the
// check that every vertex appears exactly once needs the whole file anyway.

#include "graphrun/io/labels.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "graphrun/engine/error.hpp"
#include "line_fields.hpp"
#include "printable.hpp"
#include "progress.hpp"
#include "text_input.hpp"

namespace graphrun::io {

namespace {

using detail::quote_input;

std::optional<std::uint64_t> as_non_negative_integer(std::string_view s) {
  std::uint64_t v = 0;
  const char* last = s.data() + s.size();
  const auto [p, ec] = std::from_chars(s.data(), last, v);
  if (s.empty() || ec != std::errc() || p != last) return std::nullopt;
  return v;
}

// Renumbers labels given in order of first appearance (`first_seen[v]`
// indexes `seen_names`) into the documented order.
VertexLabels number_labels(std::vector<vertex_t> first_seen, std::vector<std::string> seen_names) {
  const std::size_t k = seen_names.size();
  std::vector<std::optional<std::uint64_t>> value(k);
  bool numeric = true;
  for (std::size_t i = 0; i < k; ++i) {
    value[i] = as_non_negative_integer(seen_names[i]);
    numeric = numeric && value[i].has_value();
  }
  std::vector<vertex_t> order(k);
  for (std::size_t i = 0; i < k; ++i) order[i] = static_cast<vertex_t>(i);
  std::sort(order.begin(), order.end(), [&](vertex_t x, vertex_t y) {
    if (numeric && *value[x] != *value[y]) return *value[x] < *value[y];
    return seen_names[x] < seen_names[y];
  });
  std::vector<vertex_t> rank(k);
  VertexLabels out;
  out.names.resize(k);
  for (std::size_t r = 0; r < k; ++r) {
    rank[order[r]] = static_cast<vertex_t>(r);
    out.names[r] = std::move(seen_names[order[r]]);
  }
  for (vertex_t& l : first_seen) l = rank[l];
  out.labels = std::move(first_seen);
  return out;
}

}  // namespace

VertexLabels read_vertex_labels(const std::string& path, const Graph& g,
                                const std::string& graph_name) {
  detail::Progress quiet{nullptr};
  const detail::TextBuffer text = detail::read_text(path, quiet);
  const std::string graph = graph_name.empty() ? "the graph" : "the graph " + graph_name;
  const vertex_t n = g.n_vertices();
  std::vector<std::int64_t> line_of(static_cast<std::size_t>(n), 0);  // 0: no label yet
  std::vector<vertex_t> first_seen(static_cast<std::size_t>(n), 0);
  std::unordered_map<std::string_view, vertex_t> label_id;  // keys point into `text`
  std::vector<std::string> seen_names;
  const std::int64_t lines = detail::for_each_field_line(
      text.begin(), text.end(), "#", [&](std::int64_t line_no, const auto& f) {
        if (f.size() != 2)
          throw InputError(path, line_no,
                           "expected 2 fields 'ID<TAB>LABEL', found " + std::to_string(f.size()));
        const std::optional<vertex_t> v = g.find_name(f[0]);
        if (!v)
          throw InputError(path, line_no, "vertex " + quote_input(f[0]) + " is not in " + graph);
        if (line_of[*v] != 0)
          throw InputError(path, line_no,
                           "vertex " + quote_input(f[0]) + " is labelled twice (first on line " +
                               std::to_string(line_of[*v]) + ")");
        line_of[*v] = line_no;
        const auto [it, added] =
            label_id.try_emplace(f[1], static_cast<vertex_t>(seen_names.size()));
        if (added) seen_names.emplace_back(f[1]);
        first_seen[*v] = it->second;
      });
  detail::check_unchanged(text, path);
  const auto missing = std::count(line_of.begin(), line_of.end(), std::int64_t{0});
  if (missing > 0) {
    const auto v =
        static_cast<vertex_t>(std::find(line_of.begin(), line_of.end(), 0) - line_of.begin());
    const std::string what = "end of file, but vertex " + detail::printable(g.label(v)) +
                             " has no label (" + std::to_string(missing) + " of the " +
                             std::to_string(n) + " vertices of " + graph +
                             " have none); every vertex needs one line 'ID<TAB>LABEL'";
    if (lines == 0) throw InputError(path, what);
    throw InputError(path, lines, what);
  }
  return number_labels(std::move(first_seen), std::move(seen_names));
}

}  // namespace graphrun::io
