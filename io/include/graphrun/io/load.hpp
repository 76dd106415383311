// Loading graphs. load_graph() picks the reader from the file name:
//   *.mtx, *.mtx.gz   Matrix Market coordinate (read_matrix_market_graph)
//   *.grb             graphrun's binary CSR cache (read_cache)
//   anything else     SNAP edge list, plain or gzip (read_edge_list)
// and, whatever the name, ABC text ("name name [weight]", read_abc) when
// LoadOptions::abc is set.
// gzip is recognised by its magic bytes, not only by the .gz suffix.
// Every malformed input throws InputError("FILE:LINE: what is wrong").
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/graph.hpp"

namespace graphrun::io {

struct LoadOptions {
  // Symmetrize: every edge u->v also yields v->u (a self loop stays one entry).
  bool undirected = false;
  // Repeated edges: summed when weighted; an unweighted graph keeps one.
  Duplicates duplicates = Duplicates::sum;
  // Parser threads (0 = OpenMP default).
  int threads = 0;
  // Bytes of text per parse chunk (0 = chosen from the file size and thread
  // count). Small values exercise chunk boundaries in tests.
  std::size_t chunk_bytes = 0;
  // Called now and then with the fraction of the input consumed (0..1), from
  // the calling thread; drives the command line's progress bar.
  std::function<void(double)> on_progress;
  // Read the input as ABC text (read_abc), whatever its name.
  bool abc = false;
  // The most bytes of text (after gzip), or of a .grb cache, a read may
  // hold: past it the read ends in SizeError naming the file, before a
  // regular file is read, as soon as a gzip stream or a pipe passes it. For
  // services that read files they did not write (a 6 MB gzip bomb inflates
  // to 6 GB). 0: half the machine's physical memory for text (the graph must
  // fit beside it), all of it for a cache.
  std::size_t max_input_bytes = 0;
};

// Timing and volume of the last load, for summaries and MB/s figures.
struct LoadStats {
  std::size_t bytes_read = 0;  // uncompressed bytes parsed
  double seconds_read = 0;     // reading + decompressing + parsing
  double seconds_build = 0;    // remapping ids + assembling CSR
};

Graph load_graph(const std::string& path, const LoadOptions& options = {},
                 LoadStats* stats = nullptr);

// SNAP edge list: '#' and '%' comment lines; "src dst [weight]" separated by
// spaces or tabs; ids are arbitrary non-negative 64-bit integers, remapped to
// dense ids in ascending order of input id. The graph is weighted when the
// first data line has a third column (then every line must have one).
Graph read_edge_list(const std::string& path, const LoadOptions& options = {},
                     LoadStats* stats = nullptr);

// ABC text, as `mcl --abc` reads it: "name name [weight]" per line, fields
// separated by spaces or tabs, '#' comment lines and blank lines skipped,
// plain or gzip. A name is any run of bytes other than blanks and line ends.
// Vertices are named (Graph::has_names) and numbered in order of first
// appearance in the file, as mcl numbers them. As in mcl, a line may leave
// out the weight (it weighs 1) even when others give one; the graph is
// weighted when any line has a weight. Repeated edges, --undirected and
// errors are as in read_edge_list.
Graph read_abc(const std::string& path, const LoadOptions& options = {},
               LoadStats* stats = nullptr);

// Matrix Market coordinate (real, integer, pattern; general or symmetric) as
// a graph on ids 1..n (the file's own 1-based indices). Symmetric files, and
// --undirected, give an undirected graph.
Graph read_matrix_market_graph(const std::string& path, const LoadOptions& options = {},
                               LoadStats* stats = nullptr);

// Matrix Market as a plain matrix (rectangular allowed; symmetric expanded).
Csr<double> read_matrix_market(const std::string& path);

}  // namespace graphrun::io
