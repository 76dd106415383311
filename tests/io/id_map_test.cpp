// The id remapping: both strategies agree, and the vertex limit is enforced.

#include "id_map.hpp"

#include <gtest/gtest.h>

#include <random>

#include "graphrun/engine/error.hpp"

namespace graphrun::io::detail {
namespace {

std::vector<std::uint64_t> map_all(const std::vector<std::vector<std::uint64_t>>& parts,
                                   std::uint64_t offset, bool& direct,
                                   std::vector<std::uint64_t>& ids) {
  std::vector<std::vector<std::uint64_t>> shifted = parts;
  std::uint64_t max_id = 0;
  for (auto& p : shifted)
    for (auto& x : p) max_id = std::max(max_id, x += offset);
  std::vector<std::span<const std::uint64_t>> spans(shifted.begin(), shifted.end());
  IdMap map(spans, max_id, 2, "test");
  direct = map.direct();
  std::vector<std::uint64_t> dense;
  for (const auto& p : shifted)
    for (auto x : p) dense.push_back(static_cast<std::uint64_t>(map(x)));
  ids = map.take_ids();
  return dense;
}

TEST(IdMap, DirectAndSortedTablesAgree) {
  std::mt19937_64 rng(7);
  std::vector<std::vector<std::uint64_t>> parts(5);
  for (auto& p : parts)
    for (int i = 0; i < 1000; ++i) p.push_back(rng() % 5000);
  bool direct_small = false, direct_big = true;
  std::vector<std::uint64_t> ids_small, ids_big;
  const auto small = map_all(parts, 0, direct_small, ids_small);
  const auto big = map_all(parts, std::uint64_t(1) << 60, direct_big, ids_big);
  EXPECT_TRUE(direct_small);
  EXPECT_FALSE(direct_big);
  EXPECT_EQ(small, big);
  ASSERT_EQ(ids_small.size(), ids_big.size());
  EXPECT_TRUE(std::is_sorted(ids_small.begin(), ids_small.end()));
  EXPECT_EQ(std::adjacent_find(ids_small.begin(), ids_small.end()), ids_small.end());
  for (std::size_t i = 0; i < ids_small.size(); ++i)
    EXPECT_EQ(ids_big[i], ids_small[i] + (std::uint64_t(1) << 60));
  // Dense ids follow the input ids' order.
  for (std::size_t k = 0; k < small.size(); ++k) EXPECT_LT(small[k], ids_small.size());
}

TEST(IdMap, MoreThanTwoToThe31VerticesIsASizeError) {
  EXPECT_EQ(checked_vertex_count(2147483647ull, "f.txt"), 2147483647);
  try {
    checked_vertex_count(2147483648ull, "f.txt");
    ADD_FAILURE() << "expected SizeError";
  } catch (const SizeError& e) {
    EXPECT_NE(std::string(e.what()).find("f.txt"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("2147483648"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace graphrun::io::detail
