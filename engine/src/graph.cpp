#include "graphrun/engine/graph.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <functional>

#include "graphrun/engine/error.hpp"
#include "graphrun/engine/vertex_order.hpp"

namespace graphrun {

struct Graph::NameTable {
  std::string bytes;            // every name, back to back
  std::vector<offset_t> start;  // name v is bytes[start[v], start[v + 1])
  std::vector<vertex_t> slots;  // linear probing, -1 = empty; size a power of two
  std::size_t mask = 0;         // slots.size() - 1

  std::string_view get(vertex_t v) const {
    const auto b = static_cast<std::size_t>(start[static_cast<std::size_t>(v)]);
    const auto e = static_cast<std::size_t>(start[static_cast<std::size_t>(v) + 1]);
    return std::string_view(bytes).substr(b, e - b);
  }
  // The slot that holds `s`, or the empty slot where it would go.
  std::size_t probe(std::string_view s) const {
    const std::size_t h = std::hash<std::string_view>{}(s);
    std::size_t i = h & mask;
    while (slots[i] >= 0 && get(slots[i]) != s) i = (i + 1) & mask;
    return i;
  }
};

namespace {

void check_ids(const std::vector<std::uint64_t>& ids, vertex_t n) {
  if (ids.empty()) return;
  if (ids.size() != static_cast<std::size_t>(n))
    throw ArgumentError("Graph: one input id per vertex is required");
  if (std::adjacent_find(ids.begin(), ids.end(), std::greater_equal<>()) != ids.end())
    throw ArgumentError("Graph: input ids must be strictly increasing");
}

}  // namespace

Graph::Graph(Csr<double> adj, std::vector<std::uint64_t> ids, bool directed, bool weighted)
    : n_(adj.n_rows()),
      nnz_(adj.nnz()),
      pattern_(adj.is_pattern()),
      ids_(std::move(ids)),
      directed_(directed),
      weighted_(weighted) {
  if (adj.n_rows() != adj.n_cols()) throw ArgumentError("Graph: adjacency must be square");
  check_ids(ids_, n_);
  adj_->csr = std::move(adj);
}

Graph Graph::with_deferred_adjacency(vertex_t n, offset_t nnz, offset_t self_loops, bool pattern,
                                     std::function<Csr<double>()> fetch,
                                     std::vector<std::uint64_t> ids, bool directed, bool weighted) {
  if (!fetch) throw ArgumentError("Graph::with_deferred_adjacency: nothing to fetch it with");
  if (n < 0 || nnz < 0 || self_loops < 0 || self_loops > std::min<offset_t>(n, nnz))
    throw ArgumentError("Graph::with_deferred_adjacency: impossible sizes");
  Graph g;
  g.n_ = n;
  g.nnz_ = nnz;
  g.known_self_loops_ = self_loops;
  g.pattern_ = pattern;
  check_ids(ids, n);
  g.ids_ = std::move(ids);
  g.directed_ = directed;
  g.weighted_ = weighted;
  g.adj_->fetch = std::move(fetch);
  return g;
}

const Csr<double>& Graph::adj() const {
  std::call_once(adj_->once, [this] {
    if (!adj_->fetch) return;
    Csr<double> a = adj_->fetch();
    if (a.n_rows() != n_ || a.n_cols() != n_ || a.nnz() != nnz_ ||
        (nnz_ > 0 && a.is_pattern() != pattern_))
      throw Error("Graph: the adjacency fetched from the device is not the one loaded");
    adj_->csr = std::move(a);
    adj_->fetch = nullptr;
  });
  return adj_->csr;
}

Graph Graph::with_names(Csr<double> adj, std::vector<std::string> names, bool directed,
                        bool weighted) {
  Graph g(std::move(adj), {}, directed, weighted);
  const auto n = static_cast<std::size_t>(g.n_vertices());
  if (names.size() != n) throw ArgumentError("Graph: one name per vertex is required");
  auto t = std::make_shared<NameTable>();
  std::size_t total = 0;
  for (const std::string& s : names) total += s.size();
  t->bytes.reserve(total);
  t->start.reserve(n + 1);
  t->start.push_back(0);
  for (std::string& s : names) {
    t->bytes += s;
    t->start.push_back(static_cast<offset_t>(t->bytes.size()));
    std::string().swap(s);  // give each name's memory back as we go
  }
  names = {};
  // At most half full, so probes stay short (n < 2^31: no overflow here).
  t->slots.assign(std::bit_ceil(std::max<std::size_t>(2 * n, 2)), -1);
  t->mask = t->slots.size() - 1;
  for (std::size_t v = 0; v < n; ++v) {
    const std::string_view s = t->get(static_cast<vertex_t>(v));
    const std::size_t i = t->probe(s);
    if (t->slots[i] >= 0)
      throw ArgumentError("Graph: vertex name '" + std::string(s) + "' is given twice");
    t->slots[i] = static_cast<vertex_t>(v);
  }
  g.names_ = std::move(t);
  return g;
}

void Graph::set_stored_order(Reorder method, std::vector<vertex_t> order) {
  if (method == Reorder::none || method == Reorder::automatic)
    throw ArgumentError("Graph: a stored ordering is made by an ordering, not '" +
                        std::string(to_string(method)) + "'");
  if (order.size() != static_cast<std::size_t>(n_))
    throw ArgumentError("Graph: a stored ordering has " + std::to_string(order.size()) +
                        " entries for " + std::to_string(n_) + " vertices");
  (void)position(order);  // ArgumentError unless a permutation
  stored_order_ = std::make_shared<const StoredOrder>(StoredOrder{method, std::move(order)});
}

std::string_view Graph::name(vertex_t v) const {
  return names_ ? names_->get(v) : std::string_view();
}

std::string Graph::label(vertex_t v) const {
  if (names_) return std::string(names_->get(v));
  return std::to_string(input_id(v));
}

std::optional<vertex_t> Graph::find_name(std::string_view s) const {
  if (names_) {
    const vertex_t v = names_->slots[names_->probe(s)];
    if (v < 0) return std::nullopt;
    return v;
  }
  // from_chars takes neither blanks nor a sign for unsigned types.
  std::uint64_t id = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), id);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return find(id);
}

offset_t Graph::self_loops() const {
  if (known_self_loops_ >= 0) return known_self_loops_;
  const Csr<double>& a = adj();
  offset_t loops = 0;
#pragma omp parallel for reduction(+ : loops) schedule(static)
  for (vertex_t i = 0; i < a.n_rows(); ++i) {
    const auto cols = a.row_cols(i);
    loops += std::binary_search(cols.begin(), cols.end(), i);
  }
  return loops;
}

const Csr<double>& Graph::transpose() const {
  // An undirected graph is its own transpose.
  if (!directed_) return adj();
  std::call_once(transpose_->once, [this] {
    transpose_->csr = std::make_unique<const Csr<double>>(adj().transpose());
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
