// Markov clustering on the GPU against the CPU version: the same clusters
// and the same number of iterations on the shipped graphs (and the shared
// collection where present), on random graphs, and with tight pruning
// parameters that send most columns through the ranked path (the S-th and
// R-th largest by radix selection, ties included: stars); expansions split
// into column blocks; cuda::mcl with a caller's expansion; the GPU path's
// errors.
#include "graphrun/algorithms/cuda/mcl.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "graphrun/algorithms/cluster_compare.hpp"
#include "graphrun/algorithms/mcl.hpp"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/io/load.hpp"
#include "graphrun/kernels/cuda/spgemm.hpp"
#include "support/random_graphs.hpp"
#include "support/shared_graphs.hpp"

namespace graphrun {
namespace {

bool have_gpu() { return cuda_device_count() > 0; }

// GPU and CPU agree on the clusters; the iteration counts may differ by one
// when the chaos of the last iteration sits at the limit (float sums in a
// different order), which the message shows.
void expect_same_as_cpu(const Graph& g, const MclOptions& o, const std::string& what) {
  Context cpu(Device::cpu, 2), gpu(Device::cuda);
  const MclResult c = mcl(cpu, g, o);
  const MclResult d = mcl(gpu, g, o);
  EXPECT_TRUE(same_clustering(c.cluster, d.cluster))
      << what << ": GPU " << d.n_clusters << " clusters, CPU " << c.n_clusters << ", ARI "
      << adjusted_rand_index(c.cluster, d.cluster);
  EXPECT_LE(std::abs(c.iterations - d.iterations), 1)
      << what << ": CPU " << c.iterations << " iterations, GPU " << d.iterations;
  EXPECT_TRUE(d.converged) << what;
}

TEST(MclCuda, ShippedGraphsAsOnTheCpu) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const auto files = test::shipped_graph_files();
  ASSERT_FALSE(files.empty());
  for (const auto& file : files)
    expect_same_as_cpu(io::load_graph(file.string()), {}, file.filename().string());
}

// The shared collection's graphs up to 1 MB of file (the larger ones take
// minutes on the CPU side).
TEST(MclCuda, SharedGraphsAsOnTheCpuLarge) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const auto files = test::graph_files(GRAPHRUN_DATASETS);
  if (files.empty()) GTEST_SKIP() << "shared datasets not present";
  for (const auto& file : files) {
    if (std::filesystem::file_size(file) >= (std::uintmax_t{1} << 20)) continue;
    Graph g;
    try {
      g = io::load_graph(file.string());
    } catch (const InputError&) {
      continue;  // a file of the collection that is not an edge list (as-caida's)
    }
    if (!g.adj().is_pattern() && std::any_of(g.adj().values().begin(), g.adj().values().end(),
                                             [](double w) { return w < 0; }))
      continue;  // MCL takes no negative weights (bcsstk13's stiffness matrix)
    expect_same_as_cpu(g, {}, file.filename().string());
  }
}

TEST(MclCuda, TightPruningAsOnTheCpu) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  for (const auto& file : test::shipped_graph_files()) {
    const Graph g = io::load_graph(file.string());
    for (auto [p, s, r, pct] : {std::tuple{50, 3, 5, 90}, std::tuple{1000, 4, 12, 95},
                                std::tuple{20, 6, 6, 50}, std::tuple{10000, 2, 0, 90}}) {
      MclOptions o;
      o.prune_number = p;
      o.select_number = s;
      o.recover_number = r;
      o.recover_percent = pct;
      expect_same_as_cpu(g, o, file.filename().string() + " -S " + std::to_string(s));
    }
  }
}

TEST(MclCuda, RandomGraphsAsOnTheCpuLarge) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  std::uint64_t seed = 90;
  for (auto shape : {test::GraphShape::power_law, test::GraphShape::erdos_renyi,
                     test::GraphShape::star, test::GraphShape::disconnected}) {
    MclOptions o;
    o.select_number = 5;
    o.recover_number = 9;
    expect_same_as_cpu(test::flow_graph(shape, 3000, 10, false, ++seed), o, test::to_string(shape));
    expect_same_as_cpu(test::flow_graph(shape, 3000, 10, false, ++seed), {},
                       test::to_string(shape));
  }
}

// The progress callback sees what the CPU's sees, and stops the loop.
TEST(MclCuda, CallbackStopsWhereTheCpuStops) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const Graph g = test::flow_graph(test::GraphShape::erdos_renyi, 800, 6, false, 4);
  std::vector<IterationInfo> seen[2];
  MclResult r[2];
  for (int d = 0; d < 2; ++d) {
    Context ctx(d == 0 ? Device::cpu : Device::cuda, 2);
    MclOptions o;
    o.on_iteration = [&](const IterationInfo& it) {
      seen[d].push_back(it);
      return it.iteration < 3;
    };
    r[d] = mcl(ctx, g, o);
  }
  ASSERT_EQ(seen[0].size(), 3u);
  ASSERT_EQ(seen[1].size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(seen[1][i].iteration, i + 1);
    // Sums in another order may tip a pruning tie: close, not equal.
    EXPECT_NEAR(static_cast<double>(seen[1][i].nnz), static_cast<double>(seen[0][i].nnz),
                0.01 * static_cast<double>(seen[0][i].nnz))
        << "iteration " << i + 1;
    EXPECT_NEAR(seen[1][i].residual, seen[0][i].residual, 1e-3 * seen[0][i].residual + 1e-9)
        << "iteration " << i + 1;
  }
  EXPECT_EQ(r[1].iterations, 3);
  EXPECT_FALSE(r[1].converged);
}

#if defined(GRAPHRUN_HAVE_CUDA)
#include <cuda_runtime_api.h>  // cudaStream_t, for a caller's expansion

// The experiments swap the expansion: a caller's SpGEMM gives the same run.
TEST(MclCuda, CallersExpansion) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const Graph g = test::flow_graph(test::GraphShape::power_law, 2000, 8, false, 3);
  Context gpu(Device::cuda);
  int calls = 0;
  const cuda::MclExpansion mine = [&](const DeviceCsr<float>& rows, const DeviceCsr<float>& m,
                                      cudaStream_t s, std::int64_t* products) {
    ++calls;
    cuda::SpgemmStats stats;
    auto e = cuda::spgemm<PlusTimes<double>>(rows, m, &stats, s);
    *products = stats.intermediate_products;
    return e;
  };
  const MclResult a = cuda::mcl(gpu, g, {}, mine);
  const MclResult b = cuda::mcl(gpu, g, {}, cuda::MclExpansion());
  EXPECT_EQ(calls, a.iterations);
  EXPECT_TRUE(same_clustering(a.cluster, b.cluster));
  EXPECT_EQ(a.products, b.products);
}

// Column blocks: the expansion split into blocks of rows of the iterand,
// each pruned and inflated before the next is expanded, gives the run of
// one block bit for bit (a deterministic SpGEMM sums each entry in the
// same order whatever rows share its call), down to one column per block.
struct BlockedRun {
  MclResult result;
  std::vector<std::int64_t> nnz;  // the iterand's entries after each iteration
  std::vector<double> chaos;
};

BlockedRun run_blocked(const Graph& g, std::int64_t max_block_entries,
                       const MclOptions& base = {}) {
  Context gpu(Device::cuda);
  gpu.set_deterministic(true);
  BlockedRun run;
  MclOptions o = base;
  o.on_iteration = [&](const IterationInfo& info) {
    run.nnz.push_back(info.nnz);
    run.chaos.push_back(info.residual);
    return true;
  };
  cuda::MclBlocking blocking;
  blocking.max_block_entries = max_block_entries;
  run.result = cuda::mcl(gpu, g, o, cuda::MclExpansion(), blocking);
  return run;
}

void expect_same_run(const BlockedRun& got, const BlockedRun& want, const std::string& what) {
  EXPECT_EQ(got.result.cluster, want.result.cluster) << what;
  EXPECT_EQ(got.result.iterations, want.result.iterations) << what;
  EXPECT_EQ(got.result.products, want.result.products) << what;
  EXPECT_EQ(got.nnz, want.nnz) << what;
  EXPECT_EQ(got.chaos, want.chaos) << what;
}

struct BlockCase {
  test::GraphShape shape;
  vertex_t n;
  double degree;
  std::int64_t entries[2];  // per block, below the bound of a whole expansion
};

void expect_blocks_change_nothing(const BlockCase& c) {
  const Graph g = test::flow_graph(c.shape, c.n, c.degree, false, 11);
  const BlockedRun whole = run_blocked(g, 0);
  EXPECT_EQ(whole.result.max_blocks, 1);
  ASSERT_TRUE(whole.result.converged);
  for (const std::int64_t entries : c.entries) {
    const BlockedRun blocked = run_blocked(g, entries);
    const std::string what = test::to_string(c.shape) + " n=" + std::to_string(c.n) +
                             " entries=" + std::to_string(entries);
    EXPECT_GT(blocked.result.max_blocks, 1) << what;
    expect_same_run(blocked, whole, what);
  }
}

// Small enough for the sanitizers.
TEST(MclCuda, ColumnBlocksGiveTheSameRunPowerLaw) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  expect_blocks_change_nothing({test::GraphShape::power_law, 300, 6, {5000, 800}});
}

TEST(MclCuda, ColumnBlocksGiveTheSameRunChain) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  expect_blocks_change_nothing({test::GraphShape::chain, 60, 2, {200, 20}});
}

TEST(MclCuda, ColumnBlocksGiveTheSameRunLarge) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  for (const BlockCase& c : {BlockCase{test::GraphShape::power_law, 3000, 8, {50000, 4000}},
                             BlockCase{test::GraphShape::erdos_renyi, 2000, 6, {50000, 4000}},
                             BlockCase{test::GraphShape::disconnected, 2000, 6, {20000, 3000}},
                             BlockCase{test::GraphShape::chain, 500, 2, {1000, 100}}})
    expect_blocks_change_nothing(c);
}

TEST(MclCuda, OneColumnPerBlockAndTightPruning) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const Graph g = test::flow_graph(test::GraphShape::power_law, 40, 6, false, 5);
  MclOptions o;  // selection and recovery on most columns: the sorted path
  o.select_number = 3;
  o.recover_number = 4;
  const BlockedRun whole = run_blocked(g, 0, o);
  const BlockedRun single = run_blocked(g, 1, o);  // every block one row
  EXPECT_EQ(single.result.max_blocks, 40);
  expect_same_run(single, whole, "one column per block");
}

TEST(MclCuda, CallersExpansionInBlocks) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const Graph g = test::flow_graph(test::GraphShape::power_law, 300, 6, false, 3);
  Context gpu(Device::cuda);
  int calls = 0;
  const cuda::MclExpansion mine = [&](const DeviceCsr<float>& rows, const DeviceCsr<float>& m,
                                      cudaStream_t s, std::int64_t* products) {
    ++calls;
    EXPECT_EQ(rows.n_cols(), m.n_rows());
    cuda::SpgemmStats stats;
    auto e = cuda::spgemm<PlusTimes<double>>(rows, m, &stats, s);
    *products = stats.intermediate_products;
    return e;
  };
  cuda::MclBlocking blocking;
  blocking.max_block_entries = 3000;
  const MclResult a = cuda::mcl(gpu, g, {}, mine, blocking);
  const MclResult b = cuda::mcl(gpu, g, {}, cuda::MclExpansion());
  EXPECT_GT(a.max_blocks, 1);
  EXPECT_GT(calls, a.iterations);
  EXPECT_TRUE(same_clustering(a.cluster, b.cluster));
  blocking.max_block_entries = -1;
  EXPECT_THROW(cuda::mcl(gpu, g, {}, cuda::MclExpansion(), blocking), ArgumentError);
}

TEST(MclCuda, CpuContextIsRefusedByTheGpuEntryPoint) {
  const Graph g = test::flow_graph(test::GraphShape::chain, 10, 2, false, 1);
  Context cpu(Device::cpu, 1);
  EXPECT_THROW(cuda::mcl(cpu, g, {}, cuda::MclExpansion()), ArgumentError);
}
#endif  // GRAPHRUN_HAVE_CUDA

}  // namespace
}  // namespace graphrun
