// From arbitrary 64-bit input ids to dense vertex ids (internal to io/).
//
// Dense ids are given in ascending order of input id, so the table of input
// ids (Graph::input_ids) comes out sorted. Two strategies, same result:
//  - direct table, when the largest id is not much more than the number of
//    endpoints (the usual SNAP file, ids 0..n): mark present ids in a byte
//    map, number them by a scan, look endpoints up by index. O(m + max_id).
//  - sorted table otherwise (ids like 10^15): per-part sort + unique, merged
//    pairwise in parallel, endpoints found by binary search. O(m log m).
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "graphrun/engine/types.hpp"

namespace graphrun::io::detail {

class IdMap {
 public:
  // `parts` hold the endpoint ids (any order, repeats allowed), as 32- or
  // 64-bit values; `max_id` is their maximum. SizeError naming `path` when
  // more than 2^31-1 distinct ids.
  template <class Id>
  IdMap(const std::vector<std::span<const Id>>& parts, std::uint64_t max_id, int threads,
        const std::string& path);

  vertex_t size() const noexcept { return static_cast<vertex_t>(ids_.size()); }
  // Dense id of an input id that was among the parts. Inline: it runs once
  // per endpoint, in the hot loop that assembles COO.
  vertex_t operator()(std::uint64_t id) const noexcept {
    if (!direct_.empty()) return direct_[static_cast<std::size_t>(id)];
    return static_cast<vertex_t>(std::lower_bound(ids_.begin(), ids_.end(), id) - ids_.begin());
  }
  // Sorted distinct input ids (moved out: the map is done after this).
  std::vector<std::uint64_t> take_ids() { return std::move(ids_); }
  bool direct() const noexcept { return !direct_.empty(); }

 private:
  std::vector<std::uint64_t> ids_;
  std::vector<vertex_t> direct_;  // input id -> dense id, direct strategy only
};

// Refuses more than 2^31-1 vertices (SizeError naming `path`).
vertex_t checked_vertex_count(std::uint64_t distinct, const std::string& path);

}  // namespace graphrun::io::detail
