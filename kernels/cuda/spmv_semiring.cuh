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

}  // namespace graphrun::cuda::detail
