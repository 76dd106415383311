// Loading graphs. load_graph() picks the reader from the file name:
//   *.mtx, *.mtx.gz   Matrix Market coordinate (read_matrix_market_graph)
//   *.grb             graphrun's binary CSR cache (read_cache)
//   *.sg, *.wsg       the GAP Benchmark Suite's serialized graphs (read_gapbs_graph)
//   anything else     SNAP edge list, plain or gzip (read_edge_list)
// and, whatever the name, ABC text ("name name [weight]", read_abc) when
// LoadOptions::abc is set.
// gzip is recognised by its magic bytes, not only by the .gz suffix.
// Every malformed input throws InputError("FILE:LINE: what is wrong"); the
// input it quotes has its control characters and bytes that are not UTF-8
// escaped (\x1b, \0, \xff), so a message is safe to print and never cut.
#pragma once

#include <cstddef>
#include <cstdint>
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
  // Refuse negative weights, for work that has no meaning with them: the
  // first edge of the file (in file order, whatever the parse threads) whose
  // weight is below zero ends the load with InputError "FILE:LINE: edge SRC
  // -> DST has weight W, which is negative; HINT", SRC and DST as the input
  // names them (for a .grb cache "FILE: ...", the first in storage order).
  // -0.0 is not negative. The hint says what to do instead (the command
  // line names its flag); left out of the message when empty.
  bool non_negative_weights = false;
  std::string negative_weight_hint;
  // Edge lists: map the ids and assemble CSR on the GPU after parsing
  // (engine/device_assembly.hpp), for a run that goes there next. The graph
  // is the same, array for array. Ignored in builds without CUDA, on
  // machines without a GPU, and for other formats; when the device cannot
  // hold the work, the host assembles as usual.
  bool assemble_on_device = false;
  // With assemble_on_device: leave the assembled adjacency on the GPU
  // (Graph::device_adjacency), for an algorithm that starts from it there;
  // its host copy (Graph::adj) is made the first time something asks for it,
  // so a run that stays on the GPU never copies it back. It holds device
  // memory as long as the graph lives.
  bool keep_on_device = false;
};

// Timing and volume of the last load, for summaries and MB/s figures.
struct LoadStats {
  std::size_t bytes_read = 0;  // uncompressed bytes parsed
  double seconds_read = 0;     // reading + decompressing + parsing
  double seconds_build = 0;    // remapping ids + assembling CSR (and the
                               // parse, where the GPU parses the text)
  // Vertices the input declares (a Matrix Market size line, a cache's
  // header); 0 for formats that declare none (edge lists, ABC).
  std::int64_t declared_vertices = 0;
  // Declared vertices left out of the graph: a hypersparse Matrix Market
  // file's indices that occur in no entry (see read_matrix_market_graph).
  std::int64_t omitted_vertices = 0;
  // LoadOptions::assemble_on_device: of seconds_build, the copies of the
  // parsed edges to the GPU and of the graph back.
  double seconds_to_device = 0;
  double seconds_from_device = 0;
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
// A hypersparse file, one whose size line declares n > 2^20 vertices and
// more than 4 per stored entry (entries, doubled for a symmetric file),
// gives a graph on the indices that occur in its entries only (their ids
// still the file's indices; LoadStats::omitted_vertices counts the others):
// memory then follows the entries, not n. Otherwise vertices 1..n are all
// kept, isolated ones included.
// A graph the GAP Benchmark Suite's converter serialized (`converter -b
// FILE.sg`, with `-w` FILE.wsg and int32 weights): its out-edges, vertices
// 0 .. n-1 as the ids (isolated ones kept), directed as the file says.
// InputError "PATH: ..." for a file whose size is not what its header
// describes, row offsets that do not rise from 0 to the edge count, a
// neighbour out of range or named twice in a row; SizeError past
// LoadOptions::max_input_bytes (0: the machine's memory).
Graph read_gapbs_graph(const std::string& path, const LoadOptions& options = {});

Graph read_matrix_market_graph(const std::string& path, const LoadOptions& options = {},
                               LoadStats* stats = nullptr);

// Matrix Market as a plain matrix (rectangular allowed; symmetric expanded).
// Every declared row is kept (a product needs them), so hypersparse rows (by
// the rule above) are a SizeError, raised from the size line before any
// row is allocated.
Csr<double> read_matrix_market(const std::string& path);

}  // namespace graphrun::io
