// The operands of `graphrun spgemm`: matrices that know what their rows and
// columns are called.
//
// A Matrix Market file is a matrix: its rows and columns are its 1-based
// indices, and A*B pairs A's column k with B's row k. A graph file (edge
// list, ABC text, .grb) is an adjacency matrix over vertex ids: row and
// column v stand for the vertex with input id (or name) v, and two graphs
// with different vertex sets number their vertices differently. Pairing A's
// columns with B's rows by position would then multiply unrelated vertices,
// so when either operand is a graph the inner dimension is matched by key:
// A's columns are renumbered to B's rows with the same id, and the columns
// no row of B has are dropped (they contribute nothing to any product).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common.hpp"
#include "graphrun/engine/csr.hpp"

namespace graphrun::cli {

// What the rows or columns of an operand are called: numeric ids (a Matrix
// Market index or a graph's input id) or names (ABC input).
struct Keys {
  std::vector<std::uint64_t> ids;  // when names is empty
  std::vector<std::string> names;

  bool named() const noexcept { return !names.empty(); }
  std::size_t size() const noexcept { return named() ? names.size() : ids.size(); }
  // The key as output writes it.
  std::string text(std::size_t i) const { return named() ? names[i] : std::to_string(ids[i]); }
};

struct Operand {
  std::string path;
  bool graph = false;  // read as a graph: keyed by vertex id
  Csr<double> matrix;
  Keys rows, cols;
};

// Reads a Matrix Market file as a matrix, anything else through the graph
// loader (with `o`'s --undirected, --abc and --threads).
Operand read_operand(const std::string& path, const CommonOptions& o);

// Bᵀ, with its keys swapped.
Operand transposed(const Operand& b);

// How A's columns met B's rows when matched by key.
struct KeyMatch {
  std::int64_t matched = 0;  // keys in both
  std::int64_t a_only = 0;   // A's column keys that no row of B has
  std::int64_t b_only = 0;   // B's row keys that no column of A has
};

// A with its columns renumbered to B's rows of the same key (entries whose
// column B lacks dropped, rows kept), ready for a positional product.
Csr<double> match_inner_keys(const Operand& a, const Operand& b, KeyMatch& match);

}  // namespace graphrun::cli
