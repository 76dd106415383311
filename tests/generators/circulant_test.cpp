// The circulant generator (graphrun/generators/circulant.hpp): its CSR has the promised
// structure (degree d in and out, sorted columns, wrap-around at n), is the
// same at every thread count, refuses parameters out of range; and the
// library's PageRank, BFS and transpose on the CPU meet the closed forms.
#include "graphrun/generators/circulant.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "graphrun/algorithms/bfs.hpp"
#include "graphrun/algorithms/pagerank.hpp"
#include "graphrun/engine/error.hpp"
#include "support/circulant_forms.hpp"

namespace graphrun {
namespace {

struct Shape {
  vertex_t n, d;
};
// Small and wide degrees, d = 1, d = n - 1 (complete digraph), a row count
// that is not a multiple of d.
const Shape kShapes[] = {{2, 1}, {5, 1}, {5, 4}, {10, 3}, {17, 5}, {64, 8}, {1000, 17}};

TEST(Circulant, RowsAreTheSortedTargetsModN) {
  for (const Shape s : kShapes) {
    const Csr<double> a = gen::circulant_csr(s.n, s.d);
    const std::string where = "n=" + std::to_string(s.n) + " d=" + std::to_string(s.d);
    ASSERT_EQ(a.n_rows(), s.n) << where;
    ASSERT_EQ(a.n_cols(), s.n) << where;
    ASSERT_EQ(a.nnz(), offset_t{s.n} * s.d) << where;
    EXPECT_TRUE(a.is_pattern()) << where;
    EXPECT_TRUE(a.values().empty()) << where;  // no 8-byte values per edge
    for (vertex_t v = 0; v < s.n; ++v) {
      EXPECT_EQ(a.row_length(v), s.d) << where << " row " << v;
      const auto row = a.row_cols(v);
      EXPECT_EQ(std::vector<vertex_t>(row.begin(), row.end()), test::circulant_row(s.n, s.d, v))
          << where << " row " << v;
    }
  }
}

TEST(Circulant, WrapsAroundAtTheLastRows) {
  const Csr<double> a = gen::circulant_csr(10, 3);
  const auto cols = [&](vertex_t v) {
    const auto r = a.row_cols(v);
    return std::vector<vertex_t>(r.begin(), r.end());
  };
  EXPECT_EQ(cols(0), (std::vector<vertex_t>{1, 2, 3}));
  EXPECT_EQ(cols(6), (std::vector<vertex_t>{7, 8, 9}));
  EXPECT_EQ(cols(7), (std::vector<vertex_t>{0, 8, 9}));
  EXPECT_EQ(cols(8), (std::vector<vertex_t>{0, 1, 9}));
  EXPECT_EQ(cols(9), (std::vector<vertex_t>{0, 1, 2}));
}

TEST(Circulant, InDegreesAreDToo) {
  for (const Shape s : kShapes) {
    const Csr<double> a = gen::circulant_csr(s.n, s.d);
    std::vector<offset_t> in(static_cast<std::size_t>(s.n), 0);
    for (const vertex_t c : a.col_idx()) ++in[c];
    for (vertex_t v = 0; v < s.n; ++v) EXPECT_EQ(in[v], s.d) << "n=" << s.n << " v=" << v;
  }
}

TEST(Circulant, SameGraphAtEveryThreadCount) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  const Csr<double> one = gen::circulant_csr(5000, 7);
  omp_set_num_threads(3);
  const Csr<double> three = gen::circulant_csr(5000, 7);
  omp_set_num_threads(saved);
  EXPECT_EQ(one.row_ptr(), three.row_ptr());
  EXPECT_EQ(one.col_idx(), three.col_idx());
}

TEST(Circulant, GraphIsDirectedAndUnweighted) {
  const Graph g = gen::circulant(100, 6);
  EXPECT_TRUE(g.directed());
  EXPECT_FALSE(g.weighted());
  EXPECT_EQ(g.n_vertices(), 100);
  EXPECT_EQ(g.n_edges(), 600);
  EXPECT_EQ(g.input_id(42), 42u);
}

TEST(Circulant, BytesAreTheCsrArrays) {
  EXPECT_EQ(gen::circulant_bytes(10, 3), 11u * 8 + 30u * 4);
  // The big case: 2^27 vertices, degree 17, past 2^31 edges.
  const std::uint64_t n = std::uint64_t{1} << 27;
  EXPECT_EQ(gen::circulant_bytes(n, 17), (n + 1) * 8 + n * 17 * 4);
  EXPECT_EQ(gen::circulant_csr(1000, 17).bytes(), gen::circulant_bytes(1000, 17));
}

TEST(Circulant, RefusesParametersOutOfRange) {
  EXPECT_THROW(gen::circulant_csr(10, 0), ArgumentError);
  EXPECT_THROW(gen::circulant_csr(10, 10), ArgumentError);
  EXPECT_THROW(gen::circulant_csr(10, 11), ArgumentError);
  EXPECT_THROW(gen::circulant_csr(1, 1), ArgumentError);
  EXPECT_THROW(gen::circulant_csr(0, 1), ArgumentError);
  EXPECT_THROW(gen::circulant_bytes(std::uint64_t{1} << 31, 2), SizeError);  // past vertex_t
  EXPECT_THROW(gen::circulant_bytes(10, 0), ArgumentError);
}

TEST(Circulant, TransposeIsTheReverseCirculant) {
  for (const Shape s : kShapes) {
    const Graph g = gen::circulant(s.n, s.d);
    const Csr<double>& at = g.transpose();
    ASSERT_EQ(at.nnz(), offset_t{s.n} * s.d);
    for (vertex_t v = 0; v < s.n; ++v) {
      const auto row = at.row_cols(v);
      EXPECT_EQ(std::vector<vertex_t>(row.begin(), row.end()),
                test::circulant_transpose_row(s.n, s.d, v))
          << "n=" << s.n << " d=" << s.d << " row " << v;
    }
  }
}

TEST(Circulant, PageRankIsUniformForAnyDamping) {
  Context ctx(Device::cpu, 2);
  for (const Shape s : kShapes) {
    const Graph g = gen::circulant(s.n, s.d);
    for (const double damping : {0.0, 0.5, 0.85, 0.99}) {
      PageRankOptions o;
      o.damping = damping;
      o.tol = 1e-12;
      const PageRankResult r = pagerank(ctx, g, o);
      EXPECT_TRUE(r.converged);
      ASSERT_EQ(r.rank.size(), static_cast<std::size_t>(s.n));
      for (vertex_t v = 0; v < s.n; ++v)
        EXPECT_NEAR(r.rank[v], 1.0 / s.n, 1e-12 / s.n)
            << "n=" << s.n << " d=" << s.d << " damping " << damping << " v=" << v;
    }
  }
}

TEST(Circulant, BfsLevelsAreCeilVOverD) {
  Context ctx(Device::cpu, 2);
  const double inf = INFINITY;
  for (const Shape s : kShapes) {
    const Graph g = gen::circulant(s.n, s.d);
    // Beamer's rule as it comes, push only, and pull from the first step.
    for (const auto& [alpha, beta] : {std::pair{15.0, 18.0}, {0.0, 18.0}, {inf, inf}}) {
      BfsOptions o;
      o.alpha = alpha;
      o.beta = beta;
      const BfsResult r = bfs(ctx, g, 0, o);
      EXPECT_EQ(r.level, test::circulant_levels(s.n, s.d))
          << "n=" << s.n << " d=" << s.d << " alpha " << alpha;
      EXPECT_EQ(r.reached, s.n);
      EXPECT_EQ(r.depth, (s.n - 1 + s.d - 1) / s.d + 1);
    }
  }
}

}  // namespace
}  // namespace graphrun
