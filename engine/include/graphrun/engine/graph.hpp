// A graph: adjacency in CSR plus what is needed to speak the input's ids.
//
// Row i of `adj` holds the out-edges of vertex i (A(i,j) = weight of i -> j).
// An undirected graph stores each edge in both directions. The transpose
// (in-edges, needed by pull-style PageRank and BFS) is built on first use.
// Dense id i stands for input id `ids[i]`; ids are assigned in ascending
// order of input id, so `ids` is sorted and lookup is a binary search.
//
// A graph may instead name its vertices by strings (protein networks call
// them YKR068C; see io::read_abc): vertex i is `names[i]`, in whatever order
// the reader chose (first appearance in the file for ABC input). Such a
// graph has no numeric ids: input_ids() is empty and input_id(v) is v.
// Output code should write label(v), which serves both kinds.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/vertex_order.hpp"

namespace graphrun {

// The adjacency's copy in GPU memory (defined in device_csr.hpp, CUDA
// builds): what a loader that assembled the graph on the device leaves
// there, so that a GPU algorithm need not upload it again.
struct DeviceAdjacency;

class Graph {
 public:
  Graph() = default;
  // `ids` must be strictly increasing and of size adj.n_rows() (or empty,
  // meaning ids 0 .. n-1). adj must be square.
  Graph(Csr<double> adj, std::vector<std::uint64_t> ids, bool directed, bool weighted);
  // A graph whose vertex v is called names[v]. Names must be unique and one
  // per vertex (ArgumentError otherwise); any bytes are allowed. A factory
  // rather than a constructor overload: `Graph(adj, {}, ...)` would be
  // ambiguous between the two vectors.
  static Graph with_names(Csr<double> adj, std::vector<std::string> names, bool directed,
                          bool weighted);
  // A graph whose adjacency (n x n, nnz entries; `pattern`: no values) is
  // made by `fetch` the first time adj() or transpose() asks for it: the
  // loader's for a graph assembled on the GPU and left there
  // (set_device_adjacency), so that a run that never needs the host copy
  // (PageRank on the GPU) never copies it back.
  static Graph with_deferred_adjacency(vertex_t n, offset_t nnz, offset_t self_loops, bool pattern,
                                       std::function<Csr<double>()> fetch,
                                       std::vector<std::uint64_t> ids, bool directed,
                                       bool weighted);

  vertex_t n_vertices() const noexcept { return n_; }
  offset_t n_edges() const noexcept { return nnz_; }  // stored (directed) entries
  bool directed() const noexcept { return directed_; }
  bool weighted() const noexcept { return weighted_; }
  // Whether the adjacency stores no values (all entries 1), without
  // fetching it: adj().is_pattern().
  bool is_pattern() const noexcept { return pattern_; }
  // The entries (i, i): counted over adj(), or as the loader counted them
  // for a deferred adjacency (without fetching it).
  offset_t self_loops() const;

  // The adjacency in host memory; for a graph made by
  // with_deferred_adjacency, fetched on the first call (safe from several threads at once; a fetch
  // that throws is tried again by the next call).
  const Csr<double>& adj() const;
  // Aᵀ: row i holds the in-edges of i. Built once on first use, then cached;
  // safe to call from several threads at once.
  const Csr<double>& transpose() const;

  // Input id of dense vertex v.
  std::uint64_t input_id(vertex_t v) const { return ids_.empty() ? std::uint64_t(v) : ids_[v]; }
  const std::vector<std::uint64_t>& input_ids() const noexcept { return ids_; }
  // Dense id of an input id, if present.
  std::optional<vertex_t> find(std::uint64_t input_id) const;

  // Vertex names (see with_names).
  bool has_names() const noexcept { return names_ != nullptr; }
  // The name of v, or empty when the graph has no names (use label()).
  std::string_view name(vertex_t v) const;
  // What output calls v: its name, or its input id in decimal.
  std::string label(vertex_t v) const;
  // The vertex a user means by `s`: for a named graph the vertex of that
  // name; otherwise s read as a non-negative decimal input id (no sign, no
  // blanks). nullopt when there is no such vertex or s is not an id.
  std::optional<vertex_t> find_name(std::string_view s) const;

  // A vertex ordering kept with the graph: what a .grb cache written by
  // `graphrun convert --reorder` holds. `order[new] = old`; `method` is how
  // it was made (an ordering of vertex_order.hpp: never none or automatic).
  // PageRank renumbers by it instead of computing an ordering. Copies of
  // the graph share it; a graph derived from this one (made undirected,
  // renumbered) does not inherit it.
  struct StoredOrder {
    Reorder method = Reorder::degree;
    std::vector<vertex_t> order;
  };
  // The stored ordering, or null.
  const StoredOrder* stored_order() const noexcept { return stored_order_.get(); }
  // ArgumentError unless `order` is a permutation of 0 .. n-1 and `method`
  // names an ordering (not none or automatic).
  void set_stored_order(Reorder method, std::vector<vertex_t> order);
  void clear_stored_order() noexcept { stored_order_.reset(); }

  // adj() already on the GPU, or null (see DeviceAdjacency). Set by the
  // loader; it must hold exactly adj()'s arrays (values only when
  // weighted()). Copies of the graph share it.
  const std::shared_ptr<const DeviceAdjacency>& device_adjacency() const noexcept {
    return device_adj_;
  }
  void set_device_adjacency(std::shared_ptr<const DeviceAdjacency> d) {
    device_adj_ = std::move(d);
  }

 private:
  // Names back to back in one buffer plus offsets, and an open-addressing
  // index from name to vertex: about 16 bytes per vertex beyond the names
  // themselves, where a vector<string> and an unordered_map would take ~80.
  // The index is built eagerly, in the factory: checking that the names are
  // unique needs exactly that hash table, so keeping it costs only its
  // memory, and find_name is then a plain const lookup, safe from any
  // thread with no locking. Immutable after construction, so copies share it.
  struct NameTable;
  std::shared_ptr<const NameTable> names_;

  // The adjacency, or where it comes from (with_deferred_adjacency). Behind a pointer, as
  // the transpose: copies share one, and it never changes once made.
  struct HostAdjacency {
    std::once_flag once;
    Csr<double> csr;
    std::function<Csr<double>()> fetch;  // empty once csr holds it
  };
  std::shared_ptr<HostAdjacency> adj_ = std::make_shared<HostAdjacency>();
  vertex_t n_ = 0;
  offset_t nnz_ = 0;
  offset_t known_self_loops_ = -1;  // -1: count them over adj()
  bool pattern_ = true;
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
  std::shared_ptr<const DeviceAdjacency> device_adj_;
  std::shared_ptr<const StoredOrder> stored_order_;
};

}  // namespace graphrun
