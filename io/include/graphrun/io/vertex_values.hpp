// Per-vertex value files: "ID<TAB>VALUE" lines, such as the ranks that
// `graphrun pagerank -o` writes, read back against a graph (a PageRank warm
// start: `graphrun pagerank --start`).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "graphrun/engine/graph.hpp"

namespace graphrun::io {

struct VertexValues {
  std::vector<double> value;  // by dense vertex id; 0 for a vertex without a line
  std::int64_t lines = 0;     // "ID VALUE" lines read
  std::int64_t missing = 0;   // vertices of the graph without a line
  std::int64_t unknown = 0;   // lines whose vertex is not in the graph (skipped)
};

struct VertexValueOptions {
  bool non_negative = false;  // a negative value is an error
  // Names the graph in messages (e.g. its file).
  std::string graph_name;
};

// Reads "ID VALUE" lines (plain or gzip): fields separated by blanks, '#' and
// '%' comment lines and blank lines skipped. ID is a vertex name when g has
// names (--abc), its input id otherwise (Graph::find_name). VALUE is a finite
// number. A vertex may appear once. A graph that changed since the file was
// written is expected: its new vertices get 0 (`missing`) and lines for
// vertices it no longer has are skipped (`unknown`). A malformed line, a
// value that is not a finite number (or is negative where that is refused),
// a vertex given twice, or a file with no value line is an
// InputError("PATH:LINE: ...").
VertexValues read_vertex_values(const std::string& path, const Graph& g,
                                const VertexValueOptions& options = {});

}  // namespace graphrun::io
