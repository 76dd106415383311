// Vertex orderings on the host: the reference the device orderings are
// checked against, and what a CPU run uses.
#include "graphrun/engine/vertex_order.hpp"

#include <algorithm>
#include <bit>
#include <numeric>
#include <string>
#include <utility>

#include "graphrun/engine/error.hpp"
#include "vertex_order_rabbit.hpp"

namespace graphrun {

namespace {

// Every ordering by its name on the command line.
constexpr std::pair<Reorder, std::string_view> reorder_names[] = {
    {Reorder::automatic, "auto"},  {Reorder::none, "none"}, {Reorder::degree, "degree"},
    {Reorder::hubsort, "hubsort"}, {Reorder::dbg, "dbg"},   {Reorder::rcm, "rcm"},
    {Reorder::rabbit, "rabbit"},
};

}  // namespace

std::string_view to_string(Reorder r) {
  for (const auto& [value, name] : reorder_names)
    if (value == r) return name;
  return "?";
}

Reorder parse_reorder(std::string_view name) {
  for (const auto& [value, known] : reorder_names)
    if (known == name) return value;
  throw ArgumentError("unknown vertex ordering '" + std::string(name) +
                      "' (expected auto, none, degree, hubsort, dbg, rcm or rabbit)");
}

namespace {

// The sort key of a degree-family ordering; vertices go by key descending,
// ties in input order. hubsort's threshold is the mean degree.
struct DegreeKey {
  Reorder how;
  double mean;
  offset_t operator()(offset_t degree) const {
    switch (how) {
      case Reorder::degree:
        return degree;
      case Reorder::hubsort:
        return static_cast<double>(degree) > mean ? degree : 0;
      case Reorder::dbg:
        return std::bit_width(static_cast<std::uint64_t>(degree));
      default:
        return 0;
    }
  }
};

// A stable counting sort by key, descending: O(n + largest key).
template <class T>
std::vector<vertex_t> by_degree_key(const CsrView<T>& a, Reorder how) {
  const vertex_t n = a.n_rows;
  const DegreeKey key{how, n > 0 ? static_cast<double>(a.nnz) / n : 0.0};
  std::vector<offset_t> k(static_cast<std::size_t>(n));
  offset_t top = 0;
  for (vertex_t v = 0; v < n; ++v) {
    k[v] = key(a.row_ptr[v + 1] - a.row_ptr[v]);
    top = std::max(top, k[v]);
  }
  // start[key] = how many vertices have a larger key.
  std::vector<offset_t> start(static_cast<std::size_t>(top) + 2, 0);
  for (vertex_t v = 0; v < n; ++v) ++start[static_cast<std::size_t>(top - k[v]) + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<vertex_t> order(static_cast<std::size_t>(n));
  for (vertex_t v = 0; v < n; ++v) order[start[static_cast<std::size_t>(top - k[v])]++] = v;
  return order;
}

// Cuthill-McKee from each component's vertex of least degree (ties: lowest
// id), components in the order of their start; neighbours enqueued by
// (degree, id) ascending; then the whole order reversed. On a directed
// matrix the out-edges are the neighbours.
template <class T>
std::vector<vertex_t> reverse_cuthill_mckee(const CsrView<T>& a) {
  const vertex_t n = a.n_rows;
  const auto degree = [&](vertex_t v) { return a.row_ptr[v + 1] - a.row_ptr[v]; };
  const auto before = [&](vertex_t x, vertex_t y) {
    return std::pair(degree(x), x) < std::pair(degree(y), y);
  };
  std::vector<vertex_t> starts(static_cast<std::size_t>(n));
  std::iota(starts.begin(), starts.end(), vertex_t{0});
  std::sort(starts.begin(), starts.end(), before);
  std::vector<char> seen(static_cast<std::size_t>(n), 0);
  std::vector<vertex_t> order;
  order.reserve(static_cast<std::size_t>(n));
  std::vector<vertex_t> next;
  for (vertex_t s : starts) {
    if (seen[s]) continue;
    seen[s] = 1;
    order.push_back(s);
    for (std::size_t head = order.size() - 1; head < order.size(); ++head) {
      const vertex_t u = order[head];
      next.clear();
      for (offset_t k = a.row_ptr[u]; k < a.row_ptr[u + 1]; ++k) {
        const vertex_t v = a.col_idx[k];
        if (!seen[v]) {
          seen[v] = 1;
          next.push_back(v);
        }
      }
      std::sort(next.begin(), next.end(), before);
      order.insert(order.end(), next.begin(), next.end());
    }
  }
  std::reverse(order.begin(), order.end());
  return order;
}

}  // namespace

Reorder choose_reorder(const RowStats& stats) {
  // Measured on the H200 (docs/performance.md, "vertex orderings"): an
  // ordering gains at most 11% per PageRank iteration (dbg on R-MAT 22:
  // 1.212 -> 1.083 ms; degree on R-MAT 24: 5.37 -> 4.99 ms; Cornell5
  // 0.028 -> 0.024 ms) and nothing on web-NotreDame, soc-Epinions1, grids
  // and uniform random graphs, while computing it and renumbering the matrix
  // costs 23-30 iterations on the R-MAT graphs and 75-1,600 on the others.
  // A run at the default tolerance takes about 10 iterations (R-MAT 23: 9),
  // so no ordering repays itself within one run, and auto keeps the input
  // order; an explicit ordering serves long runs (tight tolerances).
  // Since 2026-12-06 (an H100) dbg with csr-bins, the format the GPU picks
  // for rows grouped by degree, takes R-MAT 22's iteration from 1.07 to
  // 0.78 ms and R-MAT 24's from 4.75 to 3.94 ms: repaid in 8.5 and 11
  // iterations, about a default run (R-MAT 20, Chebyshev: 16). auto still
  // keeps the input order: the net gain at the default tolerance is ~2 ms
  // on R-MAT 22 beside a set-up budgeted at 5 iterations, and the rule has
  // not been measured on directed or real skewed graphs.
  (void)stats;
  return Reorder::none;
}

template <class T>
std::vector<vertex_t> vertex_order(const CsrView<T>& a, Reorder how, bool symmetric) {
  if (a.n_rows != a.n_cols) throw ArgumentError("vertex ordering: the matrix is not square");
  switch (how) {
    case Reorder::none: {
      std::vector<vertex_t> order(static_cast<std::size_t>(a.n_rows));
      std::iota(order.begin(), order.end(), vertex_t{0});
      return order;
    }
    case Reorder::degree:
    case Reorder::hubsort:
    case Reorder::dbg:
      return by_degree_key(a, how);
    case Reorder::rcm:
      return reverse_cuthill_mckee(a);
    case Reorder::rabbit:
      return detail::rabbit_order(a, symmetric);
    case Reorder::automatic:
      break;
  }
  throw ArgumentError("vertex ordering: 'auto' must be resolved by choose_reorder() first");
}

std::vector<vertex_t> position(std::span<const vertex_t> order) {
  const auto n = order.size();
  std::vector<vertex_t> pos(n, vertex_t{-1});
  for (std::size_t i = 0; i < n; ++i) {
    const vertex_t v = order[i];
    if (v < 0 || static_cast<std::size_t>(v) >= n || pos[v] != -1)
      throw ArgumentError("vertex ordering: not a permutation of 0 .. " + std::to_string(n - 1) +
                          " (entry " + std::to_string(i) + " is " + std::to_string(v) + ")");
    pos[v] = static_cast<vertex_t>(i);
  }
  return pos;
}

template <class T>
Csr<T> permute(const Csr<T>& a, std::span<const vertex_t> order) {
  const vertex_t n = a.n_rows();
  if (a.n_cols() != n || order.size() != static_cast<std::size_t>(n))
    throw ArgumentError("permute: the matrix must be square and the ordering one per vertex");
  const std::vector<vertex_t> pos = position(order);
  std::vector<offset_t> row_ptr(static_cast<std::size_t>(n) + 1, 0);
  for (vertex_t i = 0; i < n; ++i) row_ptr[i + 1] = row_ptr[i] + a.row_length(order[i]);
  std::vector<vertex_t> col(static_cast<std::size_t>(a.nnz()));
  std::vector<T> val(a.values().size());
  const bool pattern = a.values().empty();
#pragma omp parallel
  {
    std::vector<std::pair<vertex_t, offset_t>> row;  // (new column, old entry)
#pragma omp for schedule(dynamic, 1024)
    for (vertex_t i = 0; i < n; ++i) {
      const vertex_t old = order[i];
      const offset_t from = a.row_ptr()[old], to = a.row_ptr()[old + 1];
      if (pattern) {
        // No values to carry: rename the columns in place and sort them
        // alone (a third of the time of sorting pairs on R-MAT).
        vertex_t* out = col.data() + row_ptr[i];
        for (offset_t k = from; k < to; ++k) out[k - from] = pos[a.col_idx()[k]];
        std::sort(out, out + (to - from));
        continue;
      }
      row.clear();
      for (offset_t k = from; k < to; ++k) row.emplace_back(pos[a.col_idx()[k]], k);
      std::sort(row.begin(), row.end());
      offset_t out = row_ptr[i];
      for (const auto& [c, k] : row) {
        col[out] = c;
        val[out] = a.values()[k];
        ++out;
      }
    }
  }
  return Csr<T>(n, n, std::move(row_ptr), std::move(col), std::move(val));
}

template std::vector<vertex_t> vertex_order(const CsrView<float>&, Reorder, bool);
template std::vector<vertex_t> vertex_order(const CsrView<double>&, Reorder, bool);
template Csr<float> permute(const Csr<float>&, std::span<const vertex_t>);
template Csr<double> permute(const Csr<double>&, std::span<const vertex_t>);

}  // namespace graphrun
