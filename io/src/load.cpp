// load_graph: pick the reader from the options (--abc) or the file name.

#include "graphrun/io/load.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <system_error>

#include "graphrun/engine/error.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/io/write.hpp"
#include "printable.hpp"
#include "text_fields.hpp"

namespace graphrun::io {

namespace {

bool ends_with(const std::string& s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  return std::equal(suffix.rbegin(), suffix.rend(), s.rbegin(), [](char a, char b) {
    return a == std::tolower(static_cast<unsigned char>(b));
  });
}

// A + Aᵀ off the diagonal, with duplicates resolved as in an edge list: the
// same graph read_edge_list(..., undirected) would have built.
Graph symmetrized(const Graph& g, Duplicates dup) {
  const Csr<double>& a = g.adj();
  Coo<double> coo;
  coo.n_rows = coo.n_cols = a.n_rows();
  const std::size_t cap =
      static_cast<std::size_t>(checked_mul<offset_t>(a.nnz(), 2, "symmetrized edge count"));
  coo.row.reserve(cap);
  coo.col.reserve(cap);
  if (!a.is_pattern()) coo.val.reserve(cap);
  for (vertex_t i = 0; i < a.n_rows(); ++i) {
    for (offset_t k = a.row_ptr()[i]; k < a.row_ptr()[i + 1]; ++k) {
      const vertex_t j = a.col_idx()[k];
      coo.row.push_back(i);
      coo.col.push_back(j);
      if (!a.is_pattern()) coo.val.push_back(a.values()[k]);
      if (i == j) continue;
      coo.row.push_back(j);
      coo.col.push_back(i);
      if (!a.is_pattern()) coo.val.push_back(a.values()[k]);
    }
  }
  Csr<double> sym = Csr<double>::from_coo(coo, dup);
  if (!g.has_names()) return Graph(std::move(sym), g.input_ids(), false, g.weighted());
  std::vector<std::string> names(static_cast<std::size_t>(g.n_vertices()));
  for (vertex_t v = 0; v < g.n_vertices(); ++v) names[static_cast<std::size_t>(v)] = g.name(v);
  return Graph::with_names(std::move(sym), std::move(names), false, g.weighted());
}

// LoadOptions::non_negative_weights for a cache, which has no lines: the
// first negative weight in storage order, its edge named by input ids or
// names.
void check_non_negative(const std::string& path, const Graph& g, const LoadOptions& options) {
  const Csr<double>& a = g.adj();
  if (!options.non_negative_weights || !g.weighted() || a.is_pattern()) return;
  const auto& w = a.values();
  const auto it = std::find_if(w.begin(), w.end(), [](double x) { return x < 0; });
  if (it == w.end()) return;
  const auto k = static_cast<offset_t>(it - w.begin());
  const auto row = static_cast<vertex_t>(
      std::upper_bound(a.row_ptr().begin(), a.row_ptr().end(), k) - a.row_ptr().begin() - 1);
  throw InputError(path, detail::negative_weight_message(
                             detail::printable(g.label(row)),
                             detail::printable(g.label(a.col_idx()[static_cast<std::size_t>(k)])),
                             *it, options.negative_weight_hint));
}

}  // namespace

Graph load_graph(const std::string& path, const LoadOptions& options, LoadStats* stats) {
  if (options.abc) return read_abc(path, options, stats);
  if (ends_with(path, ".mtx") || ends_with(path, ".mtx.gz"))
    return read_matrix_market_graph(path, options, stats);
  const bool gapbs = ends_with(path, ".sg") || ends_with(path, ".wsg");
  if (!gapbs && !ends_with(path, ".grb")) return read_edge_list(path, options, stats);

  // The binary formats: the arrays as stored, then what the options ask.
  const Stopwatch t0;
  Graph g = gapbs ? read_gapbs_graph(path, options) : read_cache(path, options.max_input_bytes);
  check_non_negative(path, g, options);
  const double read_seconds = t0.seconds();
  const Stopwatch t1;
  if (options.undirected && g.directed()) g = symmetrized(g, options.duplicates);
  if (options.on_progress) options.on_progress(1.0);
  if (stats) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    stats->bytes_read = ec ? 0 : static_cast<std::size_t>(size);
    stats->seconds_read = read_seconds;
    stats->seconds_build = t1.seconds();
    stats->declared_vertices = g.n_vertices();
    stats->omitted_vertices = 0;
  }
  return g;
}

}  // namespace graphrun::io
