// Edge list writer: the SNAP format read_edge_list reads, in the input's ids.
// An undirected graph writes each edge once (u <= v), as SNAP files do;
// reading it back with `undirected` gives the same graph.
//
// A graph with vertex names writes ABC text instead ("name<TAB>name[<TAB>w]",
// read back by read_abc / --abc). read_abc numbers vertices in order of first
// appearance, so the lines are ordered to make that order the graph's own:
// first, for each vertex in turn, one edge that brings it in after the
// vertices before it (one exists for every graph read_abc built: the line
// where the vertex first appeared); then every other edge, row by row. So a
// named graph reads back with the same dense ids, not merely the same edges.

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "graphrun/io/write.hpp"
#include "write_text_file.hpp"

namespace graphrun::io {

namespace {

// A name must read back as one field; read_abc's fields end at blanks and
// line ends, and an empty name would vanish.
void check_name(std::string_view s) {
  const bool ok = !s.empty() && s.find_first_of(" \t\r\n") == std::string_view::npos;
  if (!ok)
    throw ArgumentError("vertex name '" + std::string(s) +
                        "' cannot be written to an edge list: names must be non-empty and "
                        "without blanks or line breaks");
}

class EdgeWriter {
 public:
  EdgeWriter(TextWriter& w, const Graph& g)
      : w_(w), g_(g), weighted_(g.weighted() && !g.adj().is_pattern()) {}

  // Writes the line for stored entry k (row i, column j).
  void line(vertex_t i, vertex_t j, offset_t k) {
    vertex(i, true);
    w_.put('\t');
    vertex(j, false);
    if (weighted_) {
      w_.put('\t');
      w_.put(g_.adj().values()[static_cast<std::size_t>(k)]);
    }
    w_.put('\n');
  }

 private:
  void vertex(vertex_t v, bool first) {
    if (!g_.has_names()) {
      w_.put(g_.input_id(v));
      return;
    }
    const std::string_view s = g_.name(v);
    // read_abc takes a line that starts with '#' for a comment.
    if (first && s.front() == '#')
      throw ArgumentError("vertex name '" + std::string(s) +
                          "' cannot be written at the start of an edge-list line: it would read "
                          "back as a comment");
    w_.put(s);
  }

  TextWriter& w_;
  const Graph& g_;
  bool weighted_;
};

// Position of entry (i, j), which must exist.
offset_t entry(const Csr<double>& a, vertex_t i, vertex_t j) {
  const auto& row_ptr = a.row_ptr();
  const auto first = a.col_idx().begin() + row_ptr[static_cast<std::size_t>(i)];
  const auto last = a.col_idx().begin() + row_ptr[static_cast<std::size_t>(i) + 1];
  return std::lower_bound(first, last, j) - a.col_idx().begin();
}

// Phase one for a named graph (see the top of the file): writes, for each
// vertex v in turn, one edge that introduces v after 0 .. v-1 (an edge from
// an earlier vertex or a self loop, an edge to an earlier vertex, or the
// edge v -> v+1 that introduces both), and marks the entries written. A
// vertex with none of these (isolated, or only linked to later vertices in
// a graph not built by read_abc) is left to phase two.
void write_introductions(EdgeWriter& out, const Graph& g, std::vector<char>& written) {
  const Csr<double>& a = g.adj();
  const vertex_t n = a.n_rows();
  const auto& row_ptr = a.row_ptr();
  const auto& col_idx = a.col_idx();
  // The smallest source of an edge into each vertex (n: none).
  std::vector<vertex_t> min_src(static_cast<std::size_t>(n), n);
  for (vertex_t i = 0; i < n; ++i)
    for (offset_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k)
      min_src[col_idx[k]] = std::min(min_src[col_idx[k]], i);
  auto write = [&](vertex_t i, vertex_t j) {
    const offset_t k = entry(a, i, j);
    out.line(i, j, k);
    written[static_cast<std::size_t>(k)] = 1;
  };
  for (vertex_t v = 0; v < n; ++v) {
    const vertex_t u = min_src[v];
    const bool has_out = row_ptr[v] < row_ptr[v + 1];
    const vertex_t w = has_out ? col_idx[row_ptr[v]] : n;  // smallest target
    if (u <= v) {
      write(u, v);
    } else if (w < v) {
      write(v, w);  // directed only: undirected rows are symmetric (u <= w)
    } else if (w == v + 1) {
      write(v, w);
      ++v;  // introduced as well
    }
  }
}

}  // namespace

void write_edge_list(const std::string& path, const Graph& g) {
  if (g.has_names())
    for (vertex_t v = 0; v < g.n_vertices(); ++v) check_name(g.name(v));
  detail::write_text_file(path, [&](TextWriter& w) {
    const Csr<double>& a = g.adj();
    const bool weighted = g.weighted() && !a.is_pattern();
    w.put(g.directed() ? "# directed graph written by graphrun: "
                       : "# undirected graph (each edge once) written by graphrun: ");
    w.put(g.n_vertices());
    w.put(" vertices\n");
    if (g.has_names())
      w.put(weighted ? "# FromName\tToName\tWeight (vertex names: read with --abc)\n"
                     : "# FromName\tToName (vertex names: read with --abc)\n");
    else
      w.put(weighted ? "# FromNodeId\tToNodeId\tWeight\n" : "# FromNodeId\tToNodeId\n");
    EdgeWriter edges(w, g);
    std::vector<char> written;
    if (g.has_names()) {
      written.assign(static_cast<std::size_t>(a.nnz()), 0);
      write_introductions(edges, g, written);
    }
    const auto& row_ptr = a.row_ptr();
    const auto& col_idx = a.col_idx();
    for (vertex_t i = 0; i < a.n_rows(); ++i) {
      for (offset_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k) {
        const vertex_t j = col_idx[k];
        if (!g.directed() && j < i) continue;
        if (!written.empty() && written[static_cast<std::size_t>(k)]) continue;
        edges.line(i, j, k);
      }
    }
  });
}

}  // namespace graphrun::io
