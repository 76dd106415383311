#include "graphrun/engine/graph.hpp"

#include <gtest/gtest.h>

#include "graphrun/engine/error.hpp"

namespace graphrun {
namespace {

Graph small_directed() {
  // 10 -> 20, 10 -> 30, 30 -> 10 (input ids 10, 20, 30 -> dense 0, 1, 2)
  Coo<double> coo{3, 3, {0, 0, 2}, {1, 2, 0}, {}};
  return Graph(Csr<double>::from_coo(coo), {10, 20, 30}, true, false);
}

TEST(Graph, MapsInputIdsBothWays) {
  Graph g = small_directed();
  EXPECT_EQ(g.input_id(2), 30u);
  EXPECT_EQ(g.find(20), 1);
  EXPECT_FALSE(g.find(25).has_value());
  EXPECT_FALSE(g.find(31).has_value());
}

TEST(Graph, TransposeHoldsInEdgesAndIsCached) {
  Graph g = small_directed();
  const auto& t = g.transpose();
  EXPECT_EQ(&t, &g.transpose());
  ASSERT_EQ(t.row_length(0), 1);  // 30 -> 10
  EXPECT_EQ(t.row_cols(0)[0], 2);
  EXPECT_EQ(t.row_length(2), 1);  // 10 -> 30
}

TEST(Graph, UndirectedIsItsOwnTranspose) {
  Coo<double> coo{2, 2, {0, 1}, {1, 0}, {}};
  Graph g(Csr<double>::from_coo(coo), {}, false, false);
  EXPECT_EQ(&g.transpose(), &g.adj());
  EXPECT_EQ(g.find(1), 1);
  EXPECT_FALSE(g.find(2).has_value());
}

TEST(Graph, RejectsBadIdMaps) {
  Coo<double> coo{2, 2, {0}, {1}, {}};
  EXPECT_THROW(Graph(Csr<double>::from_coo(coo), {5}, true, false), ArgumentError);
  EXPECT_THROW(Graph(Csr<double>::from_coo(coo), {5, 5}, true, false), ArgumentError);
  Coo<double> rect{2, 3, {0}, {1}, {}};
  EXPECT_THROW(Graph(Csr<double>::from_coo(rect), {}, true, false), ArgumentError);
}

}  // namespace
}  // namespace graphrun

namespace graphrun {
namespace {

TEST(Graph, TransposeBuiltOnceWhenManyThreadsAskAtOnce) {
  Coo<double> coo{4, 4, {0, 1, 2, 3}, {1, 2, 3, 0}, {}};
  Graph g(Csr<double>::from_coo(coo), {}, true, false);
  std::vector<const Csr<double>*> seen(8);
#pragma omp parallel for num_threads(8)
  for (int t = 0; t < 8; ++t) seen[t] = &g.transpose();
  for (auto* p : seen) EXPECT_EQ(p, seen[0]);
  EXPECT_EQ(seen[0]->row_cols(1)[0], 0);  // 0 -> 1 is an in-edge of 1
}

}  // namespace
}  // namespace graphrun
