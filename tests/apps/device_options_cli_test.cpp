// --max-device-memory and --deterministic on the command line: sizes with
// units are accepted and bad ones refused with status 2 in every build; on a
// GPU, a cap below what the work needs ends with status 2 and a message
// naming the bytes, nothing written, and --deterministic runs of an SpGEMM
// and a contraction write the same bytes twice.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "cli_support.hpp"
#include "graphrun/engine/device_array.hpp"

namespace fs = std::filesystem;

namespace {

using graphrun::test::describe;
using graphrun::test::slurp;
using Result = graphrun::test::CliResult;

const std::string karate = GRAPHRUN_SOURCE_DIR "/datasets/karate/karate.txt.gz";
const std::string celegans = GRAPHRUN_SOURCE_DIR "/datasets/celegansneural/celegansneural.txt.gz";

class DeviceOptionsCli : public graphrun::test::CliFixture {};

bool have_gpu() { return graphrun::cuda_device_count() > 0; }

// spgemm --estimate takes --device cuda without a GPU: the sizes parse here.
TEST_F(DeviceOptionsCli, SizesWithUnitsAreAccepted) {
  for (const char* size : {"1048576", "512M", "2G", "1.5GiB", "64kb", "1T"}) {
    const Result r =
        run("spgemm '" + karate + "' --estimate --device cuda -q --max-device-memory " + size);
    EXPECT_EQ(r.status, 0) << size << ": " << describe(r);
  }
}

TEST_F(DeviceOptionsCli, BadSizesExit2) {
  const struct {
    const char* size;
    const char* says;
  } bad[] = {{"12Q", "unknown unit"}, {"0", "out of range"},    {"G", "not a size"},
             {"-5M", "not a size"},   {"1.2.3M", "not a size"}, {"99999999T", "out of range"}};
  for (const auto& c : bad) {
    const Result r = run("pagerank '" + karate + "' -q --max-device-memory " + c.size);
    EXPECT_EQ(r.status, 2) << c.size << ": " << describe(r);
    EXPECT_NE(r.err.find("--max-device-memory"), std::string::npos) << describe(r);
    EXPECT_NE(r.err.find(c.says), std::string::npos) << c.size << ": " << describe(r);
  }
}

// A cap on the GPU's memory means nothing on the CPU: said, not ignored.
TEST_F(DeviceOptionsCli, DeviceMemoryCapWithTheCpuExits2) {
  for (const std::string& cmd :
       {"pagerank '" + karate + "'", "bfs '" + karate + "' --source 1", "mcl '" + karate + "'",
        "spgemm '" + karate + "'", "spgemm '" + karate + "' --estimate",
        "contract '" + karate + "' --group-size 4"}) {
    const Result r = run(cmd + " -q -o out --max-device-memory 8G");
    EXPECT_EQ(r.status, 2) << cmd << ": " << describe(r);
    EXPECT_NE(r.err.find("applies with --device cuda only"), std::string::npos) << describe(r);
    EXPECT_TRUE(fs::is_empty(work_)) << cmd << ": nothing is written";
  }
}

TEST_F(DeviceOptionsCli, HelpExplainsBoth) {
  const Result r = run("spgemm --help");
  EXPECT_NE(r.out.find("--max-device-memory"), std::string::npos) << describe(r);
  EXPECT_NE(r.out.find("--deterministic"), std::string::npos) << describe(r);
}

TEST_F(DeviceOptionsCli, CapBelowTheWorkExits2NamingBytes) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  for (const std::string& cmd :
       {"spgemm '" + celegans + "' -o C.mtx", "pagerank '" + celegans + "' -o r.tsv",
        "contract '" + celegans + "' --group-size 4 -o q.tsv"}) {
    const Result r = run(cmd + " --device cuda --max-device-memory 2K");
    EXPECT_EQ(r.status, 2) << cmd << ": " << describe(r);
    EXPECT_NE(r.err.find("bytes"), std::string::npos) << describe(r);
    EXPECT_NE(r.err.find("--max-device-memory"), std::string::npos) << describe(r);
    EXPECT_TRUE(fs::is_empty(work_)) << cmd << ": nothing is written";
  }
}

TEST_F(DeviceOptionsCli, DeterministicRunsWriteTheSameBytes) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  for (const std::string& cmd :
       {"spgemm '" + celegans + "' -q -o ", "contract '" + celegans + "' --group-size 3 -q -o "}) {
    const std::string ext = cmd.rfind("spgemm", 0) == 0 ? ".mtx" : ".tsv";
    ASSERT_EQ(run(cmd + "one" + ext + " --device cuda --deterministic").status, 0) << cmd;
    ASSERT_EQ(run(cmd + "two" + ext + " --device cuda --deterministic").status, 0) << cmd;
    EXPECT_EQ(slurp(work_ / ("one" + ext)), slurp(work_ / ("two" + ext))) << cmd;
  }
}

}  // namespace
