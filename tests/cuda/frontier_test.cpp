// The GPU frontier operator (kernels/cuda/frontier.hpp) against the host one
// (kernels/cpu/frontier.hpp): push and pull with ClaimUnvisited and the
// queue <-> bitmap conversions, on random matrices of the shapes that break
// kernels (empty rows, one huge row, power-law rows, bands), with frontiers
// from empty to every visited vertex. Levels, visited marks, the next
// frontier as a set and the counts must agree; pull parents exactly (the
// first frontier in-neighbour), push parents be frontier in-neighbours.
// Skips where there is no CUDA backend or no GPU.
#include "graphrun/kernels/cpu/frontier.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/device_csr.hpp"
#include "graphrun/kernels/cuda/frontier.hpp"
#include "graphrun/kernels/frontier.hpp"
#include "support/frontier_states.hpp"
#include "support/random_graphs.hpp"

namespace graphrun {
namespace {

#if defined(GRAPHRUN_HAVE_CUDA)

using test::MatrixShape;
using test::Rng;

class CudaFrontier : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }
};

constexpr MatrixShape kShapes[] = {MatrixShape::uniform, MatrixShape::empty_rows,
                                   MatrixShape::heavy_row, MatrixShape::power_law,
                                   MatrixShape::banded};

using State = test::FrontierState;

State random_state(vertex_t n, double visited_share, double frontier_share, Rng& rng) {
  return test::random_frontier_state(n, visited_share, frontier_share, /*depth=*/4, rng);
}

// The state on the device; next: a queue of n entries.
struct DeviceState {
  explicit DeviceState(const State& s)
      : level(std::span<const std::int32_t>(s.level)),
        parent(std::span<const vertex_t>(s.parent)),
        visited(std::span<const std::uint8_t>(s.visited)),
        queue(std::span<const vertex_t>(s.queue)),
        bitmap(std::span<const std::uint8_t>(s.bitmap)),
        next(s.level.size()),
        counts(std::span<const FrontierCounts>(&zero, 1)) {}
  ClaimUnvisited claim(std::int32_t depth) {
    return ClaimUnvisited{level.data(), parent.data(), visited.data(), depth};
  }
  // The next queue, sorted.
  std::vector<vertex_t> next_sorted() const {
    const FrontierCounts c = counts.download()[0];
    std::vector<vertex_t> all = next.download();
    all.resize(c.vertices);
    std::sort(all.begin(), all.end());
    return all;
  }
  static constexpr FrontierCounts zero{};
  DeviceArray<std::int32_t> level;
  DeviceArray<vertex_t> parent;
  DeviceArray<std::uint8_t> visited;
  DeviceArray<vertex_t> queue;
  DeviceArray<std::uint8_t> bitmap;
  DeviceArray<vertex_t> next;
  DeviceArray<FrontierCounts> counts;
};

bool has_edge(const Csr<double>& a, vertex_t u, vertex_t v) {
  for (offset_t k = a.row_ptr()[u]; k < a.row_ptr()[u + 1]; ++k)
    if (a.col_idx()[k] == v) return true;
  return false;
}

void expect_counts(const FrontierCounts& got, const FrontierCounts& want,
                   const std::string& where) {
  EXPECT_EQ(got.vertices, want.vertices) << where;
  EXPECT_EQ(got.edges, want.edges) << where;
  EXPECT_EQ(got.scanned, want.scanned) << where;
  EXPECT_EQ(got.max_degree, want.max_degree) << where;
}

struct Case {
  MatrixShape shape;
  vertex_t n;
  double visited_share, frontier_share;
  std::string where;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  for (MatrixShape shape : kShapes)
    for (vertex_t n : {1, 37, 5000})
      for (double visited : {0.0, 0.05, 0.4, 0.95})
        for (double frontier : {0.0, 0.02, 0.5, 1.0}) {
          std::string where = test::to_string(shape);
          where += " n ";
          where += std::to_string(n);
          where += " visited ";
          where += std::to_string(visited);
          where += " frontier ";
          where += std::to_string(frontier);
          out.push_back({shape, n, visited, frontier, where});
        }
  return out;
}

TEST_F(CudaFrontier, PushMatchesTheHost) {
  std::uint64_t seed = 1;
  for (const Case& c : cases()) {
    const Csr<double> a = test::random_csr<double>(c.n, c.n, c.shape, 6.0, seed % 2 == 0, seed);
    Rng rng(seed++);
    State host = random_state(c.n, c.visited_share, c.frontier_share, rng);
    DeviceState dev(host);
    const DeviceCsr<double> da(a);
    offset_t total = 0;
    for (vertex_t u : host.queue) total += a.row_ptr()[u + 1] - a.row_ptr()[u];

    cpu::VertexQueue want_queue;
    const FrontierCounts want_counts = cpu::advance_push(
        a.view(), host.queue, want_queue,
        ClaimUnvisited{host.level.data(), host.parent.data(), host.visited.data(), host.depth}, 2);
    std::vector<vertex_t> want(want_queue.begin(), want_queue.end());
    cuda::PushScratch scratch(c.n);
    cuda::advance_push(da, dev.queue.data(), static_cast<vertex_t>(host.queue.size()), total,
                       dev.claim(host.depth), dev.next.data(), dev.counts.data(), scratch);

    expect_counts(dev.counts.download()[0], want_counts, c.where);
    std::sort(want.begin(), want.end());
    EXPECT_EQ(dev.next_sorted(), want) << c.where;
    EXPECT_EQ(dev.level.download(), host.level) << c.where;
    EXPECT_EQ(dev.visited.download(), host.visited) << c.where;
    // Any frontier in-neighbour may have won a claim.
    const std::vector<vertex_t> parent = dev.parent.download();
    for (vertex_t v : want) {
      const vertex_t u = parent[v];
      ASSERT_TRUE(u >= 0 && u < c.n && host.bitmap[u] && has_edge(a, u, v))
          << c.where << " v " << v;
    }
  }
}

TEST_F(CudaFrontier, PullMatchesTheHost) {
  std::uint64_t seed = 500;
  for (const Case& c : cases()) {
    const Csr<double> a = test::random_csr<double>(c.n, c.n, c.shape, 6.0, seed % 2 == 1, seed);
    const Csr<double> at = a.transpose();
    Rng rng(seed++);
    State host = random_state(c.n, c.visited_share, c.frontier_share, rng);
    DeviceState dev(host);
    const DeviceCsr<double> dat(at);
    const DeviceArray<offset_t> a_row_ptr{std::span<const offset_t>(a.row_ptr())};

    std::vector<std::uint64_t> next(packed_words(c.n));  // the host's, packed
    const FrontierCounts want_counts = cpu::advance_pull(
        at.view(), a.row_ptr().data(), BitmapClear{host.visited.data()},
        BitmapSet{host.bitmap.data()},
        ClaimUnvisited{host.level.data(), host.parent.data(), host.visited.data(), host.depth},
        next.data(), 2);
    cpu::VertexQueue want_queue;
    cpu::bitmap_to_queue(next.data(), c.n, want_queue, 1);
    const std::vector<vertex_t> want(want_queue.begin(), want_queue.end());
    cuda::advance_pull(dat, a_row_ptr.data(), dev.visited.data(), dev.bitmap.data(),
                       dev.claim(host.depth), dev.next.data(), dev.counts.data());

    expect_counts(dev.counts.download()[0], want_counts, c.where);
    EXPECT_EQ(dev.next_sorted(), want) << c.where;
    EXPECT_EQ(dev.level.download(), host.level) << c.where;
    EXPECT_EQ(dev.visited.download(), host.visited) << c.where;
    EXPECT_EQ(dev.parent.download(), host.parent) << c.where;
  }
}

TEST_F(CudaFrontier, ConversionsMatchTheHost) {
  for (vertex_t n : {1, 5000, 300'000})
    for (double share : {0.0, 0.001, 0.5, 1.0}) {
      Rng rng(static_cast<std::uint64_t>(n) + static_cast<std::uint64_t>(share * 1000));
      std::vector<vertex_t> queue;
      for (vertex_t v = 0; v < n; ++v)
        if (rng.coin(share)) queue.push_back(v);
      // The device's bitmap is a byte per vertex; the host's is packed.
      std::vector<std::uint64_t> packed(packed_words(n));
      cpu::queue_to_bitmap(queue, packed.data(), n, 2);
      std::vector<std::uint8_t> want(n);
      for (vertex_t v = 0; v < n; ++v) want[v] = (packed[v / 64] >> (v % 64)) & 1u;
      const std::string where = "n " + std::to_string(n) + " share " + std::to_string(share);

      const DeviceArray<vertex_t> dqueue{std::span<const vertex_t>(queue)};
      const std::vector<std::uint8_t> stale(n, 5);  // every byte is written
      DeviceArray<std::uint8_t> bitmap{std::span<const std::uint8_t>(stale)};
      cuda::queue_to_bitmap(dqueue.data(), static_cast<vertex_t>(queue.size()), bitmap.data(), n);
      EXPECT_EQ(bitmap.download(), want) << where;

      // Appended after what the queue already holds.
      const std::vector<vertex_t> start(n + 3, -7);
      DeviceArray<vertex_t> back{std::span<const vertex_t>(start)};
      const unsigned long long three = 3;
      DeviceArray<unsigned long long> tail{std::span<const unsigned long long>(&three, 1)};
      cuda::bitmap_to_queue(bitmap.data(), n, back.data(), tail.data());
      EXPECT_EQ(tail.download()[0], 3 + queue.size()) << where;
      std::vector<vertex_t> got = back.download();
      EXPECT_EQ(std::vector<vertex_t>(got.begin(), got.begin() + 3), std::vector<vertex_t>(3, -7))
          << where;
      got.erase(got.begin(), got.begin() + 3);
      got.resize(queue.size());
      std::sort(got.begin(), got.end());
      EXPECT_EQ(got, queue) << where;
    }
}

#endif  // GRAPHRUN_HAVE_CUDA

}  // namespace
}  // namespace graphrun
