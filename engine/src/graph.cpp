#include "graphrun/engine/graph.hpp"

#include <algorithm>

#include "graphrun/engine/error.hpp"

namespace graphrun {

Graph::Graph(Csr<double> adj, std::vector<std::uint64_t> ids, bool directed, bool weighted)
    : adj_(std::move(adj)), ids_(std::move(ids)), directed_(directed), weighted_(weighted) {
  if (adj_.n_rows() != adj_.n_cols()) throw ArgumentError("Graph: adjacency must be square");
  if (!ids_.empty()) {
    if (ids_.size() != static_cast<std::size_t>(adj_.n_rows()))
      throw ArgumentError("Graph: one input id per vertex is required");
    if (std::adjacent_find(ids_.begin(), ids_.end(), std::greater_equal<>()) != ids_.end())
      throw ArgumentError("Graph: input ids must be strictly increasing");
  }
}

const Csr<double>& Graph::transpose() const {
  // An undirected graph is its own transpose.
  if (!directed_) return adj_;
  std::call_once(transpose_->once, [this] {
    transpose_->csr = std::make_unique<const Csr<double>>(adj_.transpose());
  });
  return *transpose_->csr;
}

std::optional<vertex_t> Graph::find(std::uint64_t input_id) const {
  if (ids_.empty()) {
    if (input_id < static_cast<std::uint64_t>(n_vertices())) return static_cast<vertex_t>(input_id);
    return std::nullopt;
  }
  const auto it = std::lower_bound(ids_.begin(), ids_.end(), input_id);
  if (it == ids_.end() || *it != input_id) return std::nullopt;
  return static_cast<vertex_t>(it - ids_.begin());
}

}  // namespace graphrun
