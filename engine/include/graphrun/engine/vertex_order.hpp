// Vertex orderings for locality: a renumbering of the vertices after which
// the entries an SpMV gathers (x at the columns of a row) lie closer
// together in memory, so that more of them come from the same cache line.
//
// An ordering is a permutation `order` with order[new] = old: vertex
// order[0] comes first. permute() renumbers a square matrix by it,
// B(i, j) = A(order[i], order[j]); results computed on B are mapped back to
// the input's vertices by position(order) (position[old] = new), so
// whatever runs on a reordered graph still reports by input id.
//
//   degree    every vertex by degree, descending (frequency-based sorting):
//             the columns most rows gather from are packed at the front,
//             where they stay in cache
//   hubsort   vertices of above-average degree first, by degree descending;
//             the others after them in their input order (Zhang et al., "Making
//             caches work for graph analytics", 2017), which keeps what
//             locality the input order had among the many small vertices
//   dbg       degree-based grouping (Faldu, Diamond & Grot, IISWC 2019):
//             groups of degree in [2^k, 2^(k+1)), largest first, each
//             group in input order: coarser than hubsort, cheaper to apply
//   rcm       reverse Cuthill-McKee: breadth-first from a low-degree vertex,
//             neighbours by degree ascending, the whole order reversed:
//             a small bandwidth for meshes and road networks
//   rabbit    Rabbit Order (Arai et al., IPDPS 2016): communities found by
//             merging each vertex, low degrees first, into the neighbouring
//             community that raises the modularity most, then numbered
//             depth first through the merges, so that a community and the
//             communities inside it take consecutive ids: for graphs whose
//             edges stay mostly within communities (web, social, protein
//             networks), where the degree orderings only group the hubs
//
// Degree is a vertex's row length in the matrix the ordering is computed
// from: pass A (out-edges), whose row lengths are how often each column of
// Aᵀ is gathered in PageRank's y = Aᵀ x. Ties keep input order, so an
// ordering is a pure function of the matrix (the device computes the same
// one; see device_vertex_order).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/row_stats.hpp"
#include "graphrun/engine/spmv_format.hpp"

namespace graphrun {

enum class Reorder : std::uint8_t { none, degree, hubsort, dbg, rcm, rabbit, automatic };

// "none" | "degree" | "hubsort" | "dbg" | "rcm" | "rabbit" | "auto"; anything else is
// an ArgumentError listing the names.
Reorder parse_reorder(std::string_view name);
std::string_view to_string(Reorder r);

// The ordering `automatic` stands for, given the row statistics of the
// matrix it would be computed from (never Reorder::automatic): none for now,
// since no ordering repaid itself within one PageRank run on the H200. The
// measurements behind it are in vertex_order.cpp and docs/performance.md.
Reorder choose_reorder(const RowStats& stats);

// Whether an ordering renumbers by degree (degree, hubsort, dbg), so that on
// a symmetric matrix rows of like length lie side by side: what the GPU's
// choice of SpMV format weighs (RowOrder::by_degree).
constexpr bool groups_rows_by_degree(Reorder r) {
  return r == Reorder::degree || r == Reorder::hubsort || r == Reorder::dbg;
}

// How a matrix's rows lie after renumbering by `how`, for the choice of SpMV
// format: by degree where the ordering groups them so and the matrix is
// symmetric (its rows are its columns, renumbered alike).
constexpr RowOrder rows_after(Reorder how, bool symmetric) {
  return symmetric && groups_rows_by_degree(how) ? RowOrder::by_degree : RowOrder::as_loaded;
}

// The ordering of a's vertices by `how` (a square; not automatic): order[new]
// = old. Reorder::none gives the identity. `symmetric`: a is known to be
// symmetric (an undirected graph's adjacency), so that rabbit, which
// orders the undirected graph A + Aᵀ, need not build it (same ordering).
template <class T>
std::vector<vertex_t> vertex_order(const CsrView<T>& a, Reorder how, bool symmetric = false);

// position[order[i]] = i: where each input vertex went. ArgumentError when
// `order` is not a permutation of 0 .. order.size() - 1.
std::vector<vertex_t> position(std::span<const vertex_t> order);

// B(i, j) = A(order[i], order[j]) for a square A, columns sorted within each
// row (a Csr invariant), values carried with their entries.
template <class T>
Csr<T> permute(const Csr<T>& a, std::span<const vertex_t> order);

// out[i] = in[order[i]]: a vector by input vertex, in the new order.
template <class V>
std::vector<V> gather(std::span<const V> in, std::span<const vertex_t> order) {
  std::vector<V> out(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) out[i] = in[order[i]];
  return out;
}

// out[order[i]] = in[i]: a vector in the new order, back by input vertex.
template <class V>
std::vector<V> scatter(std::span<const V> in, std::span<const vertex_t> order) {
  std::vector<V> out(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) out[order[i]] = in[i];
  return out;
}

}  // namespace graphrun
