// adjusted_rand_index against a brute-force O(n²) reference that counts the
// four kinds of vertex pairs (together in both, in a only, in b only, in
// neither) and applies the pair-counting form of Hubert & Arabie's index,
// 2(n11·n00 − n10·n01) / ((n11+n10)(n10+n00) + (n11+n01)(n01+n00)),
// an algebraically equal formula that shares no code with the contingency
// table. normalized_mutual_information against a reference that counts the
// table in std::maps. Plus the textbook values, the degenerate cases and
// same_clustering.
#include "graphrun/algorithms/cluster_compare.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "graphrun/engine/error.hpp"

namespace graphrun {
namespace {

using Labels = std::vector<vertex_t>;

double brute_force_ari(const Labels& a, const Labels& b) {
  long double n11 = 0, n10 = 0, n01 = 0, n00 = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = i + 1; j < a.size(); ++j) {
      const bool sa = a[i] == a[j], sb = b[i] == b[j];
      (sa ? (sb ? n11 : n10) : (sb ? n01 : n00)) += 1;
    }
  const long double den = (n11 + n10) * (n10 + n00) + (n11 + n01) * (n01 + n00);
  if (den == 0) return 1.0;  // the degenerate cases, as the header defines them
  return static_cast<double>(2 * (n11 * n00 - n10 * n01) / den);
}

// NMI from the contingency table counted in maps (the header's formula).
double map_nmi(const Labels& a, const Labels& b) {
  std::map<vertex_t, double> ca, cb;
  std::map<std::pair<vertex_t, vertex_t>, double> cell;
  for (std::size_t i = 0; i < a.size(); ++i) {
    ca[a[i]] += 1;
    cb[b[i]] += 1;
    cell[{a[i], b[i]}] += 1;
  }
  const double n = static_cast<double>(a.size());
  double ha = 0, hb = 0, mi = 0;
  for (const auto& [id, c] : ca) ha -= c / n * std::log(c / n);
  for (const auto& [id, c] : cb) hb -= c / n * std::log(c / n);
  for (const auto& [ij, c] : cell) mi += c / n * std::log(n * c / (ca[ij.first] * cb[ij.second]));
  if (ha == 0 && hb == 0) return 1.0;
  return mi / ((ha + hb) / 2);
}

// n labels drawn uniformly from k cluster ids spread over [0, max_id].
Labels random_labels(std::mt19937_64& rng, std::size_t n, vertex_t k, vertex_t max_id) {
  std::uniform_int_distribution<vertex_t> pick_id(0, max_id);
  Labels ids(static_cast<std::size_t>(k));
  for (vertex_t& id : ids) id = pick_id(rng);
  std::uniform_int_distribution<vertex_t> pick(0, k - 1);
  Labels out(n);
  for (vertex_t& x : out) x = ids[static_cast<std::size_t>(pick(rng))];
  return out;
}

// b = a with a fraction of the vertices moved to a random cluster: agreement
// well above chance, so the index is far from 0 and the test is not trivial.
Labels perturb(std::mt19937_64& rng, Labels a, double fraction, vertex_t k) {
  std::bernoulli_distribution move(fraction);
  std::uniform_int_distribution<vertex_t> pick(0, k - 1);
  for (vertex_t& x : a)
    if (move(rng)) x = pick(rng);
  return a;
}

// Renames every cluster id through a random injective map.
Labels relabel(std::mt19937_64& rng, const Labels& a) {
  Labels ids = a;
  std::ranges::sort(ids);
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  Labels renamed(ids.size());
  std::iota(renamed.begin(), renamed.end(), vertex_t{1000});
  std::shuffle(renamed.begin(), renamed.end(), rng);
  Labels out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    out[i] = renamed[static_cast<std::size_t>(std::ranges::lower_bound(ids, a[i]) - ids.begin())];
  return out;
}

TEST(ClusterCompare, MatchesBruteForceOnRandomLabelings) {
  std::mt19937_64 rng(20240611);
  const std::size_t sizes[] = {2, 3, 7, 30, 200, 1500};
  for (std::size_t n : sizes)
    for (vertex_t k : {vertex_t{1}, vertex_t{2}, vertex_t{5}, static_cast<vertex_t>(n)})
      for (vertex_t max_id : {k - 1 + 0, std::numeric_limits<vertex_t>::max()}) {
        const Labels a = random_labels(rng, n, k, max_id);
        const Labels b = random_labels(rng, n, std::max<vertex_t>(1, k / 2 + 1), max_id);
        const Labels c = perturb(rng, a, 0.2, std::max<vertex_t>(k, 1));
        const std::string what = "n=" + std::to_string(n) + " k=" + std::to_string(k) +
                                 " max_id=" + std::to_string(max_id);
        EXPECT_NEAR(adjusted_rand_index(a, b), brute_force_ari(a, b), 1e-12) << what;
        EXPECT_NEAR(adjusted_rand_index(a, c), brute_force_ari(a, c), 1e-12) << what;
        EXPECT_NEAR(adjusted_rand_index(c, a), adjusted_rand_index(a, c), 1e-12) << what;
      }
}

TEST(ClusterCompare, IdenticalAndRelabelledGiveOne) {
  std::mt19937_64 rng(7);
  for (std::size_t n : {std::size_t{2}, std::size_t{10}, std::size_t{1000}}) {
    const Labels a = random_labels(rng, n, 4, 50);
    EXPECT_DOUBLE_EQ(adjusted_rand_index(a, a), 1.0);
    const Labels r = relabel(rng, a);
    EXPECT_DOUBLE_EQ(adjusted_rand_index(a, r), 1.0);
    EXPECT_TRUE(same_clustering(a, a));
    EXPECT_TRUE(same_clustering(a, r));
  }
}

// The examples of scikit-learn's adjusted_rand_score documentation, checked
// by hand: for {0,0,1,1} vs {0,0,1,2} the table gives index 1, row pairs 2,
// column pairs 1, C(4) = 6, so (1 − 2/6) / (3/2 − 2/6) = 4/7.
TEST(ClusterCompare, TextbookValues) {
  EXPECT_NEAR(adjusted_rand_index(Labels{0, 0, 1, 1}, Labels{0, 0, 1, 2}), 4.0 / 7.0, 1e-15);
  EXPECT_NEAR(adjusted_rand_index(Labels{0, 0, 1, 2}, Labels{0, 0, 1, 1}), 4.0 / 7.0, 1e-15);
  EXPECT_NEAR(adjusted_rand_index(Labels{0, 0, 1, 1}, Labels{0, 1, 0, 1}), -0.5, 1e-15);
  EXPECT_NEAR(adjusted_rand_index(Labels{0, 0, 1, 1}, Labels{1, 1, 0, 0}), 1.0, 1e-15);
  // One cluster against all singletons: no agreement beyond chance.
  EXPECT_NEAR(adjusted_rand_index(Labels{0, 0, 0, 0}, Labels{0, 1, 2, 3}), 0.0, 1e-15);
}

TEST(ClusterCompare, NmiMatchesTheMapReferenceOnRandomLabelings) {
  std::mt19937_64 rng(12);
  for (std::size_t n : {1u, 2u, 10u, 1000u, 20000u})
    for (vertex_t k : {1, 2, 7, 300})
      for (double moved : {0.0, 0.1, 0.6}) {
        const Labels a = random_labels(rng, n, k, std::numeric_limits<vertex_t>::max());
        const Labels b = perturb(rng, a, moved, k);
        EXPECT_NEAR(normalized_mutual_information(a, b), map_nmi(a, b), 1e-12)
            << "n " << n << " k " << k << " moved " << moved;
        EXPECT_NEAR(normalized_mutual_information(a, b), normalized_mutual_information(b, a),
                    1e-12);
        EXPECT_NEAR(normalized_mutual_information(a, relabel(rng, a)), 1.0, 1e-12);
      }
}

// scikit-learn's normalized_mutual_info_score examples, and one by hand:
// {0,0,1,1} vs {0,0,1,2}: I = ln 2, H(A) = ln 2, H(B) = 1.5 ln 2, so
// NMI = ln 2 / (1.25 ln 2) = 0.8.
TEST(ClusterCompare, NmiTextbookValuesAndDegenerateCases) {
  EXPECT_NEAR(normalized_mutual_information(Labels{0, 0, 1, 1}, Labels{0, 0, 1, 2}), 0.8, 1e-15);
  EXPECT_NEAR(normalized_mutual_information(Labels{0, 0, 1, 1}, Labels{1, 1, 0, 0}), 1.0, 1e-15);
  EXPECT_NEAR(normalized_mutual_information(Labels{0, 0, 1, 1}, Labels{0, 1, 0, 1}), 0.0, 1e-15);
  EXPECT_EQ(normalized_mutual_information(Labels{0, 0, 0, 0}, Labels{0, 1, 2, 3}), 0.0);
  EXPECT_EQ(normalized_mutual_information(Labels{4, 4, 4}, Labels{1, 1, 1}), 1.0);
  EXPECT_EQ(normalized_mutual_information(Labels{}, Labels{}), 1.0);
  EXPECT_THROW(normalized_mutual_information(Labels{0, 1}, Labels{0}), ArgumentError);
  EXPECT_THROW(normalized_mutual_information(Labels{0, -1}, Labels{0, 1}), ArgumentError);
}

TEST(ClusterCompare, DegenerateCasesAreOne) {
  EXPECT_EQ(adjusted_rand_index(Labels{}, Labels{}), 1.0);
  EXPECT_EQ(adjusted_rand_index(Labels{3}, Labels{9}), 1.0);
  EXPECT_EQ(adjusted_rand_index(Labels{0, 1, 2, 3, 4}, Labels{9, 8, 7, 6, 5}), 1.0);
  EXPECT_EQ(adjusted_rand_index(Labels{4, 4, 4, 4}, Labels{0, 0, 0, 0}), 1.0);
  EXPECT_TRUE(same_clustering(Labels{}, Labels{}));
}

TEST(ClusterCompare, SameClusteringDetectsDifferences) {
  EXPECT_TRUE(same_clustering(Labels{5, 5, 2, 7}, Labels{0, 0, 1, 2}));
  EXPECT_FALSE(same_clustering(Labels{5, 5, 2, 7}, Labels{0, 1, 1, 2}));  // one vertex moved
  EXPECT_FALSE(same_clustering(Labels{0, 0, 1, 2}, Labels{0, 0, 1, 1}));  // b merges two of a
  EXPECT_FALSE(same_clustering(Labels{0, 0, 1, 1}, Labels{0, 0, 1, 2}));  // b splits one of a
  EXPECT_FALSE(same_clustering(Labels{0, 0, 0}, Labels{0, 1, 2}));
}

TEST(ClusterCompare, RejectsBadArguments) {
  EXPECT_THROW(adjusted_rand_index(Labels{0, 1}, Labels{0}), ArgumentError);
  EXPECT_THROW(same_clustering(Labels{0}, Labels{0, 1}), ArgumentError);
  EXPECT_THROW(adjusted_rand_index(Labels{0, -1}, Labels{0, 1}), ArgumentError);
  EXPECT_THROW(same_clustering(Labels{0, 1}, Labels{-3, 1}), ArgumentError);
}

}  // namespace
}  // namespace graphrun
