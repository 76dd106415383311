// The semirings of engine/semiring.hpp as device code. Their host versions
// are constexpr host functions (std::min, numeric_limits), which device code
// may not call; these mirror them operation for operation, so a GPU result
// matches the CPU reference exactly for MinPlus, MaxTimes and OrAnd (min and
// max pick the same operand std::min / std::max would).
#pragma once

#include <cstdint>
#include <cuda/std/limits>

#include "graphrun/engine/semiring.hpp"
#include "graphrun/engine/types.hpp"

namespace graphrun::cuda::detail {

template <class S>
struct DeviceSemiring;

// The arithmetic semirings read a matrix entry as its value in V.
template <class V>
struct ConvertedEntries {
  template <class E>
  static __device__ __forceinline__ V entry(E a) {
    return static_cast<V>(a);
  }
};

template <class T>
struct DeviceSemiring<PlusTimes<T>> : ConvertedEntries<T> {
  using V = T;
  static __device__ __forceinline__ V zero() { return V(0); }
  static __device__ __forceinline__ V add(V a, V b) { return a + b; }
  static __device__ __forceinline__ V mul(V a, V b) { return a * b; }
};

template <class T>
struct DeviceSemiring<MinPlus<T>> : ConvertedEntries<T> {
  using V = T;
  static __device__ __forceinline__ V zero() { return ::cuda::std::numeric_limits<V>::infinity(); }
  static __device__ __forceinline__ V add(V a, V b) { return b < a ? b : a; }  // std::min
  static __device__ __forceinline__ V mul(V a, V b) { return a + b; }
};

template <class T>
struct DeviceSemiring<MaxTimes<T>> : ConvertedEntries<T> {
  using V = T;
  static __device__ __forceinline__ V zero() { return V(0); }
  static __device__ __forceinline__ V add(V a, V b) { return a < b ? b : a; }  // std::max
  static __device__ __forceinline__ V mul(V a, V b) { return a * b; }
};

template <>
struct DeviceSemiring<OrAnd> {
  using V = std::uint8_t;
  static __device__ __forceinline__ V zero() { return 0; }
  static __device__ __forceinline__ V add(V a, V b) { return a | b; }
  static __device__ __forceinline__ V mul(V a, V b) { return (a != 0) & (b != 0); }
  template <class E>
  static __device__ __forceinline__ V entry(E a) {
    return a != E(0) ? 1 : 0;  // OrAnd::from_entry: any non-zero entry is true
  }
};

// One product A(i,k) * x(col): values == nullptr is a pattern matrix (all
// entries 1). x goes through the read-only data cache, in its own type X
// (the semiring's, or float where PageRank gathers a float copy of a double
// x), widened to the semiring's as it is read.
template <class S, class T, class X>
__device__ __forceinline__ typename S::value_type product(const T* __restrict__ values,
                                                          offset_t slot, vertex_t col, const X* x) {
  using D = DeviceSemiring<S>;
  using V = typename S::value_type;
  const auto a = values ? D::entry(__ldg(values + slot)) : D::entry(T(1));
  return D::mul(a, static_cast<V>(__ldg(x + col)));
}

// A row stored down a column of slots, as ELL and SELL store them: its entry
// k in slot first + k * stride for k < width, and -1 in the slots past its
// last entry. The slots go in groups of four: the group's columns (and
// values) loaded together, then its gathers, then the sums in slot order up
// to the first padding slot. One slot at a time, each gather waited on its
// column and the next column on the padding test: two memory latencies per
// slot, and a thread per row has nothing else to hide them with.
template <class S, class T, class X>
__device__ __forceinline__ typename S::value_type sum_slots(const vertex_t* __restrict__ col_idx,
                                                            const T* __restrict__ values,
                                                            offset_t first, offset_t stride,
                                                            offset_t width, const X* x) {
  using D = DeviceSemiring<S>;
  using V = typename S::value_type;
  auto acc = D::zero();
  constexpr int group = 4;
  for (offset_t j0 = 0; j0 < width; j0 += group) {
    vertex_t c[group];
    T v[group];
#pragma unroll
    for (int u = 0; u < group; ++u) {
      const offset_t slot = first + (j0 + u) * stride;
      c[u] = j0 + u < width ? __ldg(col_idx + slot) : vertex_t{-1};
      v[u] = c[u] >= 0 && values != nullptr ? __ldg(values + slot) : T(1);
    }
    V p[group];
#pragma unroll
    for (int u = 0; u < group; ++u)  // product<S>'s arithmetic
      p[u] = c[u] >= 0 ? D::mul(D::entry(v[u]), static_cast<V>(__ldg(x + c[u]))) : D::zero();
    bool ended = false;
#pragma unroll
    for (int u = 0; u < group; ++u) {
      ended = ended || c[u] < 0;  // padding: the row has ended
      if (!ended) acc = D::add(acc, p[u]);
    }
    if (ended) break;
  }
  return acc;
}

}  // namespace graphrun::cuda::detail
