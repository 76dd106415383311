// Semirings for SpMV: y(i) = add_k mul(A(i,k), x(k)), starting from zero().
//
// A semiring is a tiny stateless type with value_type, zero(), add() and
// mul(). One whose value type cannot take a matrix entry by a plain cast
// declares `from_entry(a)` (OrAnd: any non-zero entry is true, where a cast
// would turn 0.5 into false). One that has an annihilator for add (a value after which further
// additions cannot change the result, e.g. `true` for OR) also provides
// `is_terminal(v)`, which lets kernels stop a row early (BFS pull).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

namespace graphrun {

template <class T>
struct PlusTimes {
  using value_type = T;
  static constexpr T zero() { return T(0); }
  static constexpr T add(T a, T b) { return a + b; }
  static constexpr T mul(T a, T b) { return a * b; }
};

// Shortest paths: (min, +) with +infinity as zero.
template <class T>
struct MinPlus {
  using value_type = T;
  static constexpr T zero() { return std::numeric_limits<T>::infinity(); }
  static constexpr T add(T a, T b) { return std::min(a, b); }
  static constexpr T mul(T a, T b) { return a + b; }
};

template <class T>
struct MaxTimes {
  using value_type = T;
  static constexpr T zero() { return T(0); }
  static constexpr T add(T a, T b) { return std::max(a, b); }
  static constexpr T mul(T a, T b) { return a * b; }
};

// Boolean reachability. Values are bytes (0/1) so vectors stay addressable
// per element; any non-zero matrix entry counts as true.
struct OrAnd {
  using value_type = std::uint8_t;
  static constexpr value_type zero() { return 0; }
  static constexpr value_type add(value_type a, value_type b) { return a | b; }
  static constexpr value_type mul(value_type a, value_type b) { return (a != 0) & (b != 0); }
  static constexpr bool is_terminal(value_type v) { return v != 0; }
  template <class T>
  static constexpr value_type from_entry(T a) {
    return a != T(0) ? 1 : 0;
  }
};

template <class S>
concept SemiringWithTerminal = requires(typename S::value_type v) {
  { S::is_terminal(v) } -> std::convertible_to<bool>;
};

}  // namespace graphrun
