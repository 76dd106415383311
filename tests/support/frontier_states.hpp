// A traversal part-way, for the frontier operator's tests on both devices:
// levels (-1: unvisited), visited marks, parents and the frontier (the
// vertices at level depth - 1) as a queue and a bitmap.
#pragma once

#include <cstdint>
#include <vector>

#include "graphrun/engine/types.hpp"
#include "support/random_graphs.hpp"

namespace graphrun::test {

struct FrontierState {
  std::vector<std::int32_t> level;
  std::vector<vertex_t> parent;
  std::vector<std::uint8_t> visited;
  std::vector<vertex_t> queue;
  std::vector<std::uint8_t> bitmap;
  std::int32_t depth = 0;
};

// About `visited_share` of the vertices visited, and `frontier_share` of
// those at level depth - 1 (the frontier, in increasing order); the others
// at a random level below it.
inline FrontierState random_frontier_state(vertex_t n, double visited_share, double frontier_share,
                                           std::int32_t depth, Rng& rng) {
  FrontierState s;
  s.depth = depth;
  s.level.assign(n, -1);
  s.parent.assign(n, -1);
  s.visited.assign(n, 0);
  s.bitmap.assign(n, 0);
  for (vertex_t v = 0; v < n; ++v) {
    if (!rng.coin(visited_share)) continue;
    s.visited[v] = 1;
    if (rng.coin(frontier_share)) {
      s.level[v] = s.depth - 1;
      s.queue.push_back(v);
      s.bitmap[v] = 1;
    } else {
      s.level[v] = static_cast<std::int32_t>(rng.below(s.depth - 1));
    }
  }
  return s;
}

}  // namespace graphrun::test
