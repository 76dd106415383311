// SNAP edge lists: "src dst [weight]" per line, '#' / '%' comments.
//
// Pipeline: read (and inflate) the whole file; detect the column count from
// the first data line; parse line-aligned chunks in parallel into per-chunk
// id arrays; map input ids to dense ids (id_map.hpp); assemble CSR from the
// chunks (chunk_assembly.hpp), which sorts rows and merges duplicates. With
// LoadOptions::assemble_on_device the last two run on the GPU instead
// (engine/device_assembly.hpp), and an unweighted list is parsed there too:
// its text goes up as it is and the device's parser, which takes exactly
// what parse_chunk takes for two columns, leaves any line it refuses to
// the host's parse, whose messages name the line.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "chunk_assembly.hpp"
#include "graphrun/engine/context.hpp"
#include "graphrun/engine/device_assembly.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/host_trace.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/io/load.hpp"
#include "id_map.hpp"
#include "line_chunks.hpp"
#include "text_fields.hpp"
#include "text_input.hpp"

namespace graphrun::io {

namespace {

using namespace detail;

bool is_comment(char c) noexcept { return c == '#' || c == '%'; }

// What one chunk of lines parses into. Ids are kept as Id: 32 bits while
// every id of the file fits (nearly every file: ids below 4,294,967,296),
// which halves what the parse writes and what every later pass reads; a
// 32-bit chunk that meets a larger id stops and says so (`wide`), and the
// file is parsed again with 64-bit ids.
template <class Id>
struct EdgeChunk {
  std::vector<Id> src, dst;
  std::vector<double> weight;  // empty for an unweighted file
  std::uint64_t max_id = 0;
  std::int64_t self_loops = 0;
  bool wide = false;
};

std::string columns_message(const char* line_start, bool weighted) {
  return std::string(weighted ? "expected 3 columns (source, target, weight)"
                              : "expected 2 columns (source, target)") +
         " as on the first data line, found " + std::to_string(count_fields(line_start));
}

// Columns of the first data line (0 when there is none) and its number.
int first_data_columns(const char* p, const char* end, std::int64_t& line) {
  for (line = 1; p < end; p = next_line(p), ++line) {
    const char* q = skip_blanks(p);
    if (at_line_end(q) || is_comment(*q)) continue;
    return count_fields(q);
  }
  return 0;
}

// "source id 'YKR068C' is not a number" and friends; a field that is no
// number at all is most likely a name, which the ABC reader takes.
std::string id_message(FieldError e, const char* what, const char* field) {
  std::string m = field_message(e, what, field);
  if (e == FieldError::not_a_number) m += "; for named vertices use --abc";
  return m;
}

template <class Id>
void parse_chunk(TextChunk& c, EdgeChunk<Id>& out, bool weighted, const LoadOptions& options) {
  const bool refuse_negative = weighted && options.non_negative_weights;
  // About 10-20 bytes per line in typical files; reserving avoids most regrowth.
  const auto guess = static_cast<std::size_t>(c.end - c.begin) / 12;
  out.src.reserve(guess);
  out.dst.reserve(guess);
  if (weighted) out.weight.reserve(guess);
  std::uint64_t max_id = 0;
  std::int64_t loops = 0, line = 0;
  for (const char* p = c.begin; p < c.end; ++line) {
    const char* q = skip_blanks(p);
    if (at_line_end(q) || is_comment(*q)) {
      p = next_line(q);
      continue;
    }
    std::uint64_t u = 0, v = 0;
    double w = 0;
    FieldError e = parse_u64(q, u);
    if (e != FieldError::none) return c.fail(line, q, id_message(e, "source id", q));
    q = skip_blanks(q);
    if (at_line_end(q)) return c.fail(line, q, columns_message(p, weighted));
    e = parse_u64(q, v);
    if (e != FieldError::none) return c.fail(line, q, id_message(e, "target id", q));
    q = skip_blanks(q);
    if (weighted) {
      if (at_line_end(q)) return c.fail(line, q, columns_message(p, weighted));
      e = parse_weight(q, w);
      if (e != FieldError::none) return c.fail(line, q, field_message(e, "weight", q));
      q = skip_blanks(q);
    }
    if (!at_line_end(q)) return c.fail(line, q, columns_message(p, weighted));
    if (refuse_negative && w < 0)
      return c.fail(line, q,
                    negative_weight_message(std::to_string(u), std::to_string(v), w,
                                            options.negative_weight_hint));
    p = q + (*q == '\r' ? 2 : 1);

    if constexpr (sizeof(Id) < sizeof(std::uint64_t))
      if (((u | v) >> (8 * sizeof(Id))) != 0) {
        out.wide = true;
        return;
      }
    out.src.push_back(static_cast<Id>(u));
    out.dst.push_back(static_cast<Id>(v));
    if (weighted) out.weight.push_back(w);
    max_id = std::max(max_id, std::max(u, v));
    loops += u == v;
  }
  c.newlines = line;
  out.max_id = max_id;
  out.self_loops = loops;
}

// The graph of a device assembly.
Graph device_graph(AssembledCsr a, bool weighted, const LoadOptions& options, LoadStats* stats) {
  if (stats) {
    stats->seconds_to_device = a.seconds_upload;
    stats->seconds_from_device = a.seconds_download;
  }
  Graph g = a.fetch ? Graph::with_deferred_adjacency(a.n, a.nnz, a.self_loops, !weighted,
                                                     std::move(a.fetch), std::move(a.ids),
                                                     !options.undirected, weighted)
                    : Graph(std::move(a.adj), std::move(a.ids), !options.undirected, weighted);
  g.set_device_adjacency(std::move(a.device));
  return g;
}

// An unweighted list parsed and assembled on the GPU, when asked for and
// possible: the text goes to the device as it is (a byte a character,
// where the host's parse costs more than the copy and sends 8 bytes an
// edge). The host does not parse meanwhile: while the device's context is
// being made it has nothing to hand over to, and 16 host threads parsing
// beside the context's making slowed it by 0.1-0.2 s on the H100 host,
// more than they saved (docs/performance.md). nullopt where the host must
// parse: no GPU, a line the device's parser refuses (the host's parse then
// reports it, with its line), or a text too large for the device.
std::optional<Graph> parse_on_device(const TextBuffer& text, const std::string& path,
                                     const LoadOptions& options, double read_seconds,
                                     HostTrace& trace, LoadStats* stats) {
  if (!options.assemble_on_device || cuda_device_count() == 0) return std::nullopt;
  const Stopwatch t1;
  try {
    std::optional<AssembledCsr> a = assemble_edge_text_on_device(
        {}, {text.begin(), text.end()}, options.undirected, path, options.keep_on_device);
    if (!a) return std::nullopt;
    check_unchanged(text, path);  // the device read a page the guard replaced
    Graph g = device_graph(std::move(*a), false, options, stats);
    trace.step("parsed and assembled on the device");
    detail::record_text_load(stats, text.size, read_seconds, t1.seconds());
    return g;
  } catch (const DeviceMemoryError&) {
    return std::nullopt;
  }
}

// The graph assembled on the GPU, when asked for and possible; nullopt
// when the host must do it (no CUDA backend or GPU, not enough device memory).
template <class Id>
std::optional<Graph> assemble_on_device(std::vector<EdgeChunk<Id>>& parsed, bool weighted,
                                        const LoadOptions& options, const std::string& path,
                                        LoadStats* stats) {
  if (!options.assemble_on_device || cuda_device_count() == 0) return std::nullopt;
  std::vector<IdEdges> parts(parsed.size());
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    const EdgeChunk<Id>& c = parsed[i];
    if constexpr (sizeof(Id) == sizeof(std::uint32_t)) {
      parts[i].src32 = c.src;
      parts[i].dst32 = c.dst;
    } else {
      parts[i].src = c.src;
      parts[i].dst = c.dst;
    }
    parts[i].weight = c.weight;
    parts[i].max_id = c.max_id;
  }
  try {
    AssembledCsr a = assemble_csr_on_device(parts, options.undirected, weighted, options.duplicates,
                                            path, options.keep_on_device);
    parsed = {};
    return device_graph(std::move(a), weighted, options, stats);
  } catch (const DeviceMemoryError&) {
    return std::nullopt;  // too large for the device: the host assembles it
  }
}

// The graph from the parsed chunks: dense ids, then CSR, on the GPU when
// asked for and possible, else on the host.
template <class Id>
Graph assemble(std::vector<EdgeChunk<Id>>& parsed, bool weighted, std::size_t text_bytes,
               double read_seconds, const std::string& path, const LoadOptions& options,
               int threads, Progress& progress, HostTrace& trace, LoadStats* stats) {
  const Stopwatch t1;

  // Dense ids in ascending order of input id.
  progress.phase(0.8, 1.0);
  std::vector<std::span<const Id>> endpoints;
  std::uint64_t max_id = 0;
  for (const EdgeChunk<Id>& c : parsed) {
    endpoints.emplace_back(c.src);
    endpoints.emplace_back(c.dst);
    max_id = std::max(max_id, c.max_id);
  }
  // Symmetrizing adds the reverse of every edge but a self loop.
  auto size = [](const EdgeChunk<Id>& c) { return c.src.size(); };
  const std::vector<offset_t> start = coo_offsets(
      parsed, options.undirected, size, [](const EdgeChunk<Id>& c) { return c.self_loops; });
  if (start.back() == 0) throw InputError(path, "no edges");
  if (std::optional<Graph> g = assemble_on_device(parsed, weighted, options, path, stats)) {
    trace.step("assembled on the device");
    if (stats) {
      stats->bytes_read = text_bytes;
      stats->seconds_read = read_seconds;
      stats->seconds_build = t1.seconds();
      stats->declared_vertices = stats->omitted_vertices = 0;
    }
    progress.done();
    return std::move(*g);
  }
  IdMap ids(endpoints, max_id, threads, path);
  progress.report(0.3);
  trace.step("ids numbered");

  // Input ids to dense ids in place, once: the assembly reads every entry
  // twice, and a lookup in a table of millions of ids misses the cache.
  const auto n_chunks = static_cast<std::int64_t>(parsed.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (std::int64_t i = 0; i < n_chunks; ++i) {
    EdgeChunk<Id>& c = parsed[static_cast<std::size_t>(i)];
    for (std::size_t e = 0; e < c.src.size(); ++e) {
      c.src[e] = static_cast<Id>(ids(c.src[e]));
      c.dst[e] = static_cast<Id>(ids(c.dst[e]));
    }
  }
  trace.step("ids mapped");
  Csr<double> adj = csr_from_chunks(
      ids.size(), ids.size(), start, parsed, options.undirected, 1.0, weighted, options.duplicates,
      threads, size, [&](const EdgeChunk<Id>& c, std::size_t e) {
        return CooEntry{static_cast<vertex_t>(c.src[e]), static_cast<vertex_t>(c.dst[e]),
                        weighted ? c.weight[e] : 1.0};
      });
  parsed = {};
  Graph g(std::move(adj), ids.take_ids(), !options.undirected, weighted);
  progress.done();

  trace.step("assembled on the host");
  detail::record_text_load(stats, text_bytes, read_seconds, t1.seconds());
  return g;
}

}  // namespace

Graph read_edge_list(const std::string& path, const LoadOptions& options, LoadStats* stats) {
  const Stopwatch t0;
  const int threads = thread_count(options.threads);
  Progress progress(options.on_progress);
  HostTrace trace("edge list");  // GRAPHRUN_TRACE: where a large file's time goes

  progress.phase(0.0, 0.3);
  const TextBuffer text = read_text(path, progress, options.max_input_bytes);
  trace.step("read");

  std::int64_t first_line = 0;
  const int columns = first_data_columns(text.begin(), text.end(), first_line);
  if (columns == 0) throw InputError(path, "no edges");
  if (columns != 2 && columns != 3)
    throw InputError(
        path, first_line,
        "expected 2 or 3 columns (source, target [, weight]), found " + std::to_string(columns));
  const bool weighted = columns == 3;

  if (!weighted)
    if (std::optional<Graph> g = parse_on_device(text, path, options, t0.seconds(), trace, stats)) {
      progress.done();
      return std::move(*g);
    }

  progress.phase(0.3, 0.8);
  const std::size_t chunk_bytes =
      options.chunk_bytes > 0 ? options.chunk_bytes : auto_chunk_bytes(text.size, threads);
  std::vector<TextChunk> chunks = split_lines(text.begin(), text.end(), chunk_bytes);
  std::vector<EdgeChunk<std::uint32_t>> parsed(chunks.size());
  for_each_chunk(chunks, threads, progress,
                 [&](std::size_t i) { parse_chunk(chunks[i], parsed[i], weighted, options); });
  std::vector<EdgeChunk<std::uint64_t>> wide;
  if (std::any_of(parsed.begin(), parsed.end(), [](const auto& c) { return c.wide; })) {
    // An id past 32 bits: the whole file again, with 64-bit ids.
    parsed = {};
    for (TextChunk& c : chunks) c.restart();
    wide.resize(chunks.size());
    for_each_chunk(chunks, threads, progress,
                   [&](std::size_t i) { parse_chunk(chunks[i], wide[i], weighted, options); });
  }
  check_unchanged(text, path);  // before the chunks' errors: they may be of lost pages
  number_lines(chunks, 1, path);
  trace.step(wide.empty() ? "parsed" : "parsed (64-bit ids)");
  const double read_seconds = t0.seconds();
  return wide.empty() ? assemble(parsed, weighted, text.size, read_seconds, path, options, threads,
                                 progress, trace, stats)
                      : assemble(wide, weighted, text.size, read_seconds, path, options, threads,
                                 progress, trace, stats);
}

}  // namespace graphrun::io
