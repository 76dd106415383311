// How a matrix entry enters a semiring product.
//
// A matrix stores double or float entries (all ones for a pattern matrix);
// a semiring computes in its own value_type. semiring_entry<S>(a) converts:
//   - a semiring that declares `static value_type from_entry(T)` decides itself
//     (OrAnd: any non-zero entry is 1, where a plain cast would send 0.5 to 0);
//   - any other semiring uses static_cast.
#pragma once

#include <type_traits>

#include "graphrun/engine/semiring.hpp"

namespace graphrun {

template <class S, class T>
concept SemiringWithEntryCast = requires(T a) {
  { S::from_entry(a) } -> std::convertible_to<typename S::value_type>;
};

template <class S, class T>
constexpr typename S::value_type semiring_entry(T a) {
  using V = typename S::value_type;
  if constexpr (SemiringWithEntryCast<S, T>) {
    return S::from_entry(a);
  } else {
    return static_cast<V>(a);
  }
}

}  // namespace graphrun
