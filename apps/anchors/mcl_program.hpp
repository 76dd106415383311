// Running van Dongen's `mcl` program (Debian: apt-get install mcl) on a
// graph, the reference the MCL experiment compares graphrun's clustering
// and time with.
//
// The graph goes to mcl as an ABC file in a private temporary directory:
//   labels[u] <TAB> labels[v] <TAB> weight
// one line per stored entry of adj in CSR order (an undirected graph thus
// gives both directions, as graphrun's own MCL sees it; a pattern matrix
// gives weight 1). mcl runs as
//   mcl FILE --abc -I inflation -te threads -P prune -S select -R recover -pct pct -o OUT
// without a shell, its stdout and stderr captured to a file whose last lines
// go into the error message when it fails. OUT holds one cluster per line,
// tab-separated labels; cluster[v] is the 0-based number of v's line.
#pragma once

#include <string>
#include <vector>

#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/types.hpp"

namespace graphrun::anchors {

// mcl's defaults, except the thread count.
struct MclProgramOptions {
  double inflation = 2.0;       // -I (> 1)
  int threads = 2;              // -te (>= 1)
  int prune_number = 10000;     // -P: entries below 1/P are pruned
  int select_number = 1100;     // -S: keep at most S entries per column
  int recover_number = 1400;    // -R: recover up to R entries when pruning lost too much
  int recover_percent = 90;     // -pct: ... i.e. kept less than pct percent of the mass
  std::string program = "mcl";  // looked up on PATH unless it contains a '/'
};

struct MclProgramResult {
  std::vector<vertex_t> cluster;  // per vertex of adj: 0 .. n_clusters-1
  vertex_t n_clusters = 0;
  double seconds = 0;  // wall time of the mcl process alone (spawn to exit)
};

// ArgumentError when adj is not square, labels.size() != n, a label is
// empty, holds white space (ABC's separator) or repeats, or an option is out
// of range. graphrun::Error when mcl is not installed, cannot be started,
// fails (its exit status and the last lines of its output in the message),
// or writes a clustering that does not cover the graph's vertices.
MclProgramResult run_mcl_program(const Csr<double>& adj, const std::vector<std::string>& labels,
                                 const MclProgramOptions& options = {});

// Whether `program` is an executable file: the path itself when it holds a
// '/', otherwise found in a directory of PATH (what posix_spawnp will run).
bool mcl_program_available(const std::string& program = "mcl");

}  // namespace graphrun::anchors
