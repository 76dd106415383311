// Matrix Market coordinate files (NIST / SuiteSparse):
//
//   %%MatrixMarket matrix coordinate {real|integer|pattern} {general|symmetric|skew-symmetric}
//   % comments
//   rows cols entries
//   i j [value]          1-based, `entries` lines
//
// Symmetric files store one triangle; the other is added here (negated for
// skew-symmetric). The header is trusted for nothing: every index is checked
// against it and the entry count must match exactly.
//
// A graph is built over the declared vertices 1..n, or, when n is far more
// than the entries (hypersparse), over the indices that occur, through the
// edge lists' id map (id_map.hpp): a few bytes of size line must not cost
// gigabytes of empty rows.

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <limits>
#include <numeric>
#include <span>
#include <sstream>
#include <type_traits>
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

// A size line may declare far more rows than the file has entries (a few
// bytes can say 2^31 - 1), and every row costs its row pointer and, in a
// graph, its id, however empty: 16 bytes. Where that alone is past the
// machine's memory the read is refused now, naming the bytes, rather than
// left to an allocation that the kernel may grant and then kill the
// process for. (Smaller declarations are honoured: they are valid files.)
void check_declared_size(const std::string& path, std::int64_t line, vertex_t rows, vertex_t cols) {
  const double memory = static_cast<double>(physical_memory_bytes());
  const double need = 16.0 * (static_cast<double>(std::max(rows, cols)) + 1.0);
  if (need <= memory) return;
  char text[200];
  std::snprintf(text, sizeof text,
                "the size line declares %lld rows and %lld columns: their row pointers and ids "
                "alone take %.3g GB, more than this machine's %.3g GB of memory",
                static_cast<long long>(rows), static_cast<long long>(cols), need / 1e9,
                memory / 1e9);
  throw SizeError(path + ":" + std::to_string(line) + ": " + text);
}

enum class Symmetry { general, symmetric, skew_symmetric };

struct Header {
  bool pattern = false;
  Symmetry symmetry = Symmetry::general;
  std::uint64_t rows = 0, cols = 0;  // as declared, at most 2^63 - 1
  offset_t entries = 0;
  std::int64_t size_line = 0;  // line number of "rows cols entries"
  const char* data = nullptr;  // first byte after the size line
};

// Whether `n` declared rows are hypersparse: more than 2^20 and more than 4
// per stored entry (a symmetric file stores its entries twice). Each row
// costs 16 bytes however empty (row pointer and id), an entry about as much
// (column, value, and the COO it is built from), so past 4 rows per entry
// the empty rows would take most of the memory, gigabytes for a one-entry
// file that declares 10^9. Below 2^20 rows they take at most 16 MB: small
// files keep their isolated vertices.
bool hypersparse(std::uint64_t n, const Header& h) {
  const auto entries = static_cast<std::uint64_t>(h.entries);  // < 2^63: doubling fits
  const std::uint64_t stored = h.symmetry == Symmetry::general ? entries : 2 * entries;
  return n > (std::uint64_t(1) << 20) && (n - 1) / 4 >= stored;  // n > 4 * stored
}

// A plain matrix keeps every row: hypersparse rows are refused from the size
// line, before any is allocated.
[[noreturn]] void refuse_hypersparse_rows(const std::string& path, const Header& h) {
  const double bytes = 8.0 * (static_cast<double>(h.rows) + 1.0);
  char text[512];
  std::snprintf(text, sizeof text,
                "the size line declares a %llu x %llu matrix with %lld %s: hypersparse rows, "
                "whose row pointers alone would take %.0f bytes (%.3g GB); a product keeps "
                "every declared row (the graph view, which keeps only the indices that occur, "
                "is not available for products)",
                static_cast<unsigned long long>(h.rows), static_cast<unsigned long long>(h.cols),
                static_cast<long long>(h.entries), h.entries == 1 ? "entry" : "entries", bytes,
                bytes / 1e9);
  throw SizeError(path + ":" + std::to_string(h.size_line) + ": " + text);
}

// Dense rows and columns: within the index types and the machine's memory.
void check_dense(const std::string& path, const Header& h) {
  const vertex_t rows = checked_vertex_count(h.rows, path);
  const vertex_t cols = checked_vertex_count(h.cols, path);
  check_declared_size(path, h.size_line, rows, cols);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

Header parse_header(const std::string& path, const char* p, const char* end) {
  Header h;
  // Banner: %%MatrixMarket object format field symmetry (keywords in any case).
  const char* eol = next_line(p);
  std::istringstream banner(std::string(p, eol));
  std::string tag, object, format, field, symmetry;
  banner >> tag >> object >> format >> field >> symmetry;
  if (lower(tag) != "%%matrixmarket")
    throw InputError(path, 1, "not a Matrix Market file (no %%MatrixMarket header)");
  object = lower(object), format = lower(format), field = lower(field);
  symmetry = lower(symmetry);
  if (object != "matrix")
    throw InputError(path, 1,
                     "unsupported Matrix Market object " + quote_input(object) + " (only matrix)");
  if (format != "coordinate")
    throw InputError(
        path, 1, "unsupported Matrix Market format " + quote_input(format) + " (only coordinate)");
  if (field == "pattern") {
    h.pattern = true;
  } else if (field != "real" && field != "integer" && field != "double") {
    throw InputError(path, 1,
                     "unsupported Matrix Market field " + quote_input(field) +
                         " (real, integer and pattern are supported)");
  }
  if (symmetry == "symmetric") {
    h.symmetry = Symmetry::symmetric;
  } else if (symmetry == "skew-symmetric" && !h.pattern) {
    h.symmetry = Symmetry::skew_symmetric;
  } else if (symmetry != "general") {
    throw InputError(path, 1,
                     "unsupported Matrix Market symmetry " + quote_input(symmetry) + " for field " +
                         quote_input(field));
  }

  // Comments and blank lines, then the size line.
  std::int64_t line = 2;
  for (p = eol; p < end; p = next_line(p), ++line) {
    const char* q = skip_blanks(p);
    if (at_line_end(q) || *q == '%') continue;
    std::uint64_t size[3] = {};
    const char* what[3] = {"row count", "column count", "entry count"};
    for (int k = 0; k < 3; ++k) {
      if (at_line_end(q))
        throw InputError(path, line, "size line needs 3 numbers (rows columns entries)");
      const FieldError e = parse_u64(q, size[k]);
      if (e != FieldError::none) throw InputError(path, line, field_message(e, what[k], q));
      q = skip_blanks(q);
    }
    if (!at_line_end(q))
      throw InputError(path, line,
                       "size line needs 3 numbers (rows columns entries), found " +
                           std::to_string(count_fields(p)));
    constexpr auto most = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    for (int k = 0; k < 3; ++k)
      if (size[k] > most)
        throw SizeError(path + ": " + what[k] + " " + std::to_string(size[k]) + " is too large");
    h.rows = size[0];
    h.cols = size[1];
    h.entries = static_cast<offset_t>(size[2]);
    if (h.symmetry != Symmetry::general && h.rows != h.cols)
      throw InputError(path, line, "a symmetric matrix must be square");
    h.size_line = line;
    h.data = next_line(q);
    return h;
  }
  throw InputError(path, "no size line (rows columns entries) after the header");
}

// Entries of one chunk. Index is vertex_t for dense rows (the index - 1) or
// uint64 for a hypersparse graph (the index itself, an input id).
template <class Index>
struct EntryChunk {
  std::vector<Index> row, col;
  std::vector<double> val;  // empty for a pattern file
  std::int64_t diagonal = 0;
  std::uint64_t max_index = 0;
};

// LoadOptions::non_negative_weights: what to say of entry (i, j, v), or
// nothing when neither it nor the mirror a skew-symmetric file implies (the
// value negated) is a negative weight.
std::string negative_entry(const Header& h, std::uint64_t i, std::uint64_t j, double v,
                           const std::string& hint) {
  if (v < 0) return negative_weight_message(std::to_string(i), std::to_string(j), v, hint);
  if (h.symmetry == Symmetry::skew_symmetric && v > 0 && i != j)
    return negative_weight_message(std::to_string(j), std::to_string(i), -v, hint,
                                   " (the mirror of entry " + std::to_string(i) + " " +
                                       std::to_string(j) + " of a skew-symmetric matrix)");
  return {};
}

template <class Index>
void parse_chunk(TextChunk& c, EntryChunk<Index>& out, const Header& h, const LoadOptions* checks) {
  // Dense rows are numbered from 0, input ids are the indices themselves.
  constexpr std::uint64_t base = std::is_same_v<Index, std::uint64_t> ? 0 : 1;
  const auto guess = static_cast<std::size_t>(c.end - c.begin) / 12;
  out.row.reserve(guess);
  out.col.reserve(guess);
  if (!h.pattern) out.val.reserve(guess);
  const bool check_negative = checks != nullptr && checks->non_negative_weights && !h.pattern;
  const std::string columns = h.pattern ? "expected 2 columns (row, column) in a pattern file"
                                        : "expected 3 columns (row, column, value)";
  std::int64_t line = 0, diagonal = 0;
  std::uint64_t max_index = 0;
  for (const char* p = c.begin; p < c.end; ++line) {
    const char* q = skip_blanks(p);
    if (at_line_end(q) || *q == '%') {
      p = next_line(q);
      continue;
    }
    std::uint64_t index[2] = {};
    const std::uint64_t limit[2] = {h.rows, h.cols};
    const char* what[2] = {"row index", "column index"};
    for (int k = 0; k < 2; ++k) {
      if (at_line_end(q))
        return c.fail(line, q, columns + ", found " + std::to_string(count_fields(p)));
      const char* field = q;
      const FieldError e = parse_u64(q, index[k]);
      if (e != FieldError::none) return c.fail(line, q, field_message(e, what[k], q));
      if (index[k] == 0)
        return c.fail(line, q, std::string(what[k]) + " 0 (Matrix Market indices start at 1)");
      if (index[k] > limit[k])
        return c.fail(line, q,
                      std::string(what[k]) + " " + field_text(field) + " beyond the " +
                          std::to_string(limit[k]) + (k == 0 ? " rows" : " columns") +
                          " declared in the header");
      q = skip_blanks(q);
    }
    double v = 0;
    if (!h.pattern) {
      if (at_line_end(q))
        return c.fail(line, q, columns + ", found " + std::to_string(count_fields(p)));
      const FieldError e = parse_weight(q, v);
      if (e != FieldError::none) return c.fail(line, q, field_message(e, "value", q));
      q = skip_blanks(q);
    }
    if (!at_line_end(q))
      return c.fail(line, q, columns + ", found " + std::to_string(count_fields(p)));
    if (check_negative && (v < 0 || (v > 0 && h.symmetry == Symmetry::skew_symmetric))) {
      std::string negative = negative_entry(h, index[0], index[1], v, checks->negative_weight_hint);
      if (!negative.empty()) return c.fail(line, q, std::move(negative));
    }
    p = q + (*q == '\r' ? 2 : 1);
    out.row.push_back(static_cast<Index>(index[0] - base));
    out.col.push_back(static_cast<Index>(index[1] - base));
    if (!h.pattern) out.val.push_back(v);
    diagonal += index[0] == index[1];
    max_index = std::max(max_index, std::max(index[0], index[1]));
  }
  c.newlines = line;
  out.diagonal = diagonal;
  out.max_index = max_index;
}

struct Input {
  TextBuffer text;
  Header header;
};

Input read_input(const std::string& path, Progress& progress, std::size_t max_input_bytes) {
  progress.phase(0.0, 0.3);
  Input in;
  in.text = read_text(path, progress, max_input_bytes);
  in.header = parse_header(path, in.text.begin(), in.text.end());
  return in;
}

// The entries, parsed in parallel chunks and counted against the header.
template <class Index>
std::vector<EntryChunk<Index>> read_entries(const std::string& path, const Input& in, int threads,
                                            std::size_t chunk_bytes, const LoadOptions* checks,
                                            Progress& progress) {
  const Header& h = in.header;
  progress.phase(0.3, 0.8);
  if (chunk_bytes == 0)
    chunk_bytes = auto_chunk_bytes(static_cast<std::size_t>(in.text.end() - h.data), threads);
  std::vector<TextChunk> chunks = split_lines(h.data, in.text.end(), chunk_bytes);
  std::vector<EntryChunk<Index>> parsed(chunks.size());
  for_each_chunk(chunks, threads, progress,
                 [&](std::size_t i) { parse_chunk(chunks[i], parsed[i], h, checks); });
  check_unchanged(in.text, path);  // before the chunks' errors: they may be of lost pages
  number_lines(chunks, h.size_line + 1, path);

  // The entry count must be exactly what the header says.
  offset_t found = 0;
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    const auto here = static_cast<offset_t>(parsed[i].row.size());
    if (found + here > h.entries)
      throw InputError(
          path, line_of_data_line(chunks[i], h.entries - found, "%"),
          "more entries than the " + std::to_string(h.entries) + " declared in the header");
    found += here;
  }
  if (found < h.entries) {
    const std::int64_t last_line =
        chunks.empty() ? h.size_line : chunks.back().first_line + chunks.back().newlines - 1;
    throw InputError(path, last_line,
                     "only " + std::to_string(found) + " entries, the header declares " +
                         std::to_string(h.entries));
  }
  return parsed;
}

// CSR of the parsed entries, vertex(index) giving each index's row or
// column; `mirror` adds (j, i) for every off-diagonal (i, j) of a general
// file (a symmetric file is always expanded).
template <class Index, class Vertex>
Csr<double> assemble(const Header& h, const std::vector<EntryChunk<Index>>& parsed, vertex_t rows,
                     vertex_t cols, bool mirror, Duplicates dup, int threads, Vertex vertex) {
  const bool expand = mirror || h.symmetry != Symmetry::general;
  const double sign = h.symmetry == Symmetry::skew_symmetric ? -1.0 : 1.0;
  auto size = [](const EntryChunk<Index>& c) { return c.row.size(); };
  const std::vector<offset_t> start =
      coo_offsets(parsed, expand, size, [](const EntryChunk<Index>& c) { return c.diagonal; });
  return csr_from_chunks(
      rows, cols, start, parsed, expand, sign, !h.pattern, dup, threads, size,
      [&](const EntryChunk<Index>& c, std::size_t e) {
        return CooEntry{vertex(c.row[e]), vertex(c.col[e]), h.pattern ? 1.0 : c.val[e]};
      });
}

}  // namespace

Csr<double> read_matrix_market(const std::string& path) {
  Progress progress(nullptr);
  const int threads = thread_count(0);
  const Input in = read_input(path, progress, 0);
  const Header& h = in.header;
  if (hypersparse(h.rows, h)) refuse_hypersparse_rows(path, h);
  check_dense(path, h);
  auto parsed = read_entries<vertex_t>(path, in, threads, 0, nullptr, progress);
  return assemble(h, parsed, static_cast<vertex_t>(h.rows), static_cast<vertex_t>(h.cols), false,
                  Duplicates::sum, threads, [](vertex_t v) { return v; });
}

Graph read_matrix_market_graph(const std::string& path, const LoadOptions& options,
                               LoadStats* stats) {
  const Stopwatch t0;
  Progress progress(options.on_progress);
  const int threads = thread_count(options.threads);
  const Input in = read_input(path, progress, options.max_input_bytes);
  const Header& h = in.header;
  if (h.rows != h.cols)
    throw InputError(path, h.size_line,
                     "a graph needs a square matrix, this one is " + std::to_string(h.rows) +
                         " x " + std::to_string(h.cols));
  const bool undirected = options.undirected || h.symmetry != Symmetry::general;

  Csr<double> adj;
  std::vector<std::uint64_t> ids;
  double seconds_read = 0;
  Stopwatch t1;
  const bool sparse = hypersparse(h.rows, h);
  if (sparse) {
    // Vertices are the indices that occur, numbered in ascending order.
    auto parsed =
        read_entries<std::uint64_t>(path, in, threads, options.chunk_bytes, &options, progress);
    seconds_read = t0.seconds();
    t1.restart();
    progress.phase(0.8, 1.0);
    std::vector<std::span<const std::uint64_t>> endpoints;
    std::uint64_t max_index = 0;
    for (const auto& c : parsed) {
      endpoints.emplace_back(c.row);
      endpoints.emplace_back(c.col);
      max_index = std::max(max_index, c.max_index);
    }
    IdMap map(endpoints, max_index, threads, path);
    adj = assemble(h, parsed, map.size(), map.size(), options.undirected, options.duplicates,
                   threads, [&](std::uint64_t index) { return map(index); });
    ids = map.take_ids();
  } else {
    check_dense(path, h);
    auto parsed =
        read_entries<vertex_t>(path, in, threads, options.chunk_bytes, &options, progress);
    seconds_read = t0.seconds();
    t1.restart();
    progress.phase(0.8, 1.0);
    const auto n = static_cast<vertex_t>(h.rows);
    adj = assemble(h, parsed, n, n, options.undirected, options.duplicates, threads,
                   [](vertex_t v) { return v; });
  }
  progress.report(0.5);
  if (!sparse) {
    // Vertex ids are the file's own 1-based indices.
    ids.resize(static_cast<std::size_t>(h.rows));
    std::iota(ids.begin(), ids.end(), std::uint64_t{1});
  }
  Graph g(std::move(adj), std::move(ids), !undirected, !h.pattern);
  progress.done();
  if (stats) {
    stats->bytes_read = in.text.size;
    stats->seconds_read = seconds_read;
    stats->seconds_build = t1.seconds();
    stats->declared_vertices = static_cast<std::int64_t>(h.rows);
    stats->omitted_vertices = static_cast<std::int64_t>(h.rows) - g.n_vertices();
  }
  return g;
}

}  // namespace graphrun::io
