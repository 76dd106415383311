// Graph contraction C = S·A·Sᵀ against a quotient graph built edge by edge
// with Boost.Graph (support/contract_oracle.hpp): random graphs of several
// shapes, directed and undirected, weighted (also with mixed signs and
// stored zeros) and unweighted; random label maps, maps leaving clusters
// empty, one cluster, the identity map; loops kept and removed; the empty
// graph; the graphs shipped in datasets/. Structure must match exactly,
// values to 1e-12 relative. Also: S itself, the product count, the same C
// on 1 and 2 threads, and the argument checks (the GPU version: tests/cuda).
#include "graphrun/algorithms/contract.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "graphrun/io/load.hpp"
#include "support/contract_oracle.hpp"
#include "support/random_graphs.hpp"
#include "support/shared_graphs.hpp"

namespace graphrun {
namespace {

using test::GraphShape;

std::vector<vertex_t> random_labels(vertex_t n, vertex_t n_labels, std::uint64_t seed) {
  test::Rng rng(seed);
  std::vector<vertex_t> labels(static_cast<std::size_t>(n));
  for (vertex_t& l : labels) l = static_cast<vertex_t>(rng.below(n_labels));
  return labels;
}

// Only even labels below n_labels: every odd cluster is empty.
std::vector<vertex_t> even_labels(vertex_t n, vertex_t n_labels, std::uint64_t seed) {
  test::Rng rng(seed);
  std::vector<vertex_t> labels(static_cast<std::size_t>(n));
  for (vertex_t& l : labels) l = static_cast<vertex_t>(2 * rng.below((n_labels + 1) / 2));
  return labels;
}

// nnz(S·A): distinct (label(u), v) over the edges u -> v.
std::int64_t nnz_s_times_a(const Graph& g, const std::vector<vertex_t>& labels) {
  std::set<std::pair<vertex_t, vertex_t>> pairs;
  for (vertex_t u = 0; u < g.n_vertices(); ++u)
    for (vertex_t v : g.adj().row_cols(u)) pairs.emplace(labels[u], v);
  return static_cast<std::int64_t>(pairs.size());
}

// contract() on 1 and 2 threads, loops kept and removed, against the oracle.
void check_contract(const Graph& g, const std::vector<vertex_t>& labels, vertex_t n_labels,
                    const std::string& what) {
  for (bool keep_loops : {false, true}) {
    const test::QuotientRows want = test::boost_quotient(g, labels, n_labels, keep_loops);
    Csr<double> first;
    for (int threads : {1, 2}) {
      Context ctx(Device::cpu, threads);
      const std::string where = what + " n_labels=" + std::to_string(n_labels) +
                                (keep_loops ? " keep_loops" : "") +
                                " threads=" + std::to_string(threads);
      const ContractResult r = contract(ctx, g, labels, n_labels, {.keep_loops = keep_loops});
      test::expect_quotient(r.quotient, want, where);
      EXPECT_EQ(r.products, g.n_edges() + nnz_s_times_a(g, labels)) << where;
      EXPECT_GE(r.compute_seconds, 0.0) << where;
      EXPECT_LE(r.compute_seconds, r.seconds) << where;
      if (threads == 1) {
        first = r.quotient;
      } else {
        // The CPU SpGEMM sums in an order fixed by its inputs: bit-identical.
        EXPECT_EQ(r.quotient.row_ptr(), first.row_ptr()) << where;
        EXPECT_EQ(r.quotient.col_idx(), first.col_idx()) << where;
        EXPECT_EQ(r.quotient.values(), first.values()) << where;
      }
    }
  }
}

// The label maps every graph is checked with.
void check_label_maps(const Graph& g, std::uint64_t seed, const std::string& what) {
  const vertex_t n = g.n_vertices();
  check_contract(g, std::vector<vertex_t>(static_cast<std::size_t>(n), 0), 1, what + " one");
  for (vertex_t k : {vertex_t(2), vertex_t(7), n / 10 + 1})
    check_contract(g, random_labels(n, k, seed + static_cast<std::uint64_t>(k)), k,
                   what + " random");
  check_contract(g, even_labels(n, n / 5 + 3, seed), n / 5 + 3, what + " empty clusters");
  check_contract(g, random_labels(n, 5, seed), 2 * n + 5, what + " labels past n");
  std::vector<vertex_t> identity(static_cast<std::size_t>(n));
  for (vertex_t v = 0; v < n; ++v) identity[v] = v;
  if (n > 0) check_contract(g, identity, n, what + " identity");
}

struct GraphCase {
  GraphShape shape;
  vertex_t n;
  double avg_degree;
};

TEST(Contract, MatchesBoostQuotientOnRandomGraphs) {
  const GraphCase cases[] = {
      {GraphShape::erdos_renyi, 1, 1},     {GraphShape::erdos_renyi, 2, 2},
      {GraphShape::erdos_renyi, 300, 1.5}, {GraphShape::erdos_renyi, 2000, 8},
      {GraphShape::power_law, 3000, 6},    {GraphShape::chain, 200, 1},
      {GraphShape::star, 501, 1},          {GraphShape::disconnected, 1000, 4},
      {GraphShape::no_sinks, 333, 2},
  };
  std::uint64_t seed = 7000;
  for (const GraphCase& c : cases)
    for (bool directed : {true, false})
      for (bool weighted : {false, true}) {
        const Graph g = test::random_graph(c.shape, c.n, c.avg_degree, directed, weighted, ++seed);
        check_label_maps(g, seed,
                         test::to_string(c.shape) + " n=" + std::to_string(c.n) +
                             (directed ? " directed" : " undirected") +
                             (weighted ? " weighted" : ""));
      }
}

// Weights of both signs and stored zeros (random_value): an entry of C whose
// weights cancel is still stored, like any structural product.
TEST(Contract, MixedSignWeightsKeepTheStructure) {
  const test::MatrixShape shapes[] = {test::MatrixShape::uniform, test::MatrixShape::heavy_row,
                                      test::MatrixShape::power_law, test::MatrixShape::banded};
  std::uint64_t seed = 8100;
  for (test::MatrixShape shape : shapes) {
    Graph g(test::random_csr<double>(700, 700, shape, 6, false, ++seed), {}, true, true);
    check_label_maps(g, seed, "mixed signs " + test::to_string(shape));
  }
}

TEST(Contract, IdentityLabelsGiveTheAdjacencyWithoutLoops) {
  const Graph g = test::random_graph(GraphShape::erdos_renyi, 400, 5, true, true, 8200);
  std::vector<vertex_t> identity(400);
  for (vertex_t v = 0; v < 400; ++v) identity[v] = v;
  Context ctx(Device::cpu, 2);
  const ContractResult kept = contract(ctx, g, identity, 400, {.keep_loops = true});
  EXPECT_EQ(kept.quotient.row_ptr(), g.adj().row_ptr());
  EXPECT_EQ(kept.quotient.col_idx(), g.adj().col_idx());
  EXPECT_EQ(kept.quotient.values(), g.adj().values());  // 1·w·1 is exact
  const ContractResult dropped = contract(ctx, g, identity, 400);
  offset_t loops = 0;
  for (vertex_t v = 0; v < 400; ++v)
    for (vertex_t u : g.adj().row_cols(v)) loops += u == v;
  EXPECT_GT(loops, 0);  // the test means something
  EXPECT_EQ(dropped.quotient.nnz(), g.n_edges() - loops);
  for (vertex_t v = 0; v < 400; ++v)
    for (vertex_t u : dropped.quotient.row_cols(v)) EXPECT_NE(u, v);
}

TEST(Contract, OneClusterHoldsTheTotalWeight) {
  const Graph g = test::random_graph(GraphShape::power_law, 500, 4, false, true, 8300);
  double total = 0;
  for (double w : g.adj().values()) total += w;
  const std::vector<vertex_t> zeros(500, 0);
  Context ctx(Device::cpu, 2);
  const ContractResult kept = contract(ctx, g, zeros, 1, {.keep_loops = true});
  ASSERT_EQ(kept.quotient.nnz(), 1);
  EXPECT_NEAR(kept.quotient.values()[0], total, 1e-12 * total);
  EXPECT_EQ(contract(ctx, g, zeros, 1).quotient.nnz(), 0);
}

TEST(Contract, UndirectedQuotientIsSymmetric) {
  const Graph g = test::random_graph(GraphShape::erdos_renyi, 1000, 6, false, false, 8400);
  const std::vector<vertex_t> labels = random_labels(1000, 37, 8401);
  Context ctx(Device::cpu, 2);
  const Csr<double> c = contract(ctx, g, labels, 37).quotient;
  const Csr<double> ct = c.transpose();
  EXPECT_EQ(c.row_ptr(), ct.row_ptr());
  EXPECT_EQ(c.col_idx(), ct.col_idx());
  EXPECT_EQ(c.values(), ct.values());  // integer edge counts: exact
}

TEST(Contract, EmptyGraph) {
  const Graph g;
  Context ctx(Device::cpu, 2);
  const ContractResult r = contract(ctx, g, std::span<const vertex_t>{}, 3, {.keep_loops = true});
  EXPECT_EQ(r.quotient.n_rows(), 3);
  EXPECT_EQ(r.quotient.n_cols(), 3);
  EXPECT_EQ(r.quotient.nnz(), 0);
  EXPECT_EQ(r.products, 0);
  // Vertices but no edges.
  const Graph isolated(Csr<double>(4, 4, {0, 0, 0, 0, 0}, {}, {}), {}, true, false);
  const std::vector<vertex_t> labels = {0, 1, 1, 0};
  EXPECT_EQ(contract(ctx, isolated, labels, 2).quotient.nnz(), 0);
}

TEST(Contract, LabelMatrixHasOneEntryPerVertex) {
  const std::vector<vertex_t> labels = {2, 0, 2, 2, 0, 4};
  const Csr<double> s = label_matrix(labels, 5, 6);
  EXPECT_EQ(s.n_rows(), 5);
  EXPECT_EQ(s.n_cols(), 6);
  EXPECT_EQ(s.row_ptr(), (std::vector<offset_t>{0, 2, 2, 5, 5, 6}));
  EXPECT_EQ(s.col_idx(), (std::vector<vertex_t>{1, 4, 0, 2, 3, 5}));
  EXPECT_EQ(s.values(), std::vector<double>(6, 1.0));
  EXPECT_EQ(label_matrix({}, 1, 0).nnz(), 0);
}

TEST(Contract, ConsecutiveLabels) {
  EXPECT_EQ(consecutive_labels(7, 3), (std::vector<vertex_t>{0, 0, 0, 1, 1, 1, 2}));
  EXPECT_EQ(consecutive_labels(3, 1), (std::vector<vertex_t>{0, 1, 2}));
  EXPECT_EQ(consecutive_labels(3, 100), (std::vector<vertex_t>{0, 0, 0}));
  EXPECT_TRUE(consecutive_labels(0, 5).empty());
  EXPECT_THROW(consecutive_labels(5, 0), ArgumentError);
  EXPECT_THROW(consecutive_labels(-1, 2), ArgumentError);
}

TEST(Contract, BadLabelsAreArgumentErrors) {
  const Graph g = test::random_graph(GraphShape::erdos_renyi, 10, 2, true, false, 8500);
  Context ctx(Device::cpu, 1);
  std::vector<vertex_t> labels(10, 0);
  EXPECT_THROW(contract(ctx, g, labels, 0), ArgumentError);  // n_labels < 1
  EXPECT_THROW(contract(ctx, g, labels, -3), ArgumentError);
  labels[4] = 3;
  EXPECT_THROW(contract(ctx, g, labels, 3), ArgumentError);  // label == n_labels
  labels[4] = -1;
  EXPECT_THROW(contract(ctx, g, labels, 3), ArgumentError);
  labels[4] = 0;
  EXPECT_THROW(contract(ctx, g, std::span<const vertex_t>(labels).first(9), 3), ArgumentError);
  labels.push_back(0);
  EXPECT_THROW(contract(ctx, g, labels, 3), ArgumentError);  // 11 labels for 10 vertices
  EXPECT_THROW(label_matrix(labels, 3, 10), ArgumentError);
  try {
    labels.pop_back();
    labels[6] = 9;
    contract(ctx, g, labels, 3);
    ADD_FAILURE() << "no error";
  } catch (const ArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("vertex 6 has label 9"), std::string::npos) << e.what();
  }
}

TEST(Contract, ShippedGraphs) {
  const auto files = test::shipped_graph_files();
  ASSERT_FALSE(files.empty());
  std::uint64_t seed = 8700;
  for (const auto& file : files)
    for (bool undirected : {false, true}) {
      io::LoadOptions options;
      options.undirected = undirected;
      const Graph g = io::load_graph(file.string(), options);
      check_label_maps(g, ++seed,
                       file.filename().string() + (undirected ? " undirected" : " as read"));
    }
}

}  // namespace
}  // namespace graphrun
