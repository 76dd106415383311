// The circulant's closed forms (graphrun/circulant.hpp), checked at every
// vertex, in parallel: what graphrun-scale-check reports as PASS or FAIL.
#pragma once

#include <cstdint>
#include <vector>

#include "graphrun/engine/csr.hpp"

namespace graphrun::scale {

struct RankCheck {
  double max_error = 0;  // max over v of |rank(v) - 1/n|
  double sum = 0;        // of the ranks (1 up to rounding)
  bool pass = false;     // every vertex within tolerance / n, and n ranks
};
// Ranks against 1/n; `tolerance` is relative (an error of tolerance / n).
RankCheck check_uniform(const std::vector<double>& rank, vertex_t n, double tolerance);

struct LevelCheck {
  std::int64_t wrong = 0;  // vertices whose level is not ceil(v / d)
  vertex_t first_wrong = -1;
  std::int32_t got = 0, want = 0;  // at first_wrong
  bool pass = false;
};
// BFS levels from vertex 0 against ceil(v / d).
LevelCheck check_levels(const std::vector<std::int32_t>& level, vertex_t n, std::int64_t d);

// The deepest level, ceil((n-1) / d): BfsResult::depth is one more.
std::int32_t max_level(vertex_t n, std::int64_t d);

struct TransposeCheck {
  std::int64_t wrong_rows = 0;  // rows of Aᵀ other than (v-1) .. (v-d) mod n, sorted
  vertex_t first_wrong = -1;
  bool pass = false;
};
TransposeCheck check_transpose(const Csr<double>& at, vertex_t n, std::int64_t d);

}  // namespace graphrun::scale
