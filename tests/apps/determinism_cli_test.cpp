// Determinism on the CPU: every algorithm of the command line, run twice on
// the same input with the same thread count, writes the same bytes. (The
// reductions go through fixed parts, SpGEMM rows are each computed by one
// thread in a fixed order, MCL's columns too.)
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_support.hpp"

namespace {

using graphrun::test::describe;
using graphrun::test::slurp;

class Determinism : public graphrun::test::CliFixture {};

TEST_F(Determinism, EveryAlgorithmTwiceGivesTheSameBytes) {
  const std::string lesmis = GRAPHRUN_SOURCE_DIR "/datasets/lesmis/lesmis.txt.gz";
  const std::string neural = GRAPHRUN_SOURCE_DIR "/datasets/celegansneural/celegansneural.txt.gz";
  const std::vector<std::string> commands = {
      "pagerank '" + neural + "' --tol 1e-12",
      "pagerank '" + lesmis + "' --undirected",
      "bfs '" + neural + "' --source 1 --parents",
      "spgemm '" + neural + "'",
      "spgemm '" + lesmis + "' --transpose-b",
      "contract '" + neural + "' --group-size 7 --keep-loops",
      "mcl '" + neural + "' -I 1.4",
      "mcl '" + lesmis + "' -I 3",
  };
  for (const char* threads : {"1", "2"})
    for (const std::string& cmd : commands) {
      const std::string args = cmd + " --threads " + std::string(threads) + " -q -o ";
      const auto first = run(args + "first.out");
      ASSERT_EQ(first.status, 0) << cmd << "\n" << describe(first);
      const auto second = run(args + "second.out");
      ASSERT_EQ(second.status, 0) << cmd << "\n" << describe(second);
      const std::string a = slurp(work_ / "first.out"), b = slurp(work_ / "second.out");
      EXPECT_FALSE(a.empty()) << cmd;
      EXPECT_EQ(a, b) << cmd << " --threads " << threads << " gave different bytes";
    }
}

}  // namespace
