// Assembling COO from per-chunk parse results, in parallel (internal to io/).
//
// Chunk i's entries land in [start[i], start[i+1]) of the COO arrays, so
// every chunk is copied by one thread without coordination, and input order
// is kept (Duplicates::last relies on it). With `mirror`, each off-diagonal
// entry (r, c, v) is followed by (c, r, mirror_sign * v): symmetrizing an
// edge list (--undirected), expanding a symmetric or skew-symmetric Matrix
// Market file.
#pragma once

#include <cstdint>
#include <vector>

#include "graphrun/engine/coo.hpp"
#include "graphrun/engine/types.hpp"

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

// Fills coo.row/col/val (sized here; val only when `valued`) from the chunks:
// entry(chunk, e) gives entry e of a chunk as a CooEntry. Each chunk is
// emptied once copied, to give its memory back early.
template <class Chunk, class Size, class Entry>
void fill_coo(Coo<double>& coo, const std::vector<offset_t>& start, std::vector<Chunk>& chunks,
              bool mirror, double mirror_sign, bool valued, int threads, Size size, Entry entry) {
  const auto nnz = static_cast<std::size_t>(start.back());
  coo.row.resize(nnz);
  coo.col.resize(nnz);
  if (valued) coo.val.resize(nnz);
  const auto n_chunks = static_cast<std::int64_t>(chunks.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (std::int64_t i = 0; i < n_chunks; ++i) {
    Chunk& c = chunks[i];
    auto k = static_cast<std::size_t>(start[i]);
    const std::size_t m = size(c);
    for (std::size_t e = 0; e < m; ++e) {
      const CooEntry x = entry(c, e);
      coo.row[k] = x.row;
      coo.col[k] = x.col;
      if (valued) coo.val[k] = x.value;
      ++k;
      if (mirror && x.row != x.col) {
        coo.row[k] = x.col;
        coo.col[k] = x.row;
        if (valued) coo.val[k] = mirror_sign * x.value;
        ++k;
      }
    }
    c = Chunk{};
  }
}

}  // namespace graphrun::io::detail
