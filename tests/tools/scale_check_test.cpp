// graphrun-scale-check on the CPU at small sizes: every phase PASS and exit
// 0; exit 2 with a clear message for bad arguments and for a graph that
// cannot fit in the host's memory (named in bytes, refused before anything
// is allocated).
#include <gtest/gtest.h>

#include <string>

#include "support/run_command.hpp"

namespace graphrun {
namespace {

test::CommandResult scale_check(const std::string& args) {
  return test::run_command("'" GRAPHRUN_SCALE_CHECK_EXE "' " + args);
}

TEST(ScaleCheck, SmallCirculantPassesEveryPhase) {
  for (const char* args :
       {"--vertices 1000 --degree 7 --threads 2",
        "--vertices 50 --degree 49 --device cpu --threads 1", "--vertices 2 --degree 1"}) {
    const test::CommandResult r = scale_check(args);
    ASSERT_EQ(r.status, 0) << args << "\n" << test::describe(r);
    for (const char* phase :
         {"| generate |", "| transpose (host) |", "| pagerank |", "| bfs |", "| total |"})
      EXPECT_NE(r.out.find(phase), std::string::npos) << args << ": no row " << phase;
    EXPECT_EQ(r.out.find("FAIL"), std::string::npos) << test::describe(r);
    EXPECT_NE(r.out.find("all checks pass"), std::string::npos) << test::describe(r);
  }
}

TEST(ScaleCheck, ReportsEdgesAndIterations) {
  const test::CommandResult r = scale_check("--vertices 300 --degree 4 --threads 2");
  ASSERT_EQ(r.status, 0) << test::describe(r);
  EXPECT_NE(r.out.find("1200 edges"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("iterations"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("depth 76 (want 76)"), std::string::npos) << r.out;  // ceil(299/4) + 1
}

TEST(ScaleCheck, BadArgumentsExitWithTwo) {
  for (const char* args :
       {"", "--vertices 100", "--degree 3", "--vertices 100 --degree 0",
        "--vertices 100 --degree 100", "--vertices 10x --degree 3", "--vertices -5 --degree 3",
        "--vertices 100 --degree 3 --device tpu", "--vertices 100 --degree 3 --threads",
        "--vertices 100 --degree 3 --tol 0", "--vertices 100 --degree 3 --bogus 1",
        "--vertices 4294967296 --degree 3"}) {
    const test::CommandResult r = scale_check(args);
    EXPECT_EQ(r.status, 2) << "args: " << args << "\n" << test::describe(r);
    EXPECT_NE(r.err.find("graphrun-scale-check: error:"), std::string::npos) << args;
    EXPECT_EQ(r.out.find("| generate |"), std::string::npos) << args;  // nothing ran
  }
}

TEST(ScaleCheck, RefusesAGraphLargerThanHostMemory) {
  // 2e9 vertices of degree 1000: 8 TB of column indices, refused up front.
  const test::CommandResult r = scale_check("--vertices 2000000000 --degree 1000");
  EXPECT_EQ(r.status, 2) << test::describe(r);
  EXPECT_NE(r.err.find("bytes"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("host memory"), std::string::npos) << r.err;
}

TEST(ScaleCheck, HelpExitsWithZero) {
  const test::CommandResult r = scale_check("--help");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("usage: graphrun-scale-check"), std::string::npos);
}

}  // namespace
}  // namespace graphrun
