// One value per OpenMP thread, each on cache lines of its own.
//
// A thread that appends to its own std::vector writes the vector's end
// pointer on every push_back; vectors side by side in a plain array share
// cache lines, so sixteen threads appending to "their own" vectors keep
// stealing the same lines from one another (false sharing). On a frontier
// of a few hundred thousand vertices that cost a search most of its
// scaling past a few threads. Each slot here is padded to 128 bytes: two
// lines, because the adjacent-line prefetcher of x86 cores pulls lines in
// pairs.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace graphrun {

template <class T>
class PerThread {
 public:
  explicit PerThread(int threads) : slots_(static_cast<std::size_t>(std::max(threads, 1))) {}

  T& operator[](int thread) { return slots_[static_cast<std::size_t>(thread)].value; }
  const T& operator[](int thread) const { return slots_[static_cast<std::size_t>(thread)].value; }
  int size() const { return static_cast<int>(slots_.size()); }

 private:
  struct alignas(128) Slot {
    T value{};
  };
  std::vector<Slot> slots_;
};

}  // namespace graphrun
