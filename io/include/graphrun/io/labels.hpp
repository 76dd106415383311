// Vertex label files: the "ID<TAB>LABEL" maps that graph contraction reads
// (graphrun contract --labels), one line per vertex.
#pragma once

#include <string>
#include <vector>

#include "graphrun/engine/graph.hpp"

namespace graphrun::io {

// A vertex -> label map with the labels numbered densely: labels[v] in
// [0, names.size()) for dense vertex v, names[k] the text of label k.
struct VertexLabels {
  std::vector<vertex_t> labels;
  std::vector<std::string> names;
};

// Reads "ID LABEL" lines (plain or gzip): every vertex of g exactly once,
// fields separated by blanks, '#' comment lines and blank lines skipped.
// ID is a vertex name when g has names (--abc), its input id otherwise
// (Graph::find_name). LABEL is any token. Labels are numbered in ascending
// numeric order when every one is a non-negative integer (so "10" comes after
// "9"; "7" and "07" stay distinct, ordered by their text), in byte order
// otherwise. Any malformed line, unknown vertex, vertex labelled twice or
// vertex left without a label is an InputError("PATH:LINE: ...");
// `graph_name` (e.g. its file) names the graph in those messages.
VertexLabels read_vertex_labels(const std::string& path, const Graph& g,
                                const std::string& graph_name = "");

}  // namespace graphrun::io
