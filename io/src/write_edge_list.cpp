// Edge list writer: the SNAP format read_edge_list reads, in the input's ids.
// An undirected graph writes each edge once (u <= v), as SNAP files do;
// reading it back with `undirected` gives the same graph.

#include "graphrun/io/write.hpp"
#include "text_writer.hpp"

namespace graphrun::io {

void write_edge_list(const std::string& path, const Graph& g) {
  OutputFile out(path);
  {
    detail::TextWriter w(out.stream());
    const Csr<double>& a = g.adj();
    const bool weighted = g.weighted() && !a.is_pattern();
    w.text(g.directed() ? "# directed graph written by graphrun: "
                        : "# undirected graph (each edge once) written by graphrun: ");
    w.integer(g.n_vertices());
    w.text(" vertices\n");
    w.text(weighted ? "# FromNodeId\tToNodeId\tWeight\n" : "# FromNodeId\tToNodeId\n");
    const auto& row_ptr = a.row_ptr();
    const auto& col_idx = a.col_idx();
    for (vertex_t i = 0; i < a.n_rows(); ++i) {
      for (offset_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k) {
        const vertex_t j = col_idx[k];
        if (!g.directed() && j < i) continue;
        w.integer(g.input_id(i));
        w.put('\t');
        w.integer(g.input_id(j));
        if (weighted) {
          w.put('\t');
          w.real(a.values()[k]);
        }
        w.put('\n');
      }
    }
  }
  out.commit();
}

}  // namespace graphrun::io
