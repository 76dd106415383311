// One line per vertex, written in dense id order and formatted on every
// thread: a command's output of 10^6-10^7 vertices spends its time turning
// numbers into text (0.45-0.7 s for 4.6M PageRank ranks on one thread, a
// quarter of a GPU run's wall time), not writing it.
#pragma once

#include <cstddef>
#include <functional>

#include "graphrun/io/text_writer.hpp"

namespace graphrun::cli {

// Calls line(w, v) for v = 0 .. n-1 and writes what it puts, in that order,
// to `out`: blocks of vertices are formatted in parallel (omp threads), each
// into memory through its own TextWriter, so the text is byte for byte what
// one writer would produce. progress(fraction) is called between blocks.
void write_vertex_lines(io::TextWriter& out, std::size_t n,
                        const std::function<void(io::TextWriter&, std::size_t)>& line,
                        const std::function<void(double)>& progress);

}  // namespace graphrun::cli
