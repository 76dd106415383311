// The contingency table of two clusterings by sorting (a, b) pairs packed
// into one 64-bit key: runs of equal keys are the cells n_ij, runs of equal
// high halves the row sums a_i. A sort keeps memory at 8 bytes per vertex
// and the result independent of hashing; n log n is negligible beside the
// clustering being compared.
#include "graphrun/algorithms/cluster_compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
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

double normalized_mutual_information(std::span<const vertex_t> a, std::span<const vertex_t> b) {
  check_arguments(a, b, "normalized_mutual_information");
  const auto n = static_cast<long double>(a.size());
  if (a.empty()) return 1.0;
  // Column sums b_j as (id, count), sorted by id, for lookup.
  std::vector<std::uint64_t> keys(b.size());
  for (std::size_t i = 0; i < b.size(); ++i) keys[i] = std::uint32_t(b[i]);
  std::ranges::sort(keys);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> col;  // (b id, b_j)
  long double h_b = 0;
  {
    std::size_t begin = 0;
    for (std::size_t i = 1; i <= keys.size(); ++i)
      if (i == keys.size() || keys[i] != keys[begin]) {
        col.emplace_back(keys[begin], i - begin);
        const long double p = static_cast<long double>(i - begin) / n;
        h_b -= p * std::log(p);
        begin = i;
      }
  }
  for (std::size_t i = 0; i < a.size(); ++i)
    keys[i] = std::uint64_t(std::uint32_t(a[i])) << 32 | std::uint32_t(b[i]);
  std::ranges::sort(keys);
  long double h_a = 0, mutual = 0;
  std::size_t row_begin = 0;
  while (row_begin < keys.size()) {
    std::size_t row_end = row_begin;
    while (row_end < keys.size() && (keys[row_end] >> 32) == (keys[row_begin] >> 32)) ++row_end;
    const auto a_i = static_cast<long double>(row_end - row_begin);
    h_a -= a_i / n * std::log(a_i / n);
    std::size_t cell = row_begin;
    for (std::size_t i = row_begin + 1; i <= row_end; ++i)
      if (i == row_end || keys[i] != keys[cell]) {
        const auto n_ij = static_cast<long double>(i - cell);
        const std::uint64_t id = keys[cell] & 0xffffffffu;
        const auto it =
            std::ranges::lower_bound(col, std::pair<std::uint64_t, std::uint64_t>(id, 0));
        const auto b_j = static_cast<long double>(it->second);
        mutual += n_ij / n * std::log(n * n_ij / (a_i * b_j));
        cell = i;
      }
    row_begin = row_end;
  }
  if (h_a == 0 && h_b == 0) return 1.0;
  const long double mean = (h_a + h_b) / 2;
  return static_cast<double>(std::clamp<long double>(mutual / mean, 0, 1));
}

bool same_clustering(std::span<const vertex_t> a, std::span<const vertex_t> b) {
  check_arguments(a, b, "same_clustering");
  // The pairs (a_i, b_i) define a bijection between the cluster ids exactly
  // when there are as many distinct pairs as distinct ids on either side.
  const Tables t = contingency(a, b);
  return t.cells.runs == t.rows.runs && t.cells.runs == t.cols.runs;
}

}  // namespace graphrun
