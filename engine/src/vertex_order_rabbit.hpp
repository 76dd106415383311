// Rabbit Order: a vertex ordering by communities (Arai, Shiokawa, Yamamuro,
// Onizuka, Iwata, "Rabbit Order: Just-in-Time Parallel Reordering for Fast
// Graph Analysis", IPDPS 2016). Internal to vertex_order.cpp.
#pragma once

#include <vector>

#include "graphrun/engine/csr.hpp"

namespace graphrun::detail {

// The Rabbit ordering of a's vertices (order[new] = old), a taken as the
// undirected graph A + Aᵀ with its loops dropped. A pure function of a.
template <class T>
std::vector<vertex_t> rabbit_order(const CsrView<T>& a);

}  // namespace graphrun::detail
