// A graph: adjacency in CSR plus what is needed to speak the input's ids.
//
// Row i of `adj` holds the out-edges of vertex i (A(i,j) = weight of i -> j).
// An undirected graph stores each edge in both directions. The transpose
// (in-edges, needed by pull-style PageRank and BFS) is built on first use.
// Dense id i stands for input id `ids[i]`; ids are assigned in ascending
// order of input id, so `ids` is sorted and lookup is a binary search.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "graphrun/engine/csr.hpp"

namespace graphrun {

class Graph {
 public:
  Graph() = default;
  // `ids` must be strictly increasing and of size adj.n_rows() (or empty,
  // meaning ids 0 .. n-1). adj must be square.
  Graph(Csr<double> adj, std::vector<std::uint64_t> ids, bool directed, bool weighted);

  vertex_t n_vertices() const noexcept { return adj_.n_rows(); }
  offset_t n_edges() const noexcept { return adj_.nnz(); }  // stored (directed) entries
  bool directed() const noexcept { return directed_; }
  bool weighted() const noexcept { return weighted_; }

  const Csr<double>& adj() const noexcept { return adj_; }
  // Aᵀ: row i holds the in-edges of i. Built once on first use, then cached;
  // safe to call from several threads at once.
  const Csr<double>& transpose() const;

  // Input id of dense vertex v.
  std::uint64_t input_id(vertex_t v) const { return ids_.empty() ? std::uint64_t(v) : ids_[v]; }
  const std::vector<std::uint64_t>& input_ids() const noexcept { return ids_; }
  // Dense id of an input id, if present.
  std::optional<vertex_t> find(std::uint64_t input_id) const;

 private:
  Csr<double> adj_;
  std::vector<std::uint64_t> ids_;
  bool directed_ = true;
  bool weighted_ = false;
  // Built lazily from const; behind a pointer so Graph stays movable and
  // copies share one transpose (the adjacency never changes after
  // construction).
  struct TransposeCache {
    std::once_flag once;
    std::unique_ptr<const Csr<double>> csr;
  };
  std::shared_ptr<TransposeCache> transpose_ = std::make_shared<TransposeCache>();
};

}  // namespace graphrun
