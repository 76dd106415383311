// Afforest's choice of the component whose own rows the last pass skips
// (cpu/components_weak.cpp, cuda/components.cu): the root most of a fixed
// sample of vertices have. One definition for both backends, so they skip
// the same component. splitmix64 from a fixed seed: the choice changes only
// how much work the last pass skips, never the components.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "graphrun/engine/types.hpp"

namespace graphrun::detail {

inline constexpr int afforest_sample_size = 1024;

// The vertices (of n >= 1) whose roots are read.
inline std::vector<vertex_t> afforest_sample(vertex_t n) {
  std::vector<vertex_t> at(afforest_sample_size);
  std::uint64_t s = 0x2545f4914f6cdd1dULL;
  for (vertex_t& v : at) {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    v = static_cast<vertex_t>((z ^ (z >> 31)) % static_cast<std::uint64_t>(n));
  }
  return at;
}

// The most frequent of the sampled roots (the smallest on a tie).
inline vertex_t most_frequent(std::span<const vertex_t> roots) {
  std::unordered_map<vertex_t, int> seen;
  for (vertex_t r : roots) ++seen[r];
  return std::max_element(seen.begin(), seen.end(),
                          [](const auto& a, const auto& b) {
                            return a.second < b.second ||
                                   (a.second == b.second && a.first > b.first);
                          })
      ->first;
}

}  // namespace graphrun::detail
