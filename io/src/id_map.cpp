#include "id_map.hpp"

#include <algorithm>
#include <atomic>
#include <iterator>

#include "graphrun/engine/error.hpp"

namespace graphrun::io::detail {

vertex_t checked_vertex_count(std::uint64_t distinct, const std::string& path) {
  if (distinct > static_cast<std::uint64_t>(max_vertices))
    throw SizeError(path + ": " + std::to_string(distinct) +
                    " distinct vertex ids, more than the 2^31-1 a graph may hold");
  return static_cast<vertex_t>(distinct);
}

template <class Id>
IdMap::IdMap(const std::vector<std::span<const Id>>& parts, std::uint64_t max_id, int threads,
             const std::string& path) {
  std::uint64_t endpoints = 0;
  for (const auto& p : parts) endpoints += p.size();
  const auto n_parts = static_cast<std::int64_t>(parts.size());

  // The direct table costs 4 bytes per possible id; allow it while that stays
  // within a small multiple of what the endpoints themselves occupy.
  if (max_id < 2 * endpoints + (std::uint64_t(1) << 20)) {
    const std::size_t table = static_cast<std::size_t>(max_id) + 1;
    direct_.assign(table, 0);
    // Mark: many threads may set the same slot, all to 1. Read first: a hub's
    // slot, stored to by every thread, would bounce between their caches.
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (std::int64_t i = 0; i < n_parts; ++i)
      for (const Id id : parts[i]) {
        std::atomic_ref<vertex_t> slot(direct_[id]);
        if (slot.load(std::memory_order_relaxed) == 0) slot.store(1, std::memory_order_relaxed);
      }

    // Number the marked slots in ascending order: count per block, prefix,
    // then assign, so the scan is parallel too.
    const std::size_t block = std::size_t(1) << 16;
    const std::size_t n_blocks = (table + block - 1) / block;
    std::vector<std::uint64_t> start(n_blocks + 1, 0);
#pragma omp parallel for schedule(static) num_threads(threads)
    for (std::size_t b = 0; b < n_blocks; ++b) {
      const std::size_t lo = b * block, hi = std::min(table, lo + block);
      start[b + 1] = static_cast<std::uint64_t>(
          std::count(direct_.begin() + static_cast<std::ptrdiff_t>(lo),
                     direct_.begin() + static_cast<std::ptrdiff_t>(hi), 1));
    }
    for (std::size_t b = 0; b < n_blocks; ++b) start[b + 1] += start[b];
    checked_vertex_count(start[n_blocks], path);
    ids_.resize(start[n_blocks]);
#pragma omp parallel for schedule(static) num_threads(threads)
    for (std::size_t b = 0; b < n_blocks; ++b) {
      auto next = static_cast<vertex_t>(start[b]);
      const std::size_t lo = b * block, hi = std::min(table, lo + block);
      for (std::size_t x = lo; x < hi; ++x) {
        if (direct_[x]) {
          ids_[static_cast<std::size_t>(next)] = x;
          direct_[x] = next++;
        }
      }
    }
    return;
  }

  // Sorted table: sort + unique each part, then merge neighbours in rounds.
  std::vector<std::vector<std::uint64_t>> runs(parts.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (std::int64_t i = 0; i < n_parts; ++i) {
    auto& r = runs[static_cast<std::size_t>(i)];
    r.assign(parts[i].begin(), parts[i].end());
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
  }
  for (std::size_t width = 1; width < runs.size(); width *= 2) {
    const auto pairs = static_cast<std::int64_t>((runs.size() + 2 * width - 1) / (2 * width));
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (std::int64_t k = 0; k < pairs; ++k) {
      const std::size_t a = static_cast<std::size_t>(k) * 2 * width, b = a + width;
      if (b >= runs.size()) continue;
      std::vector<std::uint64_t> merged;
      merged.reserve(runs[a].size() + runs[b].size());
      std::set_union(runs[a].begin(), runs[a].end(), runs[b].begin(), runs[b].end(),
                     std::back_inserter(merged));
      runs[a] = std::move(merged);
      std::vector<std::uint64_t>().swap(runs[b]);
    }
  }
  if (!runs.empty()) ids_ = std::move(runs[0]);
  checked_vertex_count(ids_.size(), path);
}

template IdMap::IdMap(const std::vector<std::span<const std::uint32_t>>&, std::uint64_t, int,
                      const std::string&);
template IdMap::IdMap(const std::vector<std::span<const std::uint64_t>>&, std::uint64_t, int,
                      const std::string&);

}  // namespace graphrun::io::detail
