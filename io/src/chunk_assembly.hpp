// Assembling CSR from per-chunk parse results, in parallel (internal to io/).
//
// Chunk i's entries are entries [start[i], start[i+1]) in input order, which
// Duplicates::last relies on. With `mirror`, each off-diagonal entry
// (r, c, v) is followed by (c, r, mirror_sign * v): symmetrizing an edge list
// (--undirected), expanding a symmetric or skew-symmetric Matrix Market
// file.
#pragma once

#include <cstdint>
#include <vector>

#include "graphrun/engine/coo.hpp"
#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/csr_assembly.hpp"
#include "graphrun/engine/types.hpp"
#include "graphrun/io/load.hpp"

namespace graphrun::io::detail {

struct CooEntry {
  vertex_t row, col;
  double value;
};

// First COO position of every chunk (and the total, last): chunk i holds
// size(chunk) entries, diagonal(chunk) of them on the diagonal.
template <class Chunk, class Size, class Diagonal>
std::vector<offset_t> coo_offsets(const std::vector<Chunk>& chunks, bool mirror, Size size,
                                  Diagonal diagonal) {
  std::vector<offset_t> start(chunks.size() + 1, 0);
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    const auto m = static_cast<offset_t>(size(chunks[i]));
    const offset_t entries =
        mirror ? checked_add<offset_t>(m, m - diagonal(chunks[i]), "entry count") : m;
    start[i + 1] = checked_add<offset_t>(start[i], entries, "entry count");
  }
  return start;
}

// CSR (n_rows x n_cols) of the chunks' entries in chunk order, straight
// from the chunks (assemble_csr: no COO copy in between): entry(chunk, e)
// gives entry e of a chunk as a CooEntry, start is coo_offsets' result for
// the same `mirror`. Duplicates merge by `dup`, in input order.
template <class Chunk, class Size, class Entry>
Csr<double> csr_from_chunks(vertex_t n_rows, vertex_t n_cols, const std::vector<offset_t>& start,
                            const std::vector<Chunk>& chunks, bool mirror, double mirror_sign,
                            bool valued, Duplicates dup, int threads, Size size, Entry entry) {
  return assemble_csr<double>(
      n_rows, n_cols, static_cast<std::int64_t>(chunks.size()), !valued, dup, threads,
      [&](std::int64_t i) { return start[i + 1] - start[i]; },
      [&](std::int64_t i, auto&& emit) {
        const Chunk& c = chunks[i];
        const std::size_t m = size(c);
        for (std::size_t e = 0; e < m; ++e) {
          const CooEntry x = entry(c, e);
          emit(x.row, x.col, x.value);
          if (mirror && x.row != x.col) emit(x.col, x.row, mirror_sign * x.value);
        }
      });
}

// A text loader's figures for `stats` (when asked for): the bytes it read,
// the seconds of reading and of building; no vertex count was declared.
inline void record_text_load(LoadStats* stats, std::size_t bytes, double seconds_read,
                             double seconds_build) {
  if (!stats) return;
  stats->bytes_read = bytes;
  stats->seconds_read = seconds_read;
  stats->seconds_build = seconds_build;
  stats->declared_vertices = stats->omitted_vertices = 0;
}

}  // namespace graphrun::io::detail
