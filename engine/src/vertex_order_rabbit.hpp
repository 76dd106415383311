// Rabbit Order: a vertex ordering by communities (Arai, Shiokawa, Yamamuro,
// Onizuka, Iwata, "Rabbit Order: Just-in-Time Parallel Reordering for Fast
// Graph Analysis", IPDPS 2016). Internal to vertex_order.cpp.
#pragma once

#include <vector>

#include "graphrun/engine/csr.hpp"

namespace graphrun::detail {

// The Rabbit ordering of a's vertices (order[new] = old), a taken as the
// undirected graph A + Aᵀ with its loops dropped; `symmetric`: a is known
// to be symmetric, and is read alone (the same ordering, sooner). A pure
// function of a: the same on every thread count.
template <class T>
std::vector<vertex_t> rabbit_order(const CsrView<T>& a, bool symmetric);

}  // namespace graphrun::detail
