// GRAPHRUN_TRACE=1: the command line prints the seconds since the process
// started at each phase, in order, and nothing of it without the variable
// (nor of the routines' step lines, which the same variable turns on).
#include <sstream>
#include <string>
#include <vector>

#include "cli_support.hpp"

namespace graphrun::test {
namespace {

using PhaseTrace = CliFixture;

struct Mark {
  double seconds;
  std::string what;
};

std::vector<Mark> marks(const std::string& stderr_text) {
  std::vector<Mark> out;
  std::istringstream in(stderr_text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("trace: ", 0) != 0) continue;
    std::istringstream fields(line.substr(7));
    Mark m;
    // A phase mark starts with its seconds; the routines' own step lines
    // ("trace: edge list read 0.2 ms") with a name.
    if (!(fields >> m.seconds)) continue;
    std::getline(fields >> std::ws, m.what);
    out.push_back(m);
  }
  return out;
}

TEST_F(PhaseTrace, PhasesInOrderFromMainToTheExitHandlers) {
  write("g.txt", "1 2\n2 3\n3 1\n3 4\n");
  const CliResult r = run("pagerank g.txt -q -k 0 -o ranks.tsv");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find("trace:"), std::string::npos) << r.err;

  const CliResult t = run_command("cd '" + work_.string() +
                                      "' && GRAPHRUN_TRACE=1 '" GRAPHRUN_EXE
                                      "' pagerank g.txt -q -k 0 -o ranks.tsv",
                                  root_ / "stdout", root_ / "stderr");
  ASSERT_EQ(t.status, 0) << t.err;
  const std::vector<Mark> m = marks(t.err);
  const std::vector<std::string> expected = {"main",         "arguments parsed",  "context made",
                                             "input loaded", "pagerank done",     "output written",
                                             "main returns", "exit handlers done"};
  ASSERT_EQ(m.size(), expected.size()) << t.err;
  for (std::size_t i = 0; i < m.size(); ++i) {
    EXPECT_EQ(m[i].what, expected[i]);
    EXPECT_GE(m[i].seconds, 0.0) << m[i].what;
    if (i > 0) {
      EXPECT_GE(m[i].seconds, m[i - 1].seconds) << m[i].what;
    }
  }
  EXPECT_LT(m.back().seconds, 60.0);
}

}  // namespace
}  // namespace graphrun::test
