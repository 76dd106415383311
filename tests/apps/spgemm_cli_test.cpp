// End-to-end tests of `graphrun spgemm`: the product of small known matrices
// read back from the Matrix Market it writes, B defaulting to A,
// --transpose-b, edge-list input, and errors (shape mismatch, malformed file)
// that exit with status 2, name the problem and leave no output file behind.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "spgemm_matrices.hpp"

namespace fs = std::filesystem;

namespace {

using graphrun::test::describe;
using graphrun::test::slurp;
using Result = graphrun::test::CliResult;

// A (2x3) and B (3x2) with A*B = [4 10; 18 21] (spgemm_matrices.hpp).
constexpr const char* matrix_a = graphrun::test::spgemm_matrix_a;
constexpr const char* matrix_b = graphrun::test::spgemm_matrix_b;

// The data lines of a Matrix Market file (header and comments dropped).
std::vector<std::string> entries(const std::string& mtx) {
  std::vector<std::string> lines;
  std::istringstream s(mtx);
  for (std::string line; std::getline(s, line);)
    if (!line.empty() && line[0] != '%') lines.push_back(line);
  return lines;
}

class SpgemmCliTest : public graphrun::test::CliFixture {
 protected:
  void SetUp() override {
    CliFixture::SetUp();
    write("A.mtx", matrix_a);
    write("B.mtx", matrix_b);
  }
};

TEST_F(SpgemmCliTest, ProductOfKnownMatrices) {
  const Result r = run("spgemm A.mtx B.mtx --output C.mtx --threads 2");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(r.out.empty()) << describe(r);
  const std::string c = slurp(work_ / "C.mtx");
  EXPECT_EQ(c.rfind("%%MatrixMarket matrix coordinate real general\n", 0), 0u) << c;
  EXPECT_EQ(entries(c), (std::vector<std::string>{"2 2 4", "1 1 4", "1 2 10", "2 1 18", "2 2 21"}))
      << c;
  // The summary names the shapes and the intermediate products (4).
  EXPECT_NE(r.err.find("2x3"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("4 intermediate products"), std::string::npos) << r.err;
  EXPECT_EQ(work_files(), (std::set<std::string>{"A.mtx", "B.mtx", "C.mtx"}));
}

TEST_F(SpgemmCliTest, StdoutWhenNoOutputAndQuiet) {
  const Result r = run("spgemm A.mtx B.mtx -q");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(entries(r.out),
            (std::vector<std::string>{"2 2 4", "1 1 4", "1 2 10", "2 1 18", "2 2 21"}));
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST_F(SpgemmCliTest, TransposeB) {
  // A*Aᵀ = [1+4 0; 0 9] = [5 0; 0 9]: rows 1 and 2 share no column.
  const Result r = run("spgemm A.mtx --transpose-b -q");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(entries(r.out), (std::vector<std::string>{"2 2 2", "1 1 5", "2 2 9"}));
  // Bᵀ*... : B.mtx transposed is 2x3, A (2x3) * Bᵀ (2x3) does not fit.
  const Result bad = run("spgemm A.mtx B.mtx --transpose-b -o C.mtx");
  EXPECT_EQ(bad.status, 2) << describe(bad);
  EXPECT_FALSE(fs::exists(work_ / "C.mtx"));
}

TEST_F(SpgemmCliTest, BDefaultsToA) {
  // S = [0 1; 1 0] (symmetric file, expanded): S*S = I.
  write("S.mtx",
        "%%MatrixMarket matrix coordinate pattern symmetric\n"
        "2 2 1\n"
        "2 1\n");
  const Result r = run("spgemm S.mtx -q");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(entries(r.out), (std::vector<std::string>{"2 2 2", "1 1 1", "2 2 1"}));
}

TEST_F(SpgemmCliTest, EdgeListInput) {
  // Path 10 -> 20 -> 30: A² has the one 2-step path, keyed by the input's ids.
  write("g.txt", "# a path\n10 20\n20 30\n");
  const Result r = run("spgemm g.txt -q");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, "10\t30\t1\n");
}

// Two edge lists over different vertex sets meet by vertex id, not by
// position: A's 2 -> 3 and B's 3 -> 4 make the one path 2 -> 4; A's 1 -> 2
// meets nothing (B has no vertex 2), so no path from 1 is invented.
TEST_F(SpgemmCliTest, EdgeListsMatchByVertexId) {
  write("a.txt", "1 2\n2 3\n");
  write("b.txt", "3 4\n4 5\n");
  const Result r = run("spgemm a.txt b.txt");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, "2\t4\t1\n");
  // A's vertices 1, 2, 3 against B's 3, 4, 5.
  EXPECT_NE(r.err.find("1 in both, 2 in A only, 2 in B only"), std::string::npos) << describe(r);

  // The same product written as Matrix Market numbers rows by A's vertices
  // (1, 2, 3) and columns by B's (3, 4, 5): C(2, 2) is the path 2 -> 4.
  const Result mtx = run("spgemm a.txt b.txt -o c.mtx");
  ASSERT_EQ(mtx.status, 0) << describe(mtx);
  EXPECT_EQ(entries(slurp(work_ / "c.mtx")), (std::vector<std::string>{"3 3 1", "2 2 1"}));
  EXPECT_NE(mtx.err.find("note:"), std::string::npos) << describe(mtx);

  // An edge list against a Matrix Market file: its ids are its indices.
  write("m.mtx", "%%MatrixMarket matrix coordinate real general\n5 5 1\n3 1 2.5\n");
  const Result mixed = run("spgemm a.txt m.mtx -q");
  ASSERT_EQ(mixed.status, 0) << describe(mixed);
  EXPECT_EQ(mixed.out, "2\t1\t2.5\n");
}

TEST_F(SpgemmCliTest, ShapeMismatchExits2NamingBothShapes) {
  const Result r = run("spgemm A.mtx A.mtx --output C.mtx");
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_NE(r.err.find("graphrun: error:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("2x3"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("A.mtx"), std::string::npos) << r.err;
  EXPECT_EQ(work_files(), (std::set<std::string>{"A.mtx", "B.mtx"}));
}

TEST_F(SpgemmCliTest, MalformedFileExits2NamingFileAndLine) {
  write("bad.mtx",
        "%%MatrixMarket matrix coordinate real general\n"
        "3 3 2\n"
        "1 1 1.5\n"
        "2 x 2\n");
  const Result r = run("spgemm A.mtx bad.mtx --output C.mtx");
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_NE(r.err.find("bad.mtx:4:"), std::string::npos) << r.err;
  EXPECT_EQ(work_files(), (std::set<std::string>{"A.mtx", "B.mtx", "bad.mtx"}));
}

TEST_F(SpgemmCliTest, MissingFileAndBadOptions) {
  const Result missing = run("spgemm nowhere.mtx -o C.mtx");
  EXPECT_EQ(missing.status, 2) << describe(missing);
  EXPECT_NE(missing.err.find("nowhere.mtx"), std::string::npos) << missing.err;
  const Result threads = run("spgemm A.mtx B.mtx --threads -1");
  EXPECT_EQ(threads.status, 2) << describe(threads);
  const Result folder = run("spgemm A.mtx B.mtx -o no/such/folder/C.mtx");
  EXPECT_EQ(folder.status, 2) << describe(folder);
  EXPECT_EQ(work_files(), (std::set<std::string>{"A.mtx", "B.mtx"}));
}

TEST_F(SpgemmCliTest, HelpTeaches) {
  const Result r = run("spgemm --help");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_NE(r.out.find("B defaults to A"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Matrix Market"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--transpose-b"), std::string::npos) << r.out;
}

}  // namespace
