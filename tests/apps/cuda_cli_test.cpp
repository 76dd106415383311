// The command line's GPU path end to end: `graphrun pagerank|bfs --device
// cuda` gives the CPU's results (ranks within 1e-6 in L1, identical BFS
// levels) and names the device and SpMV format in its summary; without a
// GPU, or in a build without the CUDA backend, it exits with status 2 and a
// clear message and writes nothing. The refusals run in every build; the
// comparisons skip where no GPU is present.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/spmv_format_table.hpp"

namespace fs = std::filesystem;

namespace {

using graphrun::test::describe;
using graphrun::test::slurp;
using Result = graphrun::test::CliResult;
using graphrun::spmv_format_names;
using graphrun::spmv_format_table;
using graphrun::SpmvFormat;
using graphrun::SpmvFormatRow;

// "ID<TAB>VALUE..." lines as id -> the rest of the line.
std::map<std::string, std::string> by_id(const std::string& text) {
  std::map<std::string, std::string> m;
  std::istringstream s(text);
  for (std::string line; std::getline(s, line);) {
    const auto tab = line.find('\t');
    if (tab != std::string::npos) m[line.substr(0, tab)] = line.substr(tab + 1);
  }
  return m;
}

const std::string karate = GRAPHRUN_SOURCE_DIR "/datasets/karate/karate.txt.gz";
const std::string celegans = GRAPHRUN_SOURCE_DIR "/datasets/celegansneural/celegansneural.txt.gz";

// The inputs of the comparisons: an undirected and a directed weighted graph.
const std::vector<std::string> inputs = {"'" + karate + "' --undirected", "'" + celegans + "'"};

class CudaCliTest : public graphrun::test::CliFixture {
 protected:
  void SetUp() override {
    CliFixture::SetUp();
    ASSERT_TRUE(fs::exists(karate)) << karate << " is shipped with the repository";
  }
  bool work_is_empty() const { return fs::is_empty(work_); }
};

bool have_gpu() { return graphrun::cuda_device_count() > 0; }

// ------------------------------------------------------------ every build

TEST_F(CudaCliTest, WithoutAGpuCudaIsRefusedWithStatus2) {
  if (have_gpu()) GTEST_SKIP() << "a CUDA device is present";
  for (const char* cmd : {"pagerank", "bfs"}) {
    const std::string extra = std::string(cmd) == "bfs" ? " --source 1" : "";
    const Result r =
        run(std::string(cmd) + " '" + karate + "' --device cuda --output out.tsv" + extra);
    EXPECT_EQ(r.status, 2) << describe(r);
    EXPECT_EQ(r.err.rfind("graphrun: error: ", 0), 0u) << describe(r);
    // Either "no CUDA device found" or "this build of graphrun has no CUDA backend".
    EXPECT_NE(r.err.find("CUDA"), std::string::npos) << describe(r);
    EXPECT_NE(r.err.find("--device cpu"), std::string::npos) << describe(r);
    EXPECT_TRUE(r.out.empty()) << describe(r);
    EXPECT_TRUE(work_is_empty()) << "nothing is written";
  }
}

TEST_F(CudaCliTest, CommandsWithoutAGpuPathRefuseCuda) {
  const Result r = run("info '" + karate + "' --device cuda");
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_NE(r.err.find("info runs on the CPU only"), std::string::npos) << describe(r);
}

TEST_F(CudaCliTest, UnknownFormatIsAUsageError) {
  const Result r = run("pagerank '" + karate + "' --format diagonal");
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_NE(r.err.find("diagonal"), std::string::npos) << describe(r);
  EXPECT_NE(r.err.find("merge-path"), std::string::npos) << "lists the formats: " << describe(r);
}

TEST_F(CudaCliTest, GpuFormatOnTheCpuIsAUsageError) {
  for (const char* cmd : {"pagerank", "bfs --source 1"}) {
    const Result r = run(std::string(cmd) + " '" + karate + "' --device cpu --format hyb");
    EXPECT_EQ(r.status, 2) << describe(r);
    EXPECT_NE(r.err.find("--format hyb"), std::string::npos) << describe(r);
  }
}

TEST_F(CudaCliTest, HelpExplainsFormats) {
  for (const char* cmd : {"pagerank", "bfs"}) {
    const Result r = run(std::string(cmd) + " --help");
    EXPECT_EQ(r.status, 0) << describe(r);
    EXPECT_NE(r.out.find("--format"), std::string::npos) << describe(r);
    EXPECT_NE(r.out.find("row statistics"), std::string::npos) << describe(r);
    // Every format of the table: named in the option's help, and its line
    // in the SPMV FORMATS section.
    EXPECT_NE(r.out.find(spmv_format_names()), std::string::npos) << describe(r);
    EXPECT_NE(r.out.find("SPMV FORMATS"), std::string::npos) << describe(r);
    std::size_t width = 0;  // the names' column
    for (const SpmvFormatRow& row : spmv_format_table()) width = std::max(width, row.name.size());
    for (const SpmvFormatRow& row : spmv_format_table()) {
      std::string line = "  ";
      line += row.name;
      line.append(width + 2 - row.name.size(), ' ');
      line += row.help;
      EXPECT_NE(r.out.find(line), std::string::npos) << cmd << ": " << line;
    }
  }
}

// Every format of the table is a --format the command line takes (the run
// then stops at the CPU's refusal of a GPU format, after parsing it).
TEST_F(CudaCliTest, EveryTableFormatParses) {
  for (const SpmvFormatRow& row : spmv_format_table()) {
    if (row.format == SpmvFormat::automatic) continue;
    const std::string name(row.name);
    const Result r = run("pagerank '" + karate + "' --device cpu --format " + name);
    EXPECT_EQ(r.status, 2) << describe(r);
    EXPECT_NE(r.err.find("--format " + name + " chooses a GPU kernel"), std::string::npos)
        << describe(r);
  }
}

TEST_F(CudaCliTest, CpuSummaryNamesTheDevice) {
  const Result r = run("pagerank '" + karate + "' --undirected --threads 2 --top 0");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_NE(r.err.find("cpu, 2 threads"), std::string::npos) << describe(r);
}

// ------------------------------------------------------------ with a GPU

double rank_l1(const std::map<std::string, std::string>& a,
               const std::map<std::string, std::string>& b) {
  double s = 0;
  for (const auto& [id, rank] : a) {
    const auto it = b.find(id);
    if (it == b.end()) return 1e300;
    s += std::abs(std::strtod(rank.c_str(), nullptr) - std::strtod(it->second.c_str(), nullptr));
  }
  return s;
}

TEST_F(CudaCliTest, PageRankOnTheGpuMatchesTheCpu) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  for (const std::string& input : inputs) {
    const Result cpu = run("pagerank " + input + " --device cpu --output cpu.tsv --top 0");
    ASSERT_EQ(cpu.status, 0) << describe(cpu);
    const auto want = by_id(slurp(work_ / "cpu.tsv"));
    ASSERT_FALSE(want.empty());
    for (const SpmvFormatRow& row : spmv_format_table()) {
      // Every format of the table but ELL and SELL, which may refuse these inputs.
      if (row.format == SpmvFormat::ell || row.format == SpmvFormat::sell) continue;
      const std::string format(row.name);
      const Result gpu = run("pagerank " + input + " --device cuda --output gpu.tsv --top 0 " +
                             "--format " + format);
      ASSERT_EQ(gpu.status, 0) << describe(gpu);
      const auto got = by_id(slurp(work_ / "gpu.tsv"));
      EXPECT_EQ(got.size(), want.size()) << format;
      EXPECT_LE(rank_l1(got, want), 1e-6) << format;
      EXPECT_NE(gpu.err.find("cuda, SpMV "), std::string::npos) << describe(gpu);
      if (row.format != SpmvFormat::automatic) {
        std::string used = "SpMV ";
        used += format;
        EXPECT_NE(gpu.err.find(used), std::string::npos) << describe(gpu);
      }
    }
  }
}

// --method chebyshev, and auto on an undirected graph, run on the GPU: the
// CPU's Chebyshev ranks (each within d / (1 - d) tol of the fixed point), the
// summary naming the method. gauss-seidel stays the CPU's.
TEST_F(CudaCliTest, PageRankChebyshevOnTheGpu) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const std::string input = "pagerank '" + karate + "' --undirected --tol 1e-10 --top 0";
  const Result cpu = run(input + " --device cpu --method chebyshev --output cpu.tsv");
  ASSERT_EQ(cpu.status, 0) << describe(cpu);
  const auto want = by_id(slurp(work_ / "cpu.tsv"));
  for (const char* method : {"chebyshev", "auto"}) {
    const Result gpu = run(input + " --device cuda --output gpu.tsv --method " + method);
    ASSERT_EQ(gpu.status, 0) << describe(gpu);
    EXPECT_NE(gpu.err.find(", chebyshev), cuda, SpMV "), std::string::npos) << describe(gpu);
    const auto got = by_id(slurp(work_ / "gpu.tsv"));
    EXPECT_EQ(got.size(), want.size()) << method;
    EXPECT_LE(rank_l1(got, want), 1e-8) << method;
  }
  const Result gs = run(input + " --device cuda --method gauss-seidel");
  EXPECT_EQ(gs.status, 2) << describe(gs);
  EXPECT_NE(gs.err.find("runs on the CPU"), std::string::npos) << describe(gs);
}

// A .grb with a stored ordering: the GPU renumbers by it as the CPU does
// (uploaded, not computed), the ranks by input id the CPU's.
TEST_F(CudaCliTest, PageRankOnTheGpuUsesAStoredOrdering) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const Result c = run("convert '" + karate + "' k.grb --undirected --reorder rabbit -q");
  ASSERT_EQ(c.status, 0) << describe(c);
  const Result cpu = run("pagerank k.grb --tol 1e-10 --top 0 --device cpu --output cpu.tsv");
  ASSERT_EQ(cpu.status, 0) << describe(cpu);
  const Result gpu = run("pagerank k.grb --tol 1e-10 --top 0 --device cuda --output gpu.tsv");
  ASSERT_EQ(gpu.status, 0) << describe(gpu);
  EXPECT_NE(gpu.err.find("ordering rabbit (stored"), std::string::npos) << describe(gpu);
  const auto want = by_id(slurp(work_ / "cpu.tsv")), got = by_id(slurp(work_ / "gpu.tsv"));
  EXPECT_EQ(got.size(), want.size());
  EXPECT_LE(rank_l1(got, want), 1e-9);
}

TEST_F(CudaCliTest, BfsOnTheGpuGivesTheCpuLevels) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  for (const std::string& input : inputs) {
    const Result cpu = run("bfs " + input + " --source 1 --device cpu");
    ASSERT_EQ(cpu.status, 0) << describe(cpu);
    for (const char* format : {"auto", "csr-warp", "merge-path"}) {
      const Result gpu = run("bfs " + input + " --source 1 --device cuda --format " + format);
      ASSERT_EQ(gpu.status, 0) << describe(gpu);
      EXPECT_EQ(gpu.out, cpu.out) << format;  // levels are exact
      EXPECT_NE(gpu.err.find("cuda"), std::string::npos) << describe(gpu);
    }
    // With parents: the same levels column, a parent for every reached vertex.
    const Result gpu = run("bfs " + input + " --source 1 --device cuda --parents");
    ASSERT_EQ(gpu.status, 0) << describe(gpu);
    const auto levels = by_id(cpu.out), with_parents = by_id(gpu.out);
    ASSERT_EQ(levels.size(), with_parents.size());
    for (const auto& [id, rest] : with_parents) {
      const std::string level = rest.substr(0, rest.find('\t'));
      EXPECT_EQ(level, levels.at(id)) << id;
      EXPECT_EQ(level == "-1", rest.substr(rest.find('\t') + 1) == "-1") << id;
    }
  }
}

// From a .grb cache whose stored entries are under --gpu-min-entries, no CUDA
// context is made ahead (cmd_louvain.cpp): by default these levels all run on
// the CPU; with the rule between the directed cache's entries (2,345) and its
// first level's (the graph made undirected: 4,296), that level runs on the
// GPU, the context made by its first call. The CPU's communities either way.
TEST_F(CudaCliTest, LouvainFromACacheUnderTheRuleMakesTheContextOnDemand) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const Result convert = run("convert '" + celegans + "' c.grb --quiet");
  ASSERT_EQ(convert.status, 0) << describe(convert);
  const Result cpu = run("louvain c.grb --device cpu");
  ASSERT_EQ(cpu.status, 0) << describe(cpu);
  for (const char* rule : {"", " --gpu-min-entries 3000"}) {
    const Result gpu = run(std::string("louvain c.grb --device cuda --threads 2") + rule);
    ASSERT_EQ(gpu.status, 0) << describe(gpu);
    EXPECT_EQ(gpu.out, cpu.out) << rule;
  }
}

// Louvain on the GPU, every level there (--gpu-min-entries 0) or only the
// large ones (none here: the default puts these graphs on the CPU), gives the
// CPU's communities line for line on these integer-weighted graphs.
TEST_F(CudaCliTest, LouvainOnTheGpuGivesTheCpuCommunities) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  for (const std::string& input : inputs) {
    const Result cpu = run("louvain " + input + " --device cpu");
    ASSERT_EQ(cpu.status, 0) << describe(cpu);
    for (const char* min : {"0", "1000000"}) {
      const Result gpu = run("louvain " + input + " --device cuda --gpu-min-entries " + min);
      ASSERT_EQ(gpu.status, 0) << describe(gpu);
      EXPECT_EQ(gpu.out, cpu.out) << min;
      EXPECT_NE(gpu.err.find("levels of >= " + std::string(min) + " entries"), std::string::npos)
          << describe(gpu);
    }
  }
}

TEST_F(CudaCliTest, LouvainNegativeGpuMinEntriesIsAUsageError) {
  const Result r = run("louvain '" + karate + "' --gpu-min-entries -1 -o '" +
                       (work_ / "out.tsv").string() + "'");
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_NE(r.err.find("--gpu-min-entries"), std::string::npos) << describe(r);
  EXPECT_TRUE(work_is_empty());
}

// bench spgemm's --tune: the overrides run (the table row is there, nnz(C)
// agrees with cuSPARSE), and a bad key or value is a usage error.
TEST_F(CudaCliTest, BenchSpgemmTuneOverridesRunAndBadOnesAreUsageErrors) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const Result ok = run("bench spgemm gen:rmat:9 '" + karate +
                        "' --device cuda --reps 1 --tune dense-words=8 --tune "
                        "dense-shared-products=4 --tune warp-max-ip=64");
  ASSERT_EQ(ok.status, 0) << describe(ok);
  EXPECT_NE(ok.out.find("| gen:rmat:9 |"), std::string::npos) << ok.out;
  EXPECT_EQ(ok.out.find("| NO"), std::string::npos) << ok.out;
  for (const char* bad :
       {"nope=1", "dense-words=0", "dense-words=x", "warp-max-ip", "direct-max-bound=-1",
        "unit-sums=1", "stage-bitmap=2", "balance-entries=2", "batch-b-loads=2", "spa=2",
        "lane-analysis=2", "copy-by-slots=-1"}) {
    const Result r =
        run(std::string("bench spgemm gen:rmat:7 --device cuda --reps 1 --tune ") + bad);
    EXPECT_EQ(r.status, 2) << bad << ": " << describe(r);
    EXPECT_NE(r.err.find("--tune"), std::string::npos) << describe(r);
  }
  // The sorted and direct rows' bounds, and the contraction experiment's
  // --tune (sorted and direct rows off: both hash phases): the products agree
  // with cuSPARSE either way. A --tune takes one KEY=N, so inputs may follow.
  const Result sorted =
      run("bench spgemm --tune sort-min-ip=16 gen:rmat:10 --device cuda --reps 1 "
          "--tune sort-max-ip=512 --tune direct-max-bound=300 --tune direct-cols-per-bound=8 "
          "--tune stage-bitmap=1");
  ASSERT_EQ(sorted.status, 0) << describe(sorted);
  EXPECT_NE(sorted.out.find("| gen:rmat:10 |"), std::string::npos) << sorted.out;
  EXPECT_EQ(sorted.out.find("| NO"), std::string::npos) << sorted.out;
  const Result contraction =
      run("experiment contraction --tune sort-max-ip=1 gen:rmat:10 --device cuda --reps 1 "
          "--tune direct-max-bound=0");
  ASSERT_EQ(contraction.status, 0) << describe(contraction);
  EXPECT_NE(contraction.out.find("| gen:rmat:10 |"), std::string::npos) << contraction.out;
  EXPECT_EQ(contraction.out.find("| NO"), std::string::npos) << contraction.out;
  const Result bad = run("experiment contraction gen:rmat:7 --device cuda --reps 1 --tune x=1");
  EXPECT_EQ(bad.status, 2) << describe(bad);
  EXPECT_NE(bad.err.find("--tune"), std::string::npos) << describe(bad);
}

// experiment mcl's --tune: graphrun's expansion with every row sorted, then
// with none, then with double sums (no fixed point), two phases, entries
// taken in turn, B's loads one by one, and no SPA rows, finds the clusters
// the cuSPARSE expansion finds; a bad key is the command's usage error, not
// a graph's skipped row.
TEST_F(CudaCliTest, ExperimentMclTuneRunsBothWaysAndBadOnesAreUsageErrors) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  for (const char* tune : {"--tune sort-min-ip=1 --tune sort-cols-per-product=1",
                           "--tune sort-max-ip=1", "--tune unit-sums=0", "--tune stage-bitmap=0",
                           "--tune balance-entries=0", "--tune batch-b-loads=0", "--tune spa=0"}) {
    const Result r = run(std::string("experiment mcl ") + tune + " gen:lfr:3000:0.2:12:40 '" +
                         karate + "' --device cuda --reps 1");
    ASSERT_EQ(r.status, 0) << tune << ": " << describe(r);
    for (const char* graph : {"| gen:lfr:3000:0.2:12:40 |", "| karate"}) {
      const auto at = r.out.find(graph);
      ASSERT_NE(at, std::string::npos) << tune << ": " << r.out;
      const std::string line = r.out.substr(at, r.out.find('\n', at) - at);
      EXPECT_NE(line.find("| yes |"), std::string::npos) << tune << ": " << line;
    }
  }
  for (const char* tune : {"x=1", "unit-sums=2", "stage-bitmap=-1"}) {
    const Result bad = run("experiment mcl '" + karate + "' --device cuda --reps 1 --tune " + tune);
    EXPECT_EQ(bad.status, 2) << describe(bad);
    EXPECT_NE(bad.err.find("--tune"), std::string::npos) << describe(bad);
  }
}

}  // namespace
