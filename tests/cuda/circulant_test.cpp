// The circulant's closed forms on the GPU (graphrun/generators/circulant.hpp): PageRank
// exactly uniform with every SpMV format forced in turn, BFS levels
// ceil(v / d) under push-only, default and pull-only rules with every pull
// format, and graphrun-scale-check --device cuda passing at a small size.
// Skips where there is no CUDA backend or no GPU.
#include "graphrun/generators/circulant.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "graphrun/algorithms/bfs.hpp"
#include "graphrun/algorithms/pagerank.hpp"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/spmv_format.hpp"
#include "support/circulant_forms.hpp"
#include "support/run_command.hpp"

namespace graphrun {
namespace {

#if defined(GRAPHRUN_HAVE_CUDA)

class CudaCirculant : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }
  Context gpu_{Device::cuda};
};

struct Shape {
  vertex_t n, d;
};
// Small graphs (csr-warp when automatic), and regular rows of the length
// classes the chooser sees at >= 2^16 rows: short (csr-thread), long (HYB,
// whose ELL width, a power of two below d, leaves a COO tail). The large
// ones are deep (ceil((n-1)/d) levels) and left out under the sanitizers.
const Shape kSmall[] = {{5, 4}, {100, 3}, {1000, 17}, {3000, 129}};
const Shape kLarge[] = {{70000, 3}, {70000, 9}, {70000, 129}};

// Every format of the table, `auto` first.
std::vector<SpmvFormat> table_formats() {
  std::vector<SpmvFormat> f;
  for (const SpmvFormatRow& r : spmv_format_table()) f.push_back(r.format);
  return f;
}
const std::vector<SpmvFormat> kFormats = table_formats();

void expect_uniform_ranks(Context& gpu, const Shape s) {
  const Graph g = gen::circulant(s.n, s.d);
  for (const SpmvFormat f : kFormats) {
    PageRankOptions o;
    o.tol = 1e-12;
    o.format = f;
    const PageRankResult r = pagerank(gpu, g, o);
    const std::string where = "n=" + std::to_string(s.n) + " d=" + std::to_string(s.d) +
                              " format " + std::string(to_string(f));
    EXPECT_TRUE(r.converged) << where;
    ASSERT_EQ(r.rank.size(), static_cast<std::size_t>(s.n)) << where;
    double worst = 0;
    for (const double x : r.rank) worst = std::max(worst, std::abs(x - 1.0 / s.n));
    EXPECT_LE(worst, 1e-12 / s.n) << where;
  }
}

void expect_levels(Context& gpu, const Shape s) {
  const double inf = INFINITY;
  const Graph g = gen::circulant(s.n, s.d);
  const std::vector<std::int32_t> want = test::circulant_levels(s.n, s.d);
  for (const auto& [alpha, beta] : {std::pair{15.0, 18.0}, {0.0, 18.0}, {inf, inf}}) {
    // Pull steps run the SpMV: every format there (push-only runs once).
    for (const SpmvFormat f : kFormats) {
      if (alpha == 0.0 && f != SpmvFormat::automatic) continue;
      BfsOptions o;
      o.alpha = alpha;
      o.beta = beta;
      o.format = f;
      const std::string where = "n=" + std::to_string(s.n) + " d=" + std::to_string(s.d) +
                                " alpha " + std::to_string(alpha) + " format " +
                                std::string(to_string(f));
      BfsResult r;
      try {
        r = bfs(gpu, g, 0, o);
      } catch (const FormatError& e) {
        ADD_FAILURE() << where << ": " << e.what();  // regular rows: no format refuses
        continue;
      }
      EXPECT_EQ(r.level, want) << where;
      EXPECT_EQ(r.reached, s.n) << where;
      EXPECT_EQ(r.depth, (s.n - 1 + s.d - 1) / s.d + 1) << where;
    }
  }
}

TEST_F(CudaCirculant, PageRankIsUniformInEveryFormat) {
  for (const Shape s : kSmall) expect_uniform_ranks(gpu_, s);
}

TEST_F(CudaCirculant, LargePageRankIsUniformInEveryFormat) {
  for (const Shape s : kLarge) expect_uniform_ranks(gpu_, s);
}

TEST_F(CudaCirculant, BfsLevelsAreCeilVOverD) {
  for (const Shape s : kSmall) expect_levels(gpu_, s);
}

TEST_F(CudaCirculant, LargeBfsLevelsAreCeilVOverD) {
  for (const Shape s : kLarge) expect_levels(gpu_, s);
}

TEST_F(CudaCirculant, LargeScaleCheckPassesOnTheDevice) {
  const test::CommandResult r = test::run_command(
      "'" GRAPHRUN_SCALE_CHECK_EXE "' --vertices 100000 --degree 33 --device cuda --threads 2");
  ASSERT_EQ(r.status, 0) << "stdout:\n" << r.out << "\nstderr:\n" << r.err;
  EXPECT_NE(r.out.find("| pagerank upload |"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("| bfs upload |"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("all checks pass"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("FAIL"), std::string::npos) << r.out;
}

#endif  // GRAPHRUN_HAVE_CUDA

TEST(CudaCirculantAvailability, ScaleCheckRefusesCudaWithoutADevice) {
  if (cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device is present";
  const test::CommandResult r =
      test::run_command("'" GRAPHRUN_SCALE_CHECK_EXE "' --vertices 100 --degree 3 --device cuda");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("no CUDA device"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace graphrun
