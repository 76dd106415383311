#include "graphrun/engine/graph.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

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

TEST(Graph, CountsItsSelfLoops) {
  Coo<double> coo{3, 3, {0, 1, 1, 2}, {0, 1, 2, 0}, {}};  // 0 -> 0, 1 -> 1 twice stored once
  coo.row.push_back(1);
  coo.col.push_back(1);
  EXPECT_EQ(Graph(Csr<double>::from_coo(coo), {}, true, false).self_loops(), 2);
  EXPECT_EQ(small_directed().self_loops(), 0);
  EXPECT_EQ(Graph().self_loops(), 0);
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

// A stored ordering is a permutation made by an ordering: none and
// automatic name no ordering, and a short or repeated order is refused.
TEST(Graph, StoredOrderingIsAPermutationOfAnOrdering) {
  Coo<double> coo{3, 3, {0, 1}, {1, 2}, {}};
  Graph g(Csr<double>::from_coo(coo), {}, true, false);
  EXPECT_THROW(g.set_stored_order(Reorder::none, {2, 0, 1}), ArgumentError);
  EXPECT_THROW(g.set_stored_order(Reorder::automatic, {2, 0, 1}), ArgumentError);
  EXPECT_THROW(g.set_stored_order(Reorder::rcm, {2, 0}), ArgumentError);
  EXPECT_THROW(g.set_stored_order(Reorder::rcm, {2, 0, 2}), ArgumentError);
  EXPECT_EQ(g.stored_order(), nullptr);
  g.set_stored_order(Reorder::rcm, {2, 0, 1});
  ASSERT_NE(g.stored_order(), nullptr);
  EXPECT_EQ(g.stored_order()->method, Reorder::rcm);
  EXPECT_EQ(g.stored_order()->order, (std::vector<vertex_t>{2, 0, 1}));
}

// The same edges as small_directed(), its vertices named instead.
Graph small_named() {
  Coo<double> coo{3, 3, {0, 0, 2}, {1, 2, 0}, {}};
  return Graph::with_names(Csr<double>::from_coo(coo), {"YKR068C", "10", "a b"}, true, false);
}

TEST(Graph, NamedGraphFindsAndLabelsByName) {
  const Graph g = small_named();
  EXPECT_TRUE(g.has_names());
  EXPECT_EQ(g.name(0), "YKR068C");
  EXPECT_EQ(g.label(2), "a b");
  EXPECT_EQ(g.find_name("YKR068C"), 0);
  EXPECT_EQ(g.find_name("a b"), 2);
  // A name that looks like a number is a name, not an id.
  EXPECT_EQ(g.find_name("10"), 1);
  EXPECT_FALSE(g.find_name("1").has_value());
  EXPECT_FALSE(g.find_name("ykr068c").has_value());
  EXPECT_FALSE(g.find_name("").has_value());
  // No numeric ids: input_id is the dense id.
  EXPECT_TRUE(g.input_ids().empty());
  EXPECT_EQ(g.input_id(2), 2u);
  // Copies (and moves) keep the names.
  const Graph copy = g;
  Graph moved = small_named();
  const Graph taken = std::move(moved);
  EXPECT_EQ(copy.find_name("a b"), 2);
  EXPECT_EQ(taken.label(0), "YKR068C");
  EXPECT_EQ(copy.transpose().row_cols(0)[0], 2);
}

TEST(Graph, NumericGraphFindsAndLabelsByInputId) {
  const Graph g = small_directed();
  EXPECT_FALSE(g.has_names());
  EXPECT_EQ(g.name(1), "");
  EXPECT_EQ(g.label(2), "30");
  EXPECT_EQ(g.find_name("20"), 1);
  EXPECT_EQ(g.find_name("020"), 1);
  for (const char* bad :
       {"25", "", "-20", "+20", " 20", "20 ", "2e1", "x", "0x14", "99999999999999999999999"})
    EXPECT_FALSE(g.find_name(bad).has_value()) << bad;
  // Ids 0 .. n-1 when the map is implicit.
  Coo<double> coo{2, 2, {0}, {1}, {}};
  const Graph dense(Csr<double>::from_coo(coo), {}, true, false);
  EXPECT_EQ(dense.find_name("1"), 1);
  EXPECT_FALSE(dense.find_name("2").has_value());
  EXPECT_EQ(dense.label(0), "0");
}

TEST(Graph, RejectsBadNameLists) {
  Coo<double> coo{2, 2, {0}, {1}, {}};
  EXPECT_THROW(Graph::with_names(Csr<double>::from_coo(coo), {"a"}, true, false), ArgumentError);
  EXPECT_THROW(Graph::with_names(Csr<double>::from_coo(coo), {"a", "a"}, true, false),
               ArgumentError);
  Coo<double> rect{2, 3, {0}, {1}, {}};
  EXPECT_THROW(Graph::with_names(Csr<double>::from_coo(rect), {"a", "b"}, true, false),
               ArgumentError);
  const Graph empty = Graph::with_names(Csr<double>(), {}, true, false);
  EXPECT_TRUE(empty.has_names());
  EXPECT_FALSE(empty.find_name("a").has_value());
}

TEST(Graph, ManyNamesAllFound) {
  const vertex_t n = 50000;
  Coo<double> coo{n, n, {}, {}, {}};
  std::vector<std::string> names;
  for (vertex_t v = 0; v < n; ++v) {
    std::string name(1, 'P');  // appended: GCC 12 warns falsely on "P" + s
    name += std::to_string(v * 7919 % 100003);
    names.push_back(std::move(name));
  }
  const Graph g = Graph::with_names(Csr<double>::from_coo(coo), names, false, false);
  // Looked up from many threads at once: the index is built before any.
  std::vector<int> wrong(8, 0);
#pragma omp parallel for num_threads(8)
  for (int t = 0; t < 8; ++t)
    for (vertex_t v = t; v < n; v += 8)
      wrong[static_cast<std::size_t>(t)] += g.find_name(names[static_cast<std::size_t>(v)]) != v;
  for (int w : wrong) EXPECT_EQ(w, 0);
  EXPECT_FALSE(g.find_name("P100003").has_value());
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

// A graph whose adjacency comes from elsewhere (the loader's copy left on
// the GPU): fetched on first use only, once whatever the threads, and
// checked against the shape the graph was made with.
TEST(Graph, DeferredAdjacencyIsFetchedOnFirstUseOnly) {
  const Csr<double> a = small_directed().adj();
  std::atomic<int> fetches{0};
  const Graph g = Graph::with_deferred_adjacency(
      a.n_rows(), a.nnz(), 0, a.is_pattern(),
      [&] {
        ++fetches;
        return a;
      },
      {10, 20, 30}, true, false);
  EXPECT_EQ(g.n_vertices(), 3);
  EXPECT_EQ(g.n_edges(), 3);
  EXPECT_TRUE(g.is_pattern());
  EXPECT_EQ(g.find(30), 2);
  EXPECT_EQ(fetches.load(), 0);  // nothing above needs the arrays
  const Graph copy = g;          // copies share the one adjacency
  std::vector<const Csr<double>*> seen(8);
#pragma omp parallel for num_threads(8)
  for (int t = 0; t < 8; ++t) seen[t] = &(t % 2 ? copy : g).adj();
  for (auto* p : seen) EXPECT_EQ(p, seen[0]);
  EXPECT_EQ(fetches.load(), 1);
  EXPECT_EQ(g.adj().col_idx(), a.col_idx());
  EXPECT_EQ(g.transpose().row_cols(0)[0], 2);  // 30 -> 10
  EXPECT_EQ(fetches.load(), 1);
}

TEST(Graph, DeferredAdjacencyThatFailsIsTriedAgainAndMustMatch) {
  const Csr<double> a = small_directed().adj();
  int calls = 0;
  const Graph g = Graph::with_deferred_adjacency(
      a.n_rows(), a.nnz(), 0, true,
      [&] {
        if (++calls == 1) throw DeviceError("the device went away");
        return a;
      },
      {}, true, false);
  EXPECT_THROW(g.adj(), DeviceError);
  EXPECT_EQ(g.adj().nnz(), 3);
  EXPECT_EQ(calls, 2);

  // A fetch that brings another matrix is an error, not a silent swap.
  const Graph wrong = Graph::with_deferred_adjacency(
      3, 4, 0, true, [&] { return a; }, {}, true, false);
  EXPECT_THROW(wrong.adj(), Error);
  EXPECT_THROW(Graph::with_deferred_adjacency(3, 3, 0, true, nullptr, {}, true, false),
               ArgumentError);
  EXPECT_THROW(Graph::with_deferred_adjacency(
                   3, 3, 4, true, [&] { return a; }, {}, true, false),
               ArgumentError);  // more self loops than vertices
  EXPECT_THROW(Graph::with_deferred_adjacency(
                   3, 3, 0, true, [&] { return a; }, {1, 2}, true, false),
               ArgumentError);
}

}  // namespace
}  // namespace graphrun
