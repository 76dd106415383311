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

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <numeric>
#include <sstream>
#include <vector>

#include "coo_assembly.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/io/load.hpp"
#include "id_map.hpp"
#include "line_chunks.hpp"
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
  vertex_t rows = 0, cols = 0;
  offset_t entries = 0;
  std::int64_t size_line = 0;  // line number of "rows cols entries"
  const char* data = nullptr;  // first byte after the size line
};

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
    throw InputError(path, 1, "unsupported Matrix Market object '" + object + "' (only matrix)");
  if (format != "coordinate")
    throw InputError(path, 1,
                     "unsupported Matrix Market format '" + format + "' (only coordinate)");
  if (field == "pattern") {
    h.pattern = true;
  } else if (field != "real" && field != "integer" && field != "double") {
    throw InputError(path, 1,
                     "unsupported Matrix Market field '" + field +
                         "' (real, integer and pattern are supported)");
  }
  if (symmetry == "symmetric") {
    h.symmetry = Symmetry::symmetric;
  } else if (symmetry == "skew-symmetric" && !h.pattern) {
    h.symmetry = Symmetry::skew_symmetric;
  } else if (symmetry != "general") {
    throw InputError(
        path, 1, "unsupported Matrix Market symmetry '" + symmetry + "' for field '" + field + "'");
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
    h.rows = checked_vertex_count(size[0], path);
    h.cols = checked_vertex_count(size[1], path);
    if (size[2] > static_cast<std::uint64_t>(std::numeric_limits<offset_t>::max()))
      throw SizeError(path + ": entry count " + std::to_string(size[2]) + " is too large");
    h.entries = static_cast<offset_t>(size[2]);
    if (h.symmetry != Symmetry::general && h.rows != h.cols)
      throw InputError(path, line, "a symmetric matrix must be square");
    check_declared_size(path, line, h.rows, h.cols);
    h.size_line = line;
    h.data = next_line(q);
    return h;
  }
  throw InputError(path, "no size line (rows columns entries) after the header");
}

struct EntryChunk {
  std::vector<vertex_t> row, col;
  std::vector<double> val;  // empty for a pattern file
  std::int64_t diagonal = 0;
};

void parse_chunk(TextChunk& c, EntryChunk& out, const Header& h) {
  const auto guess = static_cast<std::size_t>(c.end - c.begin) / 12;
  out.row.reserve(guess);
  out.col.reserve(guess);
  if (!h.pattern) out.val.reserve(guess);
  const std::string columns = h.pattern ? "expected 2 columns (row, column) in a pattern file"
                                        : "expected 3 columns (row, column, value)";
  std::int64_t line = 0, diagonal = 0;
  for (const char* p = c.begin; p < c.end; ++line) {
    const char* q = skip_blanks(p);
    if (at_line_end(q) || *q == '%') {
      p = next_line(q);
      continue;
    }
    std::uint64_t index[2] = {};
    const vertex_t limit[2] = {h.rows, h.cols};
    const char* what[2] = {"row index", "column index"};
    for (int k = 0; k < 2; ++k) {
      if (at_line_end(q))
        return c.fail(line, q, columns + ", found " + std::to_string(count_fields(p)));
      const char* field = q;
      const FieldError e = parse_u64(q, index[k]);
      if (e != FieldError::none) return c.fail(line, q, field_message(e, what[k], q));
      if (index[k] == 0)
        return c.fail(line, q, std::string(what[k]) + " 0 (Matrix Market indices start at 1)");
      if (index[k] > static_cast<std::uint64_t>(limit[k]))
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
    p = q + (*q == '\r' ? 2 : 1);
    out.row.push_back(static_cast<vertex_t>(index[0] - 1));
    out.col.push_back(static_cast<vertex_t>(index[1] - 1));
    if (!h.pattern) out.val.push_back(v);
    diagonal += index[0] == index[1];
  }
  c.newlines = line;
  out.diagonal = diagonal;
}

struct Parsed {
  Header header;
  Coo<double> coo;
  std::size_t bytes = 0;
  double seconds_read = 0;
  Stopwatch parsed_at;
};

// Reads the file into COO; `mirror` adds (j, i) for every off-diagonal (i, j)
// of a general file (a symmetric file is always expanded).
// `square` refuses a rectangular matrix before any entry is read.
Parsed read_coo(const std::string& path, int threads, std::size_t chunk_bytes, bool mirror,
                bool square, Progress& progress, std::size_t max_input_bytes = 0) {
  const Stopwatch t0;
  progress.phase(0.0, 0.3);
  const TextBuffer text = read_text(path, progress, max_input_bytes);
  Parsed out;
  out.bytes = text.size;
  const Header h = parse_header(path, text.begin(), text.end());
  out.header = h;
  if (square && h.rows != h.cols)
    throw InputError(path, h.size_line,
                     "a graph needs a square matrix, this one is " + std::to_string(h.rows) +
                         " x " + std::to_string(h.cols));

  progress.phase(0.3, 0.8);
  if (chunk_bytes == 0)
    chunk_bytes = auto_chunk_bytes(static_cast<std::size_t>(text.end() - h.data), threads);
  std::vector<TextChunk> chunks = split_lines(h.data, text.end(), chunk_bytes);
  std::vector<EntryChunk> parsed(chunks.size());
  for_each_chunk(chunks, threads, progress,
                 [&](std::size_t i) { parse_chunk(chunks[i], parsed[i], h); });
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
  out.seconds_read = t0.seconds();
  out.parsed_at.restart();

  // COO, with the mirrored triangle where asked.
  progress.phase(0.8, 1.0);
  const bool expand = mirror || h.symmetry != Symmetry::general;
  const double sign = h.symmetry == Symmetry::skew_symmetric ? -1.0 : 1.0;
  auto size = [](const EntryChunk& c) { return c.row.size(); };
  const std::vector<offset_t> start =
      coo_offsets(parsed, expand, size, [](const EntryChunk& c) { return c.diagonal; });
  Coo<double>& coo = out.coo;
  coo.n_rows = h.rows;
  coo.n_cols = h.cols;
  fill_coo(coo, start, parsed, expand, sign, !h.pattern, threads, size,
           [&](const EntryChunk& c, std::size_t e) {
             return CooEntry{c.row[e], c.col[e], h.pattern ? 1.0 : c.val[e]};
           });
  return out;
}

}  // namespace

Csr<double> read_matrix_market(const std::string& path) {
  Progress progress(nullptr);
  Parsed p = read_coo(path, thread_count(0), 0, false, false, progress);
  return Csr<double>::from_coo(p.coo, Duplicates::sum);
}

Graph read_matrix_market_graph(const std::string& path, const LoadOptions& options,
                               LoadStats* stats) {
  Progress progress(options.on_progress);
  const int threads = thread_count(options.threads);
  Parsed p = read_coo(path, threads, options.chunk_bytes, options.undirected, true, progress,
                      options.max_input_bytes);
  const Header& h = p.header;
  progress.report(0.5);
  Csr<double> adj = Csr<double>::from_coo(p.coo, options.duplicates);
  p.coo = Coo<double>{};
  // Vertex ids are the file's own 1-based indices.
  std::vector<std::uint64_t> ids(static_cast<std::size_t>(h.rows));
  std::iota(ids.begin(), ids.end(), std::uint64_t{1});
  const bool undirected = options.undirected || h.symmetry != Symmetry::general;
  Graph g(std::move(adj), std::move(ids), !undirected, !h.pattern);
  progress.done();
  if (stats) {
    stats->bytes_read = p.bytes;
    stats->seconds_read = p.seconds_read;
    stats->seconds_build = p.parsed_at.seconds();
  }
  return g;
}

}  // namespace graphrun::io
