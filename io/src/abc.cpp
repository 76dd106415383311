// ABC text, as `mcl --abc` reads it: "name name [weight]" per line.
//
// Serial, unlike the edge-list reader, and on purpose: dense ids are given
// in order of first appearance (mcl's numbering, so that results list
// vertices in the order mcl does), which is a property of the whole prefix
// of the file before a line; parallel chunks would need a second, serial
// renumbering pass over every endpoint anyway. One pass with one hash lookup
// per endpoint is O(m) expected, and the files this format carries (protein
// networks and the like) are small. Assembly afterwards is shared with the
// edge-list reader (chunk_assembly.hpp: assemble_csr), so weights, repeated
// edges and --undirected behave exactly as there.

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "chunk_assembly.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/io/load.hpp"
#include "id_map.hpp"
#include "line_chunks.hpp"
#include "printable.hpp"
#include "text_fields.hpp"
#include "text_input.hpp"

namespace graphrun::io {

namespace {

using namespace detail;

// The parsed edges, in the shape fill_coo takes (as a single chunk).
struct AbcEdges {
  std::vector<vertex_t> src, dst;
  std::vector<double> weight;  // 1 where a line has none
  std::int64_t self_loops = 0;
};

// A name is any run of bytes other than blanks and line ends.
inline bool ends_name(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Names to dense ids in order of first appearance. The keys point into the
// text buffer, which outlives the map.
class NameIds {
 public:
  explicit NameIds(const std::string& path) : path_(path) {}

  vertex_t operator()(std::string_view name) {
    const auto [it, added] = ids_.try_emplace(name, static_cast<vertex_t>(names_.size()));
    if (added) {
      // Id max_vertices itself is one too many: ids run 0 .. 2^31-2.
      if (names_.size() == static_cast<std::size_t>(max_vertices))
        checked_vertex_count(names_.size() + 1, path_);
      names_.push_back(name);
    }
    return it->second;
  }

  // The names as Graph::with_names takes them; the map is done after this.
  std::vector<std::string> take_names() {
    ids_ = {};
    std::vector<std::string> out(names_.begin(), names_.end());
    names_ = {};
    return out;
  }

 private:
  const std::string& path_;
  std::unordered_map<std::string_view, vertex_t> ids_;
  std::vector<std::string_view> names_;
};

// A .grb cache given with --abc would otherwise parse as garbage names.
bool looks_like_cache(const TextBuffer& text) {
  const char* p = text.begin();
  return text.size >= 12 && std::memcmp(p, "GRAPHRUN", 8) == 0 && p[8] >= 1 && p[8] <= 9 &&
         p[9] == 0 && p[10] == 0 && p[11] == 0;
}

}  // namespace

Graph read_abc(const std::string& path, const LoadOptions& options, LoadStats* stats) {
  const Stopwatch t0;
  Progress progress(options.on_progress);

  progress.phase(0.0, 0.3);
  const TextBuffer text = read_text(path, progress, options.max_input_bytes);
  if (looks_like_cache(text))
    throw InputError(path,
                     "is a graphrun cache (.grb), not ABC text; leave out --abc (a cache keeps "
                     "the vertex names)");

  progress.phase(0.3, 0.8);
  NameIds ids(path);
  std::vector<AbcEdges> parsed(1);
  AbcEdges& edges = parsed[0];
  bool weighted = false;
  const char* const begin = text.begin();
  const char* const end = text.end();
  std::int64_t line = 1;
  for (const char* p = begin; p < end; ++line) {
    const char* q = skip_blanks(p);
    if (at_line_end(q) || *q == '#') {
      p = next_line(q);
      continue;
    }
    // Split the line; keep the first three fields, count them all.
    std::string_view field[3];
    std::int64_t found = 0;
    while (!at_line_end(q)) {
      if (*q == '\r')
        throw InputError(path, line,
                         "carriage return (\\r) inside a line; only \\r\\n may end a line");
      const char* s = q;
      while (!ends_name(*q)) ++q;
      if (found < 3) field[found] = std::string_view(s, static_cast<std::size_t>(q - s));
      ++found;
      q = skip_blanks(q);
    }
    p = q + (*q == '\r' ? 2 : 1);

    // As mcl reads ABC: each line has two names and may have a weight; a
    // line without one weighs 1, and one weighted line makes the graph
    // weighted.
    if (found != 2 && found != 3)
      throw InputError(
          path, line,
          "expected 2 or 3 columns (source, target [, weight]), found " + std::to_string(found));
    double w = 1.0;
    if (found == 3) {
      const char* at = field[2].data();
      const FieldError e = parse_weight(at, w);
      if (e != FieldError::none) throw InputError(path, line, field_message(e, "weight", at));
      if (w < 0 && options.non_negative_weights)
        throw InputError(path, line,
                         negative_weight_message(printable(field[0]), printable(field[1]), w,
                                                 options.negative_weight_hint));
      weighted = true;
    }
    const vertex_t u = ids(field[0]);
    const vertex_t v = ids(field[1]);
    edges.src.push_back(u);
    edges.dst.push_back(v);
    edges.weight.push_back(w);
    edges.self_loops += u == v;
    if ((line & 0xffff) == 0 && progress.active())
      progress.report(static_cast<double>(p - begin) / static_cast<double>(end - begin));
  }
  check_unchanged(text, path);
  if (edges.src.empty()) throw InputError(path, "no edges");
  const double read_seconds = t0.seconds();
  const Stopwatch t1;

  // CSR exactly as read_edge_list builds it from its chunks.
  progress.phase(0.8, 1.0);
  const int threads = thread_count(options.threads);
  auto size = [](const AbcEdges& c) { return c.src.size(); };
  const std::vector<offset_t> start =
      coo_offsets(parsed, options.undirected, size, [](const AbcEdges& c) { return c.self_loops; });
  std::vector<std::string> names = ids.take_names();
  const auto n = static_cast<vertex_t>(names.size());
  Csr<double> adj =
      csr_from_chunks(n, n, start, parsed, options.undirected, 1.0, weighted, options.duplicates,
                      threads, size, [&](const AbcEdges& c, std::size_t e) {
                        return CooEntry{c.src[e], c.dst[e], weighted ? c.weight[e] : 1.0};
                      });
  Graph g = Graph::with_names(std::move(adj), std::move(names), !options.undirected, weighted);
  progress.done();

  detail::record_text_load(stats, text.size, read_seconds, t1.seconds());
  return g;
}

}  // namespace graphrun::io
