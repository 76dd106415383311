// The circulant's closed forms (graphrun/generators/circulant.hpp), checked at every
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

// The uniform start converges at once on a circulant (every vertex keeps
// 1/n), which checks the row lengths but not which columns a row reads. So
// a second run takes one iteration from a start with no such symmetry:
// weight w(v) in 1 .. 8 by a hash of v. Every vertex has d out-edges, none
// dangles, and the step is, in integers but for the last division,
//   r1(v) = (1 - damping)/n + damping * S(v) / (d W),
//   S(v) = Σ_{j=1..d} w((v - j) mod n),  W = Σ_v w(v).
std::uint32_t start_weight(vertex_t v);
std::vector<double> hashed_start(vertex_t n);
// Ranks against r1; `tolerance` is relative to 1/n. max_error is the largest
// |rank(v) - r1(v)|.
RankCheck check_one_step(const std::vector<double>& rank, vertex_t n, std::int64_t d,
                         double damping, double tolerance);

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
