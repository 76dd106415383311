// Betweenness centrality (betweenness.hpp). The driver: the sources are
// settled and checked here, the backend sums Brandes' dependencies over
// them (cpu/betweenness.cpp, cuda/betweenness.cu), and the sums are scaled
// here as NetworkX's betweenness_centrality scales them.
#include "graphrun/algorithms/betweenness.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>

#include "backend.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/stopwatch.hpp"

namespace graphrun {

namespace {

// The sources options ask for, in the order they are searched.
std::vector<vertex_t> pick_sources(const BetweennessOptions& o, vertex_t n) {
  if (!o.from.empty()) {
    std::vector<char> seen(static_cast<std::size_t>(n), 0);
    for (vertex_t s : o.from) {
      if (s < 0 || s >= n)
        throw ArgumentError("betweenness: source " + std::to_string(s) + " is not a vertex (0.." +
                            std::to_string(n - 1) + ")");
      if (seen[s]++) throw ArgumentError("betweenness: source " + std::to_string(s) + " twice");
    }
    return o.from;
  }
  if (o.sources < 0 || o.sources > n)
    throw ArgumentError("betweenness: " + std::to_string(o.sources) +
                        " sources asked of a graph of " + std::to_string(n) +
                        " vertices (0 means all)");
  std::vector<vertex_t> all(static_cast<std::size_t>(n));
  std::iota(all.begin(), all.end(), 0);
  if (o.sources == 0 || o.sources == n) return all;
  // A partial Fisher-Yates shuffle on the 64-bit Mersenne Twister, whose
  // output the standard fixes: the same sample from the same seed on every
  // platform (a std:: distribution's would not be). The modulo's bias is
  // below n / 2^64.
  std::mt19937_64 rng(o.seed);
  for (vertex_t i = 0; i < o.sources; ++i) {
    const auto left = static_cast<std::uint64_t>(n - i);
    std::swap(all[i], all[i + static_cast<vertex_t>(rng() % left)]);
  }
  all.resize(static_cast<std::size_t>(o.sources));
  std::sort(all.begin(), all.end());  // ascending: the order does not change the sums' meaning
  return all;
}

}  // namespace

BetweennessResult betweenness(Context& ctx, const Graph& g, const BetweennessOptions& options) {
  const Stopwatch t0;
  const vertex_t n = g.n_vertices();
  if (n == 0) {
    if (!options.from.empty() || options.sources != 0)
      throw ArgumentError("betweenness: the graph has no vertices to start from");
    return {};
  }
  BetweennessResult r;
  r.source = pick_sources(options, n);
  detail::BetweennessSums sums =
      detail::backend_for(ctx, "betweenness").betweenness(ctx, g, r.source, options);
  if (sums.sum.size() != static_cast<std::size_t>(n))
    throw Error("betweenness: the backend gave " + std::to_string(sums.sum.size()) +
                " scores for " + std::to_string(n) + " vertices");
  r.source.resize(static_cast<std::size_t>(sums.sources_done));
  r.iterations = sums.sources_done;
  r.complete = sums.complete;
  r.compute_seconds = sums.compute_seconds;
  // NetworkX's _rescale: normalized, 1 / ((n - 1)(n - 2)) where n > 2;
  // otherwise 1/2 on an undirected graph (each path found from both ends);
  // a sample of k sources scales by n / k wherever a scale applies.
  const double nn = n;
  double scale = 0;
  bool scaled = false;
  if (options.normalized && n > 2) {
    scale = 1.0 / ((nn - 1) * (nn - 2));
    scaled = true;
  } else if (!options.normalized && !g.directed()) {
    scale = 0.5;
    scaled = true;
  }
  if (scaled && r.iterations > 0 && r.iterations < n) scale *= nn / r.iterations;
  r.score = std::move(sums.sum);
  // σ counts shortest paths in a double: past 1.8e308 (a grid of 600 x 600
  // from a corner has C(1198, 599) ~ 1e359 paths to its far corner) it
  // becomes inf, and the dependencies that divide by it inf or NaN. A score
  // that is not finite is refused, not written.
  bool finite = true;
  for (double& x : r.score) {
    finite &= std::isfinite(x);
    if (scaled) x *= scale;
  }
  if (!finite)
    throw SizeError(
        "betweenness: the shortest paths from a source outnumber what a double can count "
        "(1.8e308; long grid-like graphs reach it), so the scores would not be finite");
  r.seconds = t0.seconds();
  return r;
}

}  // namespace graphrun
