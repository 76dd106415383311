// LFR benchmark graphs (graphrun/generators/lfr.hpp): the published construction, step
// by step, with every random choice drawn from a stream keyed by (seed,
// purpose, index) so that the graph does not depend on the thread count.
#include "graphrun/generators/lfr.hpp"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "graphrun/engine/types.hpp"
#include "splitmix64.hpp"

namespace graphrun::gen {

namespace {

using Rng = detail::SplitMix64;

enum Purpose : std::uint64_t { degree = 1, size, assign, internal, external_key, rewire };

// A stream per (purpose, index); purposes are spaced by the golden ratio,
// so no two (purpose, index) pairs below 2^60 indices share a start.
Rng stream(std::uint64_t seed, Purpose purpose, std::uint64_t index) {
  Rng s{seed * 0xd1342543de82ef95ULL + purpose * 0x9e3779b97f4a7c15ULL + index};
  s.next();
  return Rng{s.next()};
}

// A continuous power law of exponent tau on [a, b); its floor is the
// integer drawn, in [floor(a), b - 1].
struct PowerLaw {
  double a, b, tau;

  double cdf(double x) const {  // P(X < x)
    if (x <= a) return 0;
    if (x >= b) return 1;
    if (tau == 1) return std::log(x / a) / std::log(b / a);
    const double e = 1 - tau;
    return (std::pow(x, e) - std::pow(a, e)) / (std::pow(b, e) - std::pow(a, e));
  }
  std::uint64_t draw(Rng& r) const {
    const double u = r.unit();
    double x = 0;
    if (tau == 1) {
      x = a * std::pow(b / a, u);
    } else {
      const double e = 1 - tau;
      x = std::pow(std::pow(a, e) + u * (std::pow(b, e) - std::pow(a, e)), 1 / e);
    }
    const double lo = std::floor(a), hi = std::ceil(b) - 1;
    return static_cast<std::uint64_t>(std::clamp(std::floor(x), lo, hi));
  }
  // E[floor(X)], summed exactly over the integers.
  double mean_floor() const {
    double m = 0;
    for (double k = std::floor(a); k < b; ++k)
      m += k * (cdf(std::min(k + 1, b)) - cdf(std::max(k, a)));
    return m;
  }
};

// The lower end a of the degree law whose floored mean is `mean`.
double lower_end_for_mean(double mean, double b, double tau) {
  double lo = 1, hi = b - 1;
  if (mean < PowerLaw{lo, b, tau}.mean_floor() - 1e-9 || mean > b - 1)
    throw ArgumentError(
        "lfr: an average degree of " + std::to_string(mean) +
        " cannot be reached with this degree exponent and maximum degree (it must lie between " +
        std::to_string(PowerLaw{lo, b, tau}.mean_floor()) + " and " + std::to_string(b - 1) + ")");
  for (int it = 0; it < 200; ++it) {
    const double mid = (lo + hi) / 2;
    (PowerLaw{mid, b, tau}.mean_floor() < mean ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

// Sorts in parallel: buckets by the top bits of the key (the keys here are
// random or spread over the vertex ids), each bucket sorted by one thread.
template <class T, class Key>
void parallel_sort(std::vector<T>& v, Key key) {
  if (v.size() < (1u << 16)) {
    std::sort(v.begin(), v.end());
    return;
  }
  std::uint64_t top = 0;
  for (const T& x : v) top = std::max(top, key(x));
  const int bits = std::bit_width(top);
  const int shift = std::max(0, bits - 12);
  const std::size_t buckets = static_cast<std::size_t>(top >> shift) + 1;
  std::vector<std::size_t> start(buckets + 1, 0);
  for (const T& x : v) ++start[(key(x) >> shift) + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<T> out(v.size());
  std::vector<std::size_t> at(start.begin(), start.end() - 1);
  for (const T& x : v) out[at[key(x) >> shift]++] = x;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t b = 0; b < static_cast<std::int64_t>(buckets); ++b)
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(start[b]),
              out.begin() + static_cast<std::ptrdiff_t>(start[b + 1]));
  v = std::move(out);
}

std::uint64_t edge_key(vertex_t a, vertex_t b) {
  const auto lo = static_cast<std::uint64_t>(std::min(a, b));
  const auto hi = static_cast<std::uint64_t>(std::max(a, b));
  return lo << 32 | hi;
}

// Fenwick tree over the communities' free places, in order of size
// (largest first): drawing a place uniformly among the first L communities
// is a prefix sum and a descent.
class FreePlaces {
 public:
  explicit FreePlaces(const std::vector<std::int64_t>& free) : tree_(free.size() + 1, 0) {
    for (std::size_t i = 0; i < free.size(); ++i) add(i, free[i]);
  }
  void add(std::size_t i, std::int64_t d) {
    for (std::size_t k = i + 1; k < tree_.size(); k += k & (~k + 1)) tree_[k] += d;
  }
  std::int64_t prefix(std::size_t count) const {  // free places of the first `count`
    std::int64_t s = 0;
    for (std::size_t k = count; k > 0; k -= k & (~k + 1)) s += tree_[k];
    return s;
  }
  // The community holding free place r (0-based) in order.
  std::size_t find(std::int64_t r) const {
    std::size_t pos = 0;
    for (std::size_t step = std::bit_floor(tree_.size() - 1); step > 0; step >>= 1)
      if (pos + step < tree_.size() && tree_[pos + step] <= r) {
        pos += step;
        r -= tree_[pos];
      }
    return pos;
  }

 private:
  std::vector<std::int64_t> tree_;
};

using Pairs = std::vector<std::pair<vertex_t, vertex_t>>;

// Places the pair (x, y), which cannot stand as it is, by a swap with a
// random pair (p, q) of `pairs` (either way round): they become (x, p) and
// (y, q) when valid(x, p, y, q) allows it. Up to 50 tries; whether it was
// placed. `swapped(p, q)` hears which pair was replaced.
template <class Valid, class Swapped>
bool place_by_swap(Pairs& pairs, vertex_t x, vertex_t y, Rng& r, Valid valid, Swapped swapped) {
  for (int attempt = 0; attempt < 50 && !pairs.empty(); ++attempt) {
    const std::size_t j = r.below(pairs.size());
    auto [p, q] = pairs[j];
    if (r.next() & 1) std::swap(p, q);
    if (!valid(x, p, y, q)) continue;
    swapped(p, q);
    pairs[j] = {x, p};
    pairs.emplace_back(y, q);
    return true;
  }
  return false;
}

void check(const LfrOptions& o) {
  if (o.n == 0) throw ArgumentError("lfr: the number of vertices must be positive");
  if (o.n > static_cast<std::uint64_t>(max_vertices))
    throw SizeError("lfr: " + std::to_string(o.n) + " vertices exceed the 32-bit vertex ids");
  if (!(o.mu >= 0 && o.mu < 1)) throw ArgumentError("lfr: --mu must be in [0, 1)");
  if (!(o.tau1 > 1)) throw ArgumentError("lfr: the degree exponent --tau1 must be > 1");
  if (!(o.tau2 >= 1)) throw ArgumentError("lfr: the community-size exponent --tau2 must be >= 1");
  if (o.max_degree < 1 || o.max_degree >= o.n)
    throw ArgumentError("lfr: --max-degree " + std::to_string(o.max_degree) + " must be in [1, " +
                        std::to_string(o.n - 1) + "] (below the number of vertices)");
  if (!(o.avg_degree >= 1 && o.avg_degree <= static_cast<double>(o.max_degree)))
    throw ArgumentError("lfr: --degree must be in [1, --max-degree " +
                        std::to_string(o.max_degree) + "]");
}

}  // namespace

LfrGraph lfr(const LfrOptions& o) {
  check(o);
  const auto n = static_cast<vertex_t>(o.n);
  const double degree_end = static_cast<double>(o.max_degree) + 1;
  const PowerLaw degree_law{lower_end_for_mean(o.avg_degree, degree_end, o.tau1), degree_end,
                            o.tau1};

  // 1. Degrees, and the internal share of each, rounded at random.
  std::vector<std::int64_t> k_in(static_cast<std::size_t>(n)), k_ext(static_cast<std::size_t>(n));
#pragma omp parallel for schedule(static)
  for (vertex_t v = 0; v < n; ++v) {
    Rng r = stream(o.seed, Purpose::degree, static_cast<std::uint64_t>(v));
    const auto k = static_cast<double>(degree_law.draw(r));
    k_in[v] = static_cast<std::int64_t>(std::floor((1 - o.mu) * k + r.unit()));
    k_ext[v] = static_cast<std::int64_t>(k) - k_in[v];
  }
  const std::int64_t max_in = *std::max_element(k_in.begin(), k_in.end());

  // 2. Community sizes.
  const std::uint64_t c_min =
      o.min_community > 0 ? o.min_community
                          : std::max<std::uint64_t>(1, static_cast<std::uint64_t>(degree_law.a));
  const std::uint64_t c_max =
      o.max_community > 0
          ? o.max_community
          : std::max<std::uint64_t>(o.max_degree, static_cast<std::uint64_t>(max_in) + 1);
  if (c_min > c_max) throw ArgumentError("lfr: --min-community is above --max-community");
  if (c_max <= static_cast<std::uint64_t>(max_in))
    throw ArgumentError("lfr: communities of at most " + std::to_string(c_max) +
                        " vertices cannot hold a vertex with " + std::to_string(max_in) +
                        " edges inside its community; raise --max-community, or lower "
                        "--max-degree or (1 - --mu)");
  if (c_min > o.n) throw ArgumentError("lfr: --min-community is above the number of vertices");
  std::vector<std::int64_t> sizes;
  {
    const PowerLaw size_law{static_cast<double>(c_min), static_cast<double>(c_max) + 1, o.tau2};
    Rng r = stream(o.seed, Purpose::size, 0);
    std::int64_t total = 0;
    while (total < n) {
      sizes.push_back(static_cast<std::int64_t>(size_law.draw(r)));
      total += sizes.back();
    }
    const std::int64_t excess = total - n;
    if (sizes.back() - excess >= static_cast<std::int64_t>(c_min)) {
      sizes.back() -= excess;
    } else {
      // The last one cannot shrink enough: drop it and grow the others.
      std::int64_t missing = sizes.back() - excess;
      sizes.pop_back();
      std::vector<std::size_t> room;
      for (std::size_t c = 0; c < sizes.size(); ++c)
        if (sizes[c] < static_cast<std::int64_t>(c_max)) room.push_back(c);
      while (missing > 0 && !room.empty()) {
        const std::size_t i = r.below(room.size());
        ++sizes[room[i]];
        --missing;
        if (sizes[room[i]] == static_cast<std::int64_t>(c_max)) {
          room[i] = room.back();
          room.pop_back();
        }
      }
      if (missing > 0)
        throw ArgumentError("lfr: " + std::to_string(o.n) +
                            " vertices cannot be split into communities of " +
                            std::to_string(c_min) + " to " + std::to_string(c_max));
    }
  }
  const auto n_comm = static_cast<vertex_t>(sizes.size());

  // 3. Each vertex joins a community larger than its internal degree:
  // vertices by internal degree, largest first, each to a free place drawn
  // uniformly among the communities large enough (the largest first, so
  // the ones that need room get it).
  LfrGraph out;
  out.community.assign(static_cast<std::size_t>(n), 0);
  out.n_communities = n_comm;
  {
    std::vector<vertex_t> by_size(static_cast<std::size_t>(n_comm));
    std::iota(by_size.begin(), by_size.end(), vertex_t{0});
    std::stable_sort(by_size.begin(), by_size.end(),
                     [&](vertex_t x, vertex_t y) { return sizes[x] > sizes[y]; });
    std::vector<std::int64_t> free(static_cast<std::size_t>(n_comm));
    for (vertex_t i = 0; i < n_comm; ++i) free[i] = sizes[by_size[i]];
    FreePlaces places(free);
    // Vertices by internal degree, descending (counting sort, stable).
    std::vector<std::int64_t> first(static_cast<std::size_t>(max_in) + 2, 0);
    for (vertex_t v = 0; v < n; ++v) ++first[static_cast<std::size_t>(max_in - k_in[v]) + 1];
    std::partial_sum(first.begin(), first.end(), first.begin());
    std::vector<vertex_t> order(static_cast<std::size_t>(n));
    for (vertex_t v = 0; v < n; ++v) order[first[static_cast<std::size_t>(max_in - k_in[v])]++] = v;
    Rng r = stream(o.seed, Purpose::assign, 0);
    std::size_t large = 0;  // communities (in size order) larger than the current internal degree
    for (const vertex_t v : order) {
      while (large < by_size.size() && sizes[by_size[large]] > k_in[v]) ++large;
      std::int64_t free_places = places.prefix(large);
      std::size_t span = large;
      if (free_places == 0) {  // none left large enough: the largest with room, degree capped
        span = by_size.size();
        free_places = places.prefix(span);
      }
      const std::size_t pos =
          places.find(static_cast<std::int64_t>(r.below(static_cast<std::uint64_t>(free_places))));
      places.add(pos, -1);
      const vertex_t c = by_size[pos];
      out.community[v] = c;
      if (k_in[v] >= sizes[c]) {
        k_ext[v] += k_in[v] - (sizes[c] - 1);
        k_in[v] = sizes[c] - 1;
      }
    }
  }

  // Members of each community, in vertex order.
  std::vector<std::int64_t> member_start(static_cast<std::size_t>(n_comm) + 1, 0);
  for (vertex_t v = 0; v < n; ++v) ++member_start[out.community[v] + 1];
  std::partial_sum(member_start.begin(), member_start.end(), member_start.begin());
  std::vector<vertex_t> members(static_cast<std::size_t>(n));
  {
    std::vector<std::int64_t> at(member_start.begin(), member_start.end() - 1);
    for (vertex_t v = 0; v < n; ++v) members[at[out.community[v]]++] = v;
  }

  // 4a. Inside each community: a configuration model on the internal
  // degrees, self loops and repeats rewired by swaps with other edges of
  // the community.
  std::vector<std::vector<std::uint64_t>> inside(static_cast<std::size_t>(n_comm));
  std::int64_t dropped = 0;
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : dropped)
  for (vertex_t c = 0; c < n_comm; ++c) {
    const vertex_t* m = members.data() + member_start[c];
    const auto size = static_cast<std::size_t>(member_start[c + 1] - member_start[c]);
    std::int64_t stubs_total = 0;
    std::size_t widest = 0;
    for (std::size_t i = 0; i < size; ++i) {
      stubs_total += k_in[m[i]];
      if (k_in[m[i]] > k_in[m[widest]]) widest = i;
    }
    if (stubs_total % 2 != 0) {  // one stub cannot pair: the widest member's is left out
      --k_in[m[widest]];
      ++dropped;
    }
    std::vector<vertex_t> stubs;
    for (std::size_t i = 0; i < size; ++i) stubs.insert(stubs.end(), k_in[m[i]], m[i]);
    Rng r = stream(o.seed, Purpose::internal, static_cast<std::uint64_t>(c));
    for (std::size_t i = stubs.size(); i > 1; --i) std::swap(stubs[i - 1], stubs[r.below(i)]);
    Pairs edges, bad;
    std::unordered_set<std::uint64_t> present;
    present.reserve(stubs.size());
    for (std::size_t i = 0; i + 1 < stubs.size(); i += 2) {
      const vertex_t x = stubs[i], y = stubs[i + 1];
      if (x == y || !present.insert(edge_key(x, y)).second)
        bad.emplace_back(x, y);
      else
        edges.emplace_back(x, y);
    }
    for (const auto& [x, y] : bad) {
      const bool placed = place_by_swap(
          edges, x, y, r,
          [&](vertex_t a, vertex_t p, vertex_t b, vertex_t q) {
            return a != p && b != q && edge_key(a, p) != edge_key(b, q) &&
                   !present.count(edge_key(a, p)) && !present.count(edge_key(b, q));
          },
          [&](vertex_t p, vertex_t q) {
            present.erase(edge_key(p, q));
            present.insert(edge_key(x, p));
            present.insert(edge_key(y, q));
          });
      if (!placed) dropped += 2;
    }
    std::vector<std::uint64_t>& keys = inside[static_cast<std::size_t>(c)];
    keys.reserve(edges.size());
    for (const auto& [x, y] : edges) keys.push_back(edge_key(x, y));
  }

  // 4b. Between communities: the external stubs in a random order (a sort
  // by random keys, in parallel), paired; a pair inside one community is
  // rewired by a swap with another pair.
  std::vector<std::uint64_t> keys;
  {
    std::vector<std::int64_t> stub_start(static_cast<std::size_t>(n) + 1, 0);
    for (vertex_t v = 0; v < n; ++v) stub_start[v + 1] = stub_start[v] + k_ext[v];
    const std::int64_t stubs = stub_start[n];
    std::vector<std::pair<std::uint64_t, vertex_t>> shuffled(static_cast<std::size_t>(stubs));
#pragma omp parallel for schedule(static)
    for (vertex_t v = 0; v < n; ++v)
      for (std::int64_t j = stub_start[v]; j < stub_start[v + 1]; ++j)
        shuffled[j] = {stream(o.seed, Purpose::external_key, static_cast<std::uint64_t>(j)).next(),
                       v};
    parallel_sort(shuffled, [](const auto& s) { return s.first; });
    if (stubs % 2 != 0) ++dropped;
    Pairs pairs, bad;
    pairs.reserve(static_cast<std::size_t>(stubs / 2));
    for (std::int64_t i = 0; i + 1 < stubs; i += 2) {
      const vertex_t x = shuffled[i].second, y = shuffled[i + 1].second;
      if (out.community[x] == out.community[y])
        bad.emplace_back(x, y);
      else
        pairs.emplace_back(x, y);
    }
    shuffled = {};
    Rng r = stream(o.seed, Purpose::rewire, 0);
    const auto& community = out.community;
    for (const auto& [x, y] : bad) {
      const bool placed = place_by_swap(
          pairs, x, y, r,
          [&](vertex_t a, vertex_t p, vertex_t b, vertex_t q) {
            return community[a] != community[p] && community[b] != community[q];
          },
          [](vertex_t, vertex_t) {});
      if (!placed) dropped += 2;
    }
    keys.reserve(pairs.size());
    for (const auto& [x, y] : pairs) keys.push_back(edge_key(x, y));
  }
  // External repeats (rare at these densities) are dropped: no swap checks
  // them, since that would need the whole edge set.
  parallel_sort(keys, [](std::uint64_t k) { return k; });
  const std::size_t before = keys.size();
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  dropped += 2 * static_cast<std::int64_t>(before - keys.size());
  for (const auto& c : inside) keys.insert(keys.end(), c.begin(), c.end());
  inside = {};
  parallel_sort(keys, [](std::uint64_t k) { return k; });

  out.edges.n_rows = out.edges.n_cols = n;
  out.edges.row.resize(keys.size());
  out.edges.col.resize(keys.size());
  std::vector<std::int64_t> deg(static_cast<std::size_t>(n), 0),
      outside(static_cast<std::size_t>(n), 0);
  for (std::size_t e = 0; e < keys.size(); ++e) {
    const auto x = static_cast<vertex_t>(keys[e] >> 32);
    const auto y = static_cast<vertex_t>(keys[e] & 0xffffffffu);
    out.edges.row[e] = x;
    out.edges.col[e] = y;
    ++deg[x];
    ++deg[y];
    if (out.community[x] != out.community[y]) {
      ++outside[x];
      ++outside[y];
    }
  }
  double sum = 0;
  std::int64_t counted = 0;
  for (vertex_t v = 0; v < n; ++v)
    if (deg[v] > 0) {
      sum += static_cast<double>(outside[v]) / static_cast<double>(deg[v]);
      ++counted;
    }
  out.mixing = counted > 0 ? sum / static_cast<double>(counted) : 0;
  out.dropped_stubs = dropped;
  return out;
}

}  // namespace graphrun::gen
