// Device forms of the semirings SpGEMM accumulates with; zero() is the
// identity of add that a hash-table slot starts from. The engine's
// semirings are host constexpr types; a kernel needs the same zero, mul, add
// and an atomic add-into-memory, which for (+, ×) on float and double is the
// hardware atomicAdd and for the others a compare-and-swap loop on the
// value's bits. A semiring without a specialization here does not compile
// for the GPU, rather than silently computing something else.
#pragma once

#include <cuda/std/limits>

#include "graphrun/engine/semiring.hpp"

namespace graphrun::cuda::spgemm_detail {

template <class S>
struct DeviceSemiring;

// Compare-and-swap accumulation: *p = add(*p, v) atomically, for 4- and
// 8-byte values.
template <class V, class Add>
__device__ inline void atomic_combine(V* p, V v, Add add) {
  static_assert(sizeof(V) == 4 || sizeof(V) == 8, "CAS accumulation needs a 4- or 8-byte value");
  if constexpr (sizeof(V) == 8) {
    auto* word = reinterpret_cast<unsigned long long*>(p);
    unsigned long long old = atomicCAS(word, 0ull, 0ull), assumed;  // an atomic read
    do {
      assumed = old;
      const V next = add(__longlong_as_double(static_cast<long long>(assumed)), v);
      old = atomicCAS(word, assumed, static_cast<unsigned long long>(__double_as_longlong(next)));
    } while (old != assumed);
  } else {
    auto* word = reinterpret_cast<unsigned int*>(p);
    unsigned int old = atomicCAS(word, 0u, 0u), assumed;  // an atomic read
    do {
      assumed = old;
      const V next = add(__uint_as_float(assumed), v);
      old = atomicCAS(word, assumed, __float_as_uint(next));
    } while (old != assumed);
  }
}

template <class T>
struct DeviceSemiring<PlusTimes<T>> {
  using value_type = T;
  __device__ static T zero() { return T(0); }
  __device__ static T mul(T a, T b) { return a * b; }
  __device__ static T add(T a, T b) { return a + b; }
  __device__ static void atomic_add(T* p, T v) { atomicAdd(p, v); }
};

template <class T>
struct DeviceSemiring<MinPlus<T>> {
  using value_type = T;
  __device__ static T zero() { return ::cuda::std::numeric_limits<T>::infinity(); }
  __device__ static T mul(T a, T b) { return a + b; }
  __device__ static T add(T a, T b) { return b < a ? b : a; }
  __device__ static void atomic_add(T* p, T v) {
    atomic_combine(p, v, [](T x, T y) { return add(x, y); });
  }
};

// A table slot starts at the identity of max, -infinity, not at the engine's
// zero() (0, an identity only for non-negative values): an entry of C is the
// maximum of its products, whatever their signs.
template <class T>
struct DeviceSemiring<MaxTimes<T>> {
  using value_type = T;
  __device__ static T zero() { return -::cuda::std::numeric_limits<T>::infinity(); }
  __device__ static T mul(T a, T b) { return a * b; }
  __device__ static T add(T a, T b) { return b > a ? b : a; }
  __device__ static void atomic_add(T* p, T v) {
    atomic_combine(p, v, [](T x, T y) { return add(x, y); });
  }
};

}  // namespace graphrun::cuda::spgemm_detail
