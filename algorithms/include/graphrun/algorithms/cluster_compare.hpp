// Comparing two clusterings of the same vertices, each given as a cluster id
// per vertex (ids are arbitrary non-negative integers; only equality
// matters, so renaming the clusters changes nothing).
//
// adjusted_rand_index: Hubert & Arabie, "Comparing partitions", Journal of
// Classification 2 (1985), the Rand index corrected for chance. With the
// contingency table n_ij = |A_i ∩ B_j|, row sums a_i, column sums b_j and
// C(x) = x(x-1)/2 pairs:
//
//   index    = Σ_ij C(n_ij)
//   expected = Σ_i C(a_i) · Σ_j C(b_j) / C(n)
//   maximum  = (Σ_i C(a_i) + Σ_j C(b_j)) / 2
//   ARI      = (index - expected) / (maximum - expected)
//
// 1 for identical clusterings, about 0 for independent ones, negative when
// they agree less than chance would. The pair counts are 64-bit integers
// (C(2^31) < 2^63) and the ratio is taken in long double, so any n a
// vertex_t can count is exact up to the final division.
//
// Degenerate cases: maximum == expected happens exactly when both
// clusterings put every vertex in its own cluster, or both put all vertices
// in one cluster (this includes n = 0 and n = 1). The formula is 0/0 there;
// the two clusterings are then identical, so the index is defined as 1.0
// (scikit-learn's adjusted_rand_score makes the same choice).
//
// normalized_mutual_information: the mutual information of the two
// clusterings over the mean of their entropies (Danon et al. 2005; the
// "arithmetic" normalization, scikit-learn's normalized_mutual_info_score
// default), natural logarithms, in [0, 1]:
//
//   I    = Σ_ij (n_ij / n) ln(n n_ij / (a_i b_j))
//   H(A) = -Σ_i (a_i / n) ln(a_i / n), H(B) likewise
//   NMI  = I / ((H(A) + H(B)) / 2)
//
// When both clusterings are one cluster each (both entropies 0) it is 1.0;
// when only one is, I = 0 and so is the NMI (scikit-learn's choices).
#pragma once

#include <span>

#include "graphrun/engine/types.hpp"

namespace graphrun {

// ArgumentError when a and b differ in length or hold a negative id.
// O(n log n) time (a sort of the (a, b) pairs), O(n) memory.
double adjusted_rand_index(std::span<const vertex_t> a, std::span<const vertex_t> b);
// ArgumentError as adjusted_rand_index; the same cost.
double normalized_mutual_information(std::span<const vertex_t> a, std::span<const vertex_t> b);

// True when a and b are the same partition of the vertices, i.e. equal up to
// renaming the clusters. ArgumentError as adjusted_rand_index.
bool same_clustering(std::span<const vertex_t> a, std::span<const vertex_t> b);

}  // namespace graphrun
