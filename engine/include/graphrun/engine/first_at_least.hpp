// Binary search over a sorted range by index, for host and device code: the
// sorted rows of a CSR (a window of columns, a vertex's place in its own
// row) and sorted id lists. std::lower_bound is not callable on the device.
#pragma once

#include "graphrun/engine/host_device.hpp"

namespace graphrun {

// The first index i in [lo, hi) with sorted[i] >= key; hi if there is none.
template <class Index, class T, class Key>
GRAPHRUN_HD inline Index first_at_least(const T* __restrict__ sorted, Index lo, Index hi, Key key) {
  while (lo < hi) {
    const Index mid = lo + (hi - lo) / 2;
    if (sorted[mid] < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

}  // namespace graphrun
