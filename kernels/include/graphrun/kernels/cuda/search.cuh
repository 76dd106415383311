// Binary searches over sorted offsets, for device code.
#pragma once

namespace graphrun::cuda {

// The last index j in [lo, hi] with first[j] <= key, where first is
// non-decreasing and first[lo] <= key: the segment holding item `key` when
// first holds the segments' starts (empty segments share their successor's
// start and are passed by).
template <class Index, class Offset, class Key>
__device__ inline Index last_at_most(const Offset* first, Index lo, Index hi, Key key) {
  while (lo < hi) {
    const Index mid = lo + (hi - lo + 1) / 2;
    if (first[mid] <= key)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

}  // namespace graphrun::cuda
