// Writers. A regular file is written to a temporary file beside the target
// and renamed into place on commit(), so an interrupted or failed run leaves
// no half-written file behind; the temporary itself is removed when the run
// fails or is stopped by SIGINT, SIGTERM or SIGHUP. The text writers write
// gzip when the path ends in ".gz".
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/graph.hpp"

namespace graphrun::io {

// Where the bytes go:
//  - "-": stdout.
//  - a path that exists and is not a regular file (a device such as
//    /dev/null, a FIFO, /dev/stdout, /dev/fd/N), and any path under /dev/ or
//    /proc/ (other than /dev/shm/): written directly, nothing renamed. An
//    alias of an open descriptor (/dev/stdout, /dev/fd/N, /proc/self/fd/N)
//    writes through a duplicate of that descriptor, so output redirected to
//    a file by the shell lands in the file the shell opened (a closed or
//    read-only descriptor is an ArgumentError).
//  - otherwise a regular file, new or replaced atomically. A symlink (or a
//    chain, or a dangling one) is followed and its target replaced: the link
//    stays a link. A replaced file keeps its permission bits and, where the
//    process may set them, its owner and group; a new one gets 0666 & ~umask.
// A path that cannot be written for a reason of its own (no such folder,
// permission denied, a folder, a read-only file system, a symlink loop...)
// throws ArgumentError("PATH: cannot write there: REASON"); a failure while
// writing (disk full, I/O error) throws Error.
class OutputFile {
 public:
  explicit OutputFile(std::string path);
  ~OutputFile();  // removes the temporary file unless commit() ran
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::FILE* stream() noexcept { return f_; }
  // Flushes, checks for write errors (disk full...), renames into place.
  void commit();

 private:
  std::string path_;    // as given
  std::string target_;  // after following symlinks: what is replaced
  std::string tmp_;     // empty when writing directly
  std::FILE* f_ = nullptr;
  bool committed_ = false;
  int temp_slot_ = -1;  // registration for removal on SIGINT/SIGTERM/SIGHUP
};

// The checks OutputFile(path) makes, without creating anything, for a
// command line to run before long work: throws ArgumentError when `path`
// (after following symlinks) is a folder ("is a folder; --output needs a
// file name"), is in a folder that does not exist or cannot be written, or
// cannot be resolved (symlink loop, a file used as a folder...). "-" and
// existing devices, FIFOs and the like pass.
void check_output_path(const std::string& path);

// Matrix Market coordinate real general, 1-based, rows then columns sorted,
// values with 17 significant digits ("pattern" when the matrix is one);
// gzip when the path ends in ".gz".
void write_matrix_market(const std::string& path, const Csr<double>& a);

// SNAP edge list in the graph's input ids ("src<TAB>dst[<TAB>weight]"); an
// undirected graph writes each edge once, so read_edge_list with
// `undirected` reads back the same graph. gzip when the path ends in ".gz".
void write_edge_list(const std::string& path, const Graph& g);

// graphrun's binary CSR cache (.grb): header with magic, version and sizes,
// then the arrays as stored in memory; loads at disk speed. A cache larger
// than `max_bytes` (0: the machine's physical memory) is a SizeError before
// anything is allocated (LoadOptions::max_input_bytes).
void write_cache(const std::string& path, const Graph& g);
Graph read_cache(const std::string& path, std::size_t max_bytes = 0);

// What a cache's header declares, read without the arrays: for a command that
// sizes its work before it loads (louvain decides from the entries whether a
// level can reach the GPU before it makes a CUDA context). nullopt where PATH
// is not a regular file (a pipe is left unread), cannot be opened, or its
// header is not a valid one of a version this build reads; read_cache() then
// says why. The arrays are not checked here.
struct CacheHeader {
  std::int64_t vertices = 0;
  std::int64_t entries = 0;  // stored entries: both directions of an undirected edge
  bool directed = false;
};
std::optional<CacheHeader> read_cache_header(const std::string& path) noexcept;

}  // namespace graphrun::io
