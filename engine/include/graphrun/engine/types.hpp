// Index types and checked size arithmetic shared by every layer.
//
// Vertex ids inside the engine are dense 32-bit (a graph has < 2^31 vertices);
// edge offsets are 64-bit so a graph may hold more than 2^31 edges. Sizes are
// computed with the checked helpers below so that an overflow becomes a
// SizeError naming what was being computed, never a silent wrap-around.
#pragma once

#include <cstdint>
#include <limits>
#include <string_view>

namespace graphrun {

using vertex_t = std::int32_t;  // dense vertex id, 0 .. n-1
using offset_t = std::int64_t;  // position in col_idx / values, 0 .. nnz

inline constexpr vertex_t max_vertices = std::numeric_limits<vertex_t>::max();

[[noreturn]] void throw_size_overflow(std::string_view what);

// a + b, or a SizeError naming `what` when the result does not fit in T.
template <class T>
T checked_add(T a, T b, std::string_view what) {
  T r;
  if (__builtin_add_overflow(a, b, &r)) throw_size_overflow(what);
  return r;
}

// a * b, or a SizeError naming `what` when the result does not fit in T.
template <class T>
T checked_mul(T a, T b, std::string_view what) {
  T r;
  if (__builtin_mul_overflow(a, b, &r)) throw_size_overflow(what);
  return r;
}

// Narrowing that refuses to lose information, e.g. a 64-bit count into vertex_t.
template <class To, class From>
To checked_cast(From v, std::string_view what) {
  To r;
  if (__builtin_add_overflow(v, From{0}, &r)) throw_size_overflow(what);
  return r;
}

// Where part i of `parts` near-equal parts of `total` items starts (i = parts:
// total), without overflow for any total that fits in T.
template <class T, class I>
constexpr T split_point(T total, I parts, I i) {
  const T p = static_cast<T>(parts), k = static_cast<T>(i);
  return total / p * k + total % p * k / p;
}

}  // namespace graphrun
