// Writers. Every output goes to a temporary file beside the target and is
// renamed into place on commit(), so an interrupted or failed run leaves no
// half-written file behind; the temporary itself is removed when the run
// fails or is stopped by SIGINT, SIGTERM or SIGHUP.
#pragma once

#include <cstdio>
#include <string>

#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/graph.hpp"

namespace graphrun::io {

class OutputFile {
 public:
  // path "-" writes to stdout (no temporary file).
  explicit OutputFile(std::string path);
  ~OutputFile();  // removes the temporary file unless commit() ran
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::FILE* stream() noexcept { return f_; }
  // Flushes, checks for write errors (disk full...), renames into place.
  void commit();

 private:
  std::string path_, tmp_;
  std::FILE* f_ = nullptr;
  bool committed_ = false;
  int temp_slot_ = -1;  // registration for removal on SIGINT/SIGTERM/SIGHUP
};

// Matrix Market coordinate real general, 1-based, rows then columns sorted,
// values with 17 significant digits ("pattern" when the matrix is one).
void write_matrix_market(const std::string& path, const Csr<double>& a);

// SNAP edge list in the graph's input ids ("src<TAB>dst[<TAB>weight]"); an
// undirected graph writes each edge once, so read_edge_list with
// `undirected` reads back the same graph.
void write_edge_list(const std::string& path, const Graph& g);

// graphrun's binary CSR cache (.grb): header with magic, version and sizes,
// then the arrays as stored in memory; loads at disk speed. A cache larger
// than `max_bytes` (0: the machine's physical memory) is a SizeError before
// anything is allocated (LoadOptions::max_input_bytes).
void write_cache(const std::string& path, const Graph& g);
Graph read_cache(const std::string& path, std::size_t max_bytes = 0);

}  // namespace graphrun::io
