// splitmix64 (Steele, Lea & Flood 2014): the generators' random stream, small,
// fast, and the same on every platform; ranges by Lemire's multiply-shift
// (bias below 2^-64 * n). Internal to the generators library.
#pragma once

#include <cstdint>

namespace graphrun::gen::detail {

struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n), n > 0.
  std::uint64_t below(std::uint64_t n) {
    __extension__ using u128 = unsigned __int128;
    return static_cast<std::uint64_t>((static_cast<u128>(next()) * n) >> 64);
  }
  // Uniform in [0, 1).
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
};

}  // namespace graphrun::gen::detail
