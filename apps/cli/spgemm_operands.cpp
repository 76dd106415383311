#include "spgemm_operands.hpp"

#include <algorithm>
#include <numeric>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "graphrun/io/load.hpp"

namespace graphrun::cli {

namespace {

// 1..n: a Matrix Market matrix's rows or columns.
Keys indices(vertex_t n) {
  Keys k;
  k.ids.resize(static_cast<std::size_t>(n));
  std::iota(k.ids.begin(), k.ids.end(), std::uint64_t{1});
  return k;
}

Keys vertex_keys(const Graph& g) {
  Keys k;
  const auto n = static_cast<std::size_t>(g.n_vertices());
  if (g.has_names()) {
    k.names.reserve(n);
    for (vertex_t v = 0; v < g.n_vertices(); ++v) k.names.emplace_back(g.name(v));
  } else {
    k.ids.resize(n);
    for (vertex_t v = 0; v < g.n_vertices(); ++v)
      k.ids[static_cast<std::size_t>(v)] = g.input_id(v);
  }
  return k;
}

// For each of A's columns, the row of B with the same key, or -1.
template <class Key, class AKey, class BKey>
std::vector<vertex_t> column_to_row(std::size_t n_cols, std::size_t n_rows, AKey a_key,
                                    BKey b_key) {
  std::unordered_map<Key, vertex_t> row_of;
  row_of.reserve(n_rows);
  for (std::size_t r = 0; r < n_rows; ++r) row_of.emplace(b_key(r), static_cast<vertex_t>(r));
  std::vector<vertex_t> map(n_cols, -1);
  for (std::size_t c = 0; c < n_cols; ++c)
    if (const auto it = row_of.find(a_key(c)); it != row_of.end()) map[c] = it->second;
  return map;
}

}  // namespace

Operand read_operand(const std::string& path, const CommonOptions& o) {
  Operand op;
  op.path = path;
  if (!o.abc && is_matrix_market_name(path)) {
    op.matrix = io::read_matrix_market(path);
    op.rows = indices(op.matrix.n_rows());
    op.cols = indices(op.matrix.n_cols());
    return op;
  }
  CommonOptions g = o;
  g.input = path;
  Loaded in = load_input(g);
  op.graph = true;
  op.matrix = in.graph.adj();
  op.rows = vertex_keys(in.graph);
  op.cols = op.rows;
  return op;
}

Operand transposed(const Operand& b) {
  Operand t;
  t.path = b.path;
  t.graph = b.graph;
  t.matrix = b.matrix.transpose();
  t.rows = b.cols;
  t.cols = b.rows;
  return t;
}

Csr<double> match_inner_keys(const Operand& a, const Operand& b, KeyMatch& match) {
  const Keys& ak = a.cols;
  const Keys& bk = b.rows;
  std::vector<vertex_t> map;
  if (ak.named() || bk.named()) {
    // Names against names, or names against numbers written out: an ABC
    // vertex called "7" is the edge list's vertex 7.
    map = column_to_row<std::string>(
        ak.size(), bk.size(), [&](std::size_t i) { return ak.text(i); },
        [&](std::size_t i) { return bk.text(i); });
  } else {
    map = column_to_row<std::uint64_t>(
        ak.size(), bk.size(), [&](std::size_t i) { return ak.ids[i]; },
        [&](std::size_t i) { return bk.ids[i]; });
  }
  match.matched = std::count_if(map.begin(), map.end(), [](vertex_t r) { return r >= 0; });
  match.a_only = static_cast<std::int64_t>(map.size()) - match.matched;
  match.b_only = static_cast<std::int64_t>(bk.size()) - match.matched;

  // Renumber A's columns; a row's columns stay sorted when the map keeps
  // their order (ascending ids on both sides), otherwise the row is sorted.
  const Csr<double>& m = a.matrix;
  const bool pattern = m.is_pattern();
  std::vector<offset_t> row_ptr(static_cast<std::size_t>(m.n_rows()) + 1, 0);
  std::vector<vertex_t> col_idx;
  std::vector<double> values;
  col_idx.reserve(static_cast<std::size_t>(m.nnz()));
  if (!pattern) values.reserve(static_cast<std::size_t>(m.nnz()));
  std::vector<std::pair<vertex_t, double>> row;
  for (vertex_t i = 0; i < m.n_rows(); ++i) {
    row.clear();
    for (offset_t e = m.row_ptr()[i]; e < m.row_ptr()[i + 1]; ++e) {
      const vertex_t c = map[static_cast<std::size_t>(m.col_idx()[e])];
      if (c >= 0) row.emplace_back(c, pattern ? 1.0 : m.values()[static_cast<std::size_t>(e)]);
    }
    if (!std::is_sorted(row.begin(), row.end())) std::sort(row.begin(), row.end());
    for (const auto& [c, v] : row) {
      col_idx.push_back(c);
      if (!pattern) values.push_back(v);
    }
    row_ptr[static_cast<std::size_t>(i) + 1] = static_cast<offset_t>(col_idx.size());
  }
  return Csr<double>(m.n_rows(), b.matrix.n_rows(), std::move(row_ptr), std::move(col_idx),
                     std::move(values));
}

}  // namespace graphrun::cli
