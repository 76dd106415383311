#include "closed_forms.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace graphrun::scale {

RankCheck check_uniform(const std::vector<double>& rank, vertex_t n, double tolerance) {
  RankCheck c;
  if (rank.size() != static_cast<std::size_t>(n)) return c;
  const double want = 1.0 / static_cast<double>(n);
  double worst = 0, sum = 0;
  bool finite = true;
#pragma omp parallel for schedule(static) reduction(max : worst) reduction(+ : sum) \
    reduction(&& : finite)
  for (vertex_t v = 0; v < n; ++v) {
    finite = finite && std::isfinite(rank[v]);
    worst = std::max(worst, std::abs(rank[v] - want));
    sum += rank[v];
  }
  c.max_error = finite ? worst : std::numeric_limits<double>::infinity();
  c.sum = sum;
  c.pass = finite && worst <= tolerance * want;
  return c;
}

std::uint32_t start_weight(vertex_t v) {
  // Fibonacci hashing: the top 3 bits of v * 2^32/φ.
  return 1 + ((static_cast<std::uint32_t>(v) * 2654435769u) >> 29);
}

std::vector<double> hashed_start(vertex_t n) {
  std::vector<double> s(static_cast<std::size_t>(n));
#pragma omp parallel for schedule(static)
  for (vertex_t v = 0; v < n; ++v) s[v] = start_weight(v);
  return s;
}

RankCheck check_one_step(const std::vector<double>& rank, vertex_t n, std::int64_t d,
                         double damping, double tolerance) {
  RankCheck c;
  if (rank.size() != static_cast<std::size_t>(n) || n < 1) return c;
  std::int64_t total = 0;  // W <= 8 n < 2^34
#pragma omp parallel for schedule(static) reduction(+ : total)
  for (vertex_t v = 0; v < n; ++v) total += start_weight(v);
  const auto wrap = [n](std::int64_t v) { return static_cast<vertex_t>(((v % n) + n) % n); };
  const double teleport = (1.0 - damping) / static_cast<double>(n);
  const double scale = damping / (static_cast<double>(d) * static_cast<double>(total));
  double worst = 0, sum = 0;
  bool finite = true;
  // Each thread slides the window S over its own range of v, starting from
  // a direct d-term sum; S stays an exact integer (<= 8 d).
#pragma omp parallel reduction(max : worst) reduction(+ : sum) reduction(&& : finite)
  {
    const int threads = omp_get_num_threads(), t = omp_get_thread_num();
    const vertex_t lo = static_cast<vertex_t>(std::int64_t{n} * t / threads);
    const vertex_t hi = static_cast<vertex_t>(std::int64_t{n} * (t + 1) / threads);
    std::int64_t window = 0;
    if (lo < hi)
      for (std::int64_t j = 1; j <= d; ++j) window += start_weight(wrap(std::int64_t{lo} - j));
    for (vertex_t v = lo; v < hi; ++v) {
      const double want = teleport + scale * static_cast<double>(window);
      finite = finite && std::isfinite(rank[v]);
      worst = std::max(worst, std::abs(rank[v] - want));
      sum += rank[v];
      // S(v + 1) = S(v) + w(v) - w(v - d)
      window += start_weight(v) - std::int64_t{start_weight(wrap(std::int64_t{v} - d))};
    }
  }
  c.max_error = finite ? worst : std::numeric_limits<double>::infinity();
  c.sum = sum;
  c.pass = finite && worst <= tolerance / static_cast<double>(n);
  return c;
}

std::int32_t max_level(vertex_t n, std::int64_t d) {
  return static_cast<std::int32_t>((std::int64_t{n} - 1 + d - 1) / d);
}

LevelCheck check_levels(const std::vector<std::int32_t>& level, vertex_t n, std::int64_t d) {
  LevelCheck c;
  if (level.size() != static_cast<std::size_t>(n)) {
    c.wrong = n;
    return c;
  }
  std::int64_t wrong = 0;
  vertex_t first = std::numeric_limits<vertex_t>::max();
#pragma omp parallel for schedule(static) reduction(+ : wrong) reduction(min : first)
  for (vertex_t v = 0; v < n; ++v) {
    const auto want = static_cast<std::int32_t>((std::int64_t{v} + d - 1) / d);  // ceil(v / d)
    if (level[v] != want) {
      ++wrong;
      first = std::min(first, v);
    }
  }
  c.wrong = wrong;
  if (wrong > 0) {
    c.first_wrong = first;
    c.got = level[first];
    c.want = static_cast<std::int32_t>((std::int64_t{first} + d - 1) / d);
  }
  c.pass = wrong == 0;
  return c;
}

TransposeCheck check_transpose(const Csr<double>& at, vertex_t n, std::int64_t d) {
  TransposeCheck c;
  if (at.n_rows() != n || at.n_cols() != n || at.nnz() != std::int64_t{n} * d || !at.is_pattern()) {
    c.wrong_rows = n;
    return c;
  }
  const offset_t* ptr = at.row_ptr().data();
  const vertex_t* col = at.col_idx().data();
  std::int64_t wrong = 0;
  vertex_t first = std::numeric_limits<vertex_t>::max();
  // Row v, sorted: the sources v-d .. v-1 that are >= 0, then those that
  // wrap, n+v-d .. n-1.
#pragma omp parallel for schedule(static) reduction(+ : wrong) reduction(min : first)
  for (vertex_t v = 0; v < n; ++v) {
    const offset_t b = ptr[v];
    bool ok = ptr[v + 1] - b == d;
    const std::int64_t low = std::min<std::int64_t>(v, d);  // sources v-low .. v-1
    for (std::int64_t k = 0; ok && k < d; ++k) {
      const std::int64_t want = k < low ? v - low + k : std::int64_t{n} - d + k;
      ok = col[b + k] == want;
    }
    if (!ok) {
      ++wrong;
      first = std::min(first, v);
    }
  }
  c.wrong_rows = wrong;
  c.first_wrong = wrong > 0 ? first : -1;
  c.pass = wrong == 0;
  return c;
}

}  // namespace graphrun::scale
