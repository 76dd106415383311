// The contingency table of two clusterings by sorting (a, b) pairs packed
// into one 64-bit key: runs of equal keys are the cells n_ij, runs of equal
// high halves the row sums a_i. A sort keeps memory at 8 bytes per vertex
// and the result independent of hashing; n log n is negligible beside the
// clustering being compared.
#include "graphrun/algorithms/cluster_compare.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "graphrun/engine/error.hpp"

namespace graphrun {

namespace {

void check_arguments(std::span<const vertex_t> a, std::span<const vertex_t> b, const char* what) {
  if (a.size() != b.size())
    throw ArgumentError(std::string(what) + ": the clusterings have different lengths (" +
                        std::to_string(a.size()) + " and " + std::to_string(b.size()) + ")");
  const auto negative = [](vertex_t id) { return id < 0; };
  if (std::ranges::any_of(a, negative) || std::ranges::any_of(b, negative))
    throw ArgumentError(std::string(what) + ": cluster ids must be non-negative");
}

// C(x) = x(x-1)/2 in 64 bits: x <= 2^32 at most, so x(x-1) < 2^64.
std::uint64_t pairs(std::uint64_t x) { return x < 2 ? 0 : x * (x - 1) / 2; }

// Sorted keys; for each run of equal values of key >> shift, calls f(length).
template <class F>
void for_each_run(const std::vector<std::uint64_t>& sorted, int shift, F&& f) {
  std::size_t begin = 0;
  for (std::size_t i = 1; i <= sorted.size(); ++i)
    if (i == sorted.size() || (sorted[i] >> shift) != (sorted[begin] >> shift)) {
      f(static_cast<std::uint64_t>(i - begin));
      begin = i;
    }
}

// Sum of C(size) over the runs of key >> shift, and the number of runs.
struct RunPairs {
  std::uint64_t pairs = 0;
  std::uint64_t runs = 0;
};
RunPairs run_pairs(const std::vector<std::uint64_t>& sorted, int shift) {
  RunPairs r;
  for_each_run(sorted, shift, [&](std::uint64_t len) {
    r.pairs += pairs(len);
    ++r.runs;
  });
  return r;
}

// Keys (a[i] << 32 | b[i]) sorted, then (b[i]) sorted: everything the two
// functions below need.
struct Tables {
  RunPairs cells, rows, cols;
};
Tables contingency(std::span<const vertex_t> a, std::span<const vertex_t> b) {
  std::vector<std::uint64_t> keys(a.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    keys[i] = std::uint64_t(std::uint32_t(a[i])) << 32 | std::uint32_t(b[i]);
  std::ranges::sort(keys);
  Tables t;
  t.cells = run_pairs(keys, 0);
  t.rows = run_pairs(keys, 32);
  for (std::size_t i = 0; i < b.size(); ++i) keys[i] = std::uint32_t(b[i]);
  std::ranges::sort(keys);
  t.cols = run_pairs(keys, 0);
  return t;
}

}  // namespace

double adjusted_rand_index(std::span<const vertex_t> a, std::span<const vertex_t> b) {
  check_arguments(a, b, "adjusted_rand_index");
  const Tables t = contingency(a, b);
  const long double index = t.cells.pairs;
  const long double sum_a = t.rows.pairs, sum_b = t.cols.pairs;
  const long double total = pairs(a.size());
  // maximum == expected only when both are all singletons (sums 0) or both
  // one cluster (sums == total); see the header.
  if (t.rows.pairs == t.cols.pairs && (t.rows.pairs == 0 || t.rows.pairs == pairs(a.size())))
    return 1.0;
  const long double expected = sum_a * sum_b / total;
  const long double maximum = (sum_a + sum_b) / 2;
  return static_cast<double>((index - expected) / (maximum - expected));
}

bool same_clustering(std::span<const vertex_t> a, std::span<const vertex_t> b) {
  check_arguments(a, b, "same_clustering");
  // The pairs (a_i, b_i) define a bijection between the cluster ids exactly
  // when there are as many distinct pairs as distinct ids on either side.
  const Tables t = contingency(a, b);
  return t.cells.runs == t.rows.runs && t.cells.runs == t.cols.runs;
}

}  // namespace graphrun
