// ABC text, as `mcl --abc` reads it: "name name [weight]" per line.
//
// Dense ids are given in order of first appearance (mcl's numbering, so
// that results list vertices in the order mcl does), a property of the
// whole prefix of the file before a line. So the work is cut in two: the
// lines are split into fields, weights parsed and names hashed in parallel,
// line-aligned chunks a thread each (line_chunks.hpp, as the edge-list
// reader does); then one pass over the chunks in file order gives each name
// its id through an open-addressing table whose slots are prefetched a few
// names ahead. That pass is all that stays serial: a probe per endpoint,
// most of them hits on names seen before. Assembly afterwards is shared with
// the edge-list reader (chunk_assembly.hpp: assemble_csr), so weights,
// repeated edges and --undirected behave exactly as there.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "chunk_assembly.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/host_trace.hpp"
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

// An endpoint's name where the text holds it, and its hash.
struct NameRef {
  const char* at;
  std::uint32_t length;
  std::uint32_t hash;
  std::string_view view() const noexcept { return {at, length}; }
};

// One chunk of lines: the names of its edges' endpoints (source, target,
// line by line) and its weights; then, once numbered, the edges in the
// shape fill_coo takes.
struct AbcChunk {
  std::vector<NameRef> names;
  std::vector<double> weight;  // 1 where a line has none
  bool weighted = false;       // a line of the chunk has a weight
  std::vector<vertex_t> src, dst;
  std::int64_t self_loops = 0;
};

inline std::uint32_t name_hash(std::string_view name) noexcept {
  const std::size_t h = std::hash<std::string_view>{}(name);
  return static_cast<std::uint32_t>(h ^ (h >> 32));
}

void parse_chunk(TextChunk& c, AbcChunk& out, const LoadOptions& options) {
  const auto guess = static_cast<std::size_t>(c.end - c.begin) / 16;
  out.names.reserve(2 * guess);
  out.weight.reserve(guess);
  std::int64_t line = 0;
  for (const char* p = c.begin; p < c.end; ++line) {
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
        return c.fail(line, q, "carriage return (\\r) inside a line; only \\r\\n may end a line");
      const char* s = q;
      while (!ends_field(*q)) ++q;  // a name: any bytes but blanks and line ends
      if (found < 3) field[found] = std::string_view(s, static_cast<std::size_t>(q - s));
      ++found;
      q = skip_blanks(q);
    }
    // As mcl reads ABC: each line has two names and may have a weight; a
    // line without one weighs 1, and one weighted line makes the graph
    // weighted.
    if (found != 2 && found != 3)
      return c.fail(
          line, q,
          "expected 2 or 3 columns (source, target [, weight]), found " + std::to_string(found));
    double w = 1.0;
    if (found == 3) {
      const char* at = field[2].data();
      const FieldError e = parse_weight(at, w);
      if (e != FieldError::none) return c.fail(line, q, field_message(e, "weight", at));
      if (w < 0 && options.non_negative_weights)
        return c.fail(line, q,
                      negative_weight_message(printable(field[0]), printable(field[1]), w,
                                              options.negative_weight_hint));
      out.weighted = true;
    }
    for (int k = 0; k < 2; ++k) {
      if (field[k].size() > UINT32_MAX) return c.fail(line, q, "a name longer than 4 GiB");
      out.names.push_back(
          {field[k].data(), static_cast<std::uint32_t>(field[k].size()), name_hash(field[k])});
    }
    out.weight.push_back(w);
    p = q + (*q == '\r' ? 2 : 1);
  }
  c.newlines = line;
}

// Names to dense ids in order of first appearance: open addressing with
// linear probing, a slot holding a name's hash and id + 1 (0: empty), at
// most half the slots used. The names point into the text buffer, which
// outlives the table.
class NameIds {
 public:
  explicit NameIds(const std::string& path) : path_(path) { rehash(std::size_t{1} << 16); }

  void prefetch(std::uint32_t hash) const noexcept { __builtin_prefetch(&slots_[hash & mask_]); }

  vertex_t operator()(const NameRef& name) {
    for (std::size_t i = name.hash & mask_;; i = (i + 1) & mask_) {
      const Slot s = slots_[i];
      if (s.id == 0) return add(name, i);
      if (s.hash == name.hash && names_[s.id - 1] == name.view()) return s.id - 1;
    }
  }

  std::size_t size() const noexcept { return names_.size(); }

  // The names as Graph::with_names takes them; the table is done after this.
  std::vector<std::string> take_names() {
    slots_ = {};
    hashes_ = {};
    std::vector<std::string> out(names_.begin(), names_.end());
    names_ = {};
    return out;
  }

 private:
  struct Slot {
    std::uint32_t hash = 0;
    std::uint32_t id = 0;  // the name's id + 1; 0 while the slot is empty
  };

  vertex_t add(const NameRef& name, std::size_t slot) {
    // Id max_vertices itself is one too many: ids run 0 .. 2^31-2.
    if (names_.size() == static_cast<std::size_t>(max_vertices))
      checked_vertex_count(names_.size() + 1, path_);
    const auto id = static_cast<vertex_t>(names_.size());
    names_.push_back(name.view());
    hashes_.push_back(name.hash);
    slots_[slot] = {name.hash, static_cast<std::uint32_t>(id) + 1};
    if (2 * names_.size() > slots_.size()) rehash(2 * slots_.size());
    return id;
  }

  void rehash(std::size_t n_slots) {
    slots_.assign(n_slots, Slot{});
    mask_ = n_slots - 1;
    for (std::size_t id = 0; id < names_.size(); ++id) {
      std::size_t i = hashes_[id] & mask_;
      while (slots_[i].id != 0) i = (i + 1) & mask_;
      slots_[i] = {hashes_[id], static_cast<std::uint32_t>(id) + 1};
    }
  }

  const std::string& path_;
  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  std::vector<std::string_view> names_;
  std::vector<std::uint32_t> hashes_;  // by id, for rehashing
};

// Ids for every chunk's names, chunk by chunk in file order; each chunk's
// names give way to its edges.
void number_names(std::vector<AbcChunk>& chunks, NameIds& ids) {
  constexpr std::size_t kAhead = 16;  // names whose slots are on their way
  for (AbcChunk& c : chunks) {
    const std::size_t n = c.names.size();
    c.src.resize(n / 2);
    c.dst.resize(n / 2);
    for (std::size_t k = 0; k < n; ++k) {
      if (k + kAhead < n) ids.prefetch(c.names[k + kAhead].hash);
      const vertex_t id = ids(c.names[k]);
      (k % 2 == 0 ? c.src : c.dst)[k / 2] = id;
    }
    for (std::size_t e = 0; e < n / 2; ++e) c.self_loops += c.src[e] == c.dst[e];
    c.names = {};
  }
}

// A .grb cache given with --abc would otherwise parse as garbage names.
bool looks_like_cache(const TextBuffer& text) {
  const char* p = text.begin();
  return text.size >= 12 && std::memcmp(p, "GRAPHRUN", 8) == 0 && p[8] >= 1 && p[8] <= 9 &&
         p[9] == 0 && p[10] == 0 && p[11] == 0;
}

}  // namespace

Graph read_abc(const std::string& path, const LoadOptions& options, LoadStats* stats) {
  const Stopwatch t0;
  const int threads = thread_count(options.threads);
  Progress progress(options.on_progress);
  HostTrace trace("abc");  // GRAPHRUN_TRACE: where a large file's time goes

  progress.phase(0.0, 0.3);
  const TextBuffer text = read_text(path, progress, options.max_input_bytes);
  if (looks_like_cache(text))
    throw InputError(path,
                     "is a graphrun cache (.grb), not ABC text; leave out --abc (a cache keeps "
                     "the vertex names)");
  trace.step("read");

  progress.phase(0.3, 0.7);
  const std::size_t chunk_bytes =
      options.chunk_bytes > 0 ? options.chunk_bytes : auto_chunk_bytes(text.size, threads);
  std::vector<TextChunk> chunks = split_lines(text.begin(), text.end(), chunk_bytes);
  std::vector<AbcChunk> parsed(chunks.size());
  for_each_chunk(chunks, threads, progress,
                 [&](std::size_t i) { parse_chunk(chunks[i], parsed[i], options); });
  check_unchanged(text, path);  // before the chunks' errors: they may be of lost pages
  number_lines(chunks, 1, path);
  trace.step("parsed");

  progress.phase(0.7, 0.8);
  NameIds ids(path);
  number_names(parsed, ids);
  if (ids.size() == 0) throw InputError(path, "no edges");
  trace.step("names numbered");
  const bool weighted =
      std::any_of(parsed.begin(), parsed.end(), [](const AbcChunk& c) { return c.weighted; });
  const double read_seconds = t0.seconds();
  const Stopwatch t1;

  // CSR exactly as read_edge_list builds it from its chunks.
  progress.phase(0.8, 1.0);
  auto size = [](const AbcChunk& c) { return c.src.size(); };
  const std::vector<offset_t> start =
      coo_offsets(parsed, options.undirected, size, [](const AbcChunk& c) { return c.self_loops; });
  std::vector<std::string> names = ids.take_names();
  const auto n = static_cast<vertex_t>(names.size());
  Csr<double> adj =
      csr_from_chunks(n, n, start, parsed, options.undirected, 1.0, weighted, options.duplicates,
                      threads, size, [&](const AbcChunk& c, std::size_t e) {
                        return CooEntry{c.src[e], c.dst[e], weighted ? c.weight[e] : 1.0};
                      });
  parsed = {};
  Graph g = Graph::with_names(std::move(adj), std::move(names), !options.undirected, weighted);
  progress.done();
  trace.step("assembled");

  detail::record_text_load(stats, text.size, read_seconds, t1.seconds());
  return g;
}

}  // namespace graphrun::io
