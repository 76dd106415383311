// End-to-end tests of `graphrun contract`: --group-size on the shipped karate
// and lesmis graphs against a quotient summed up here from the loaded graph,
// --labels with string and numeric labels (their order), --keep-loops,
// --output written atomically, and the errors of the label file (missing
// vertex, unknown id, vertex labelled twice, wrong field count) and of the
// options, which exit with status 2 naming FILE:LINE and leave no output.
#include <gtest/gtest.h>

#include <charconv>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "cli_support.hpp"
#include "graphrun/io/load.hpp"

namespace fs = std::filesystem;

namespace {

using graphrun::test::describe;
using graphrun::test::slurp;
using Result = graphrun::test::CliResult;

std::string shipped(const std::string& name) {
  return GRAPHRUN_SOURCE_DIR "/datasets/" + name + "/" + name + ".txt.gz";
}

std::string g17(double v) {
  char buf[40];
  const auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 17);
  return std::string(buf, p);
}

// The quotient of labels v / k (dense v), summed edge by edge, as the lines
// graphrun writes: rows and columns in label order.
std::string group_quotient(const std::string& file, bool undirected, int k, bool keep_loops) {
  graphrun::io::LoadOptions options;
  options.undirected = undirected;
  const graphrun::Graph g = graphrun::io::load_graph(file, options);
  const auto& a = g.adj();
  std::map<std::pair<int, int>, double> c;
  for (graphrun::vertex_t u = 0; u < g.n_vertices(); ++u)
    for (graphrun::offset_t e = a.row_ptr()[u]; e < a.row_ptr()[u + 1]; ++e) {
      const int from = u / k, to = a.col_idx()[e] / k;
      if (from == to && !keep_loops) continue;
      c[{from, to}] += g.weighted() ? a.values()[e] : 1.0;
    }
  std::string out;
  for (const auto& [kl, w] : c)
    out += std::to_string(kl.first) + "\t" + std::to_string(kl.second) + "\t" + g17(w) + "\n";
  return out;
}

// A directed graph on ids 10, 20, 30, 40 and labels for it:
//   10 -> 20 (red -> blue), 20 -> 30 (blue -> red), 30 -> 10 (red, loop),
//   30 -> 40 (red -> green), 40 -> 40 (green, loop).
constexpr const char* small_graph = "10 20\n20 30\n30 10\n30 40\n40 40\n";
constexpr const char* small_labels =
    "# vertex\tcolour\n"
    "10\tred\n"
    "\n"
    "20 blue\n"
    "  30\t red \n"
    "40\tgreen\n";

class ContractCliTest : public graphrun::test::CliFixture {
 protected:
  void SetUp() override {
    CliFixture::SetUp();
    write("g.txt", small_graph);
    write("labels.tsv", small_labels);
  }
  // Runs a contract of g.txt with a label file of `content`, expecting exit
  // status 2 and `where` (FILE:LINE:) and `what` in the message, no output file.
  void expect_label_error(const std::string& content, const std::string& where,
                          const std::string& what) {
    write("bad.tsv", content);
    const Result r = run("contract g.txt --labels bad.tsv --output C.tsv");
    EXPECT_EQ(r.status, 2) << describe(r);
    EXPECT_NE(r.err.find("graphrun: error: " + where), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
    EXPECT_EQ(work_files(), (std::set<std::string>{"g.txt", "labels.tsv", "bad.tsv"}));
  }
};

TEST_F(ContractCliTest, GroupSizeOnKarate) {
  const std::string karate = shipped("karate");
  ASSERT_TRUE(fs::exists(karate)) << karate << " is shipped with the repository";
  for (int k : {1, 5, 10, 34, 100}) {
    const Result r =
        run("contract '" + karate + "' --undirected --group-size " + std::to_string(k));
    ASSERT_EQ(r.status, 0) << describe(r);
    EXPECT_EQ(r.out, group_quotient(karate, true, k, false)) << "k=" << k;
    EXPECT_NE(r.err.find("34 vertices, 78 undirected edges"), std::string::npos) << r.err;
  }
  // 34 vertices in groups of 10: 4 labels; the 156 edges cost 156 products
  // in S*A, and nnz(S*A) more in (S*A)*Sᵀ.
  const Result r = run("contract '" + karate + "' --undirected --group-size 10 --keep-loops");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, group_quotient(karate, true, 10, true));
  EXPECT_NE(r.err.find("4 labels"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("self loops kept"), std::string::npos) << r.err;
}

TEST_F(ContractCliTest, GroupSizeOnWeightedLesmis) {
  const std::string lesmis = shipped("lesmis");
  ASSERT_TRUE(fs::exists(lesmis)) << lesmis;
  const Result r = run("contract '" + lesmis + "' --undirected --group-size 7 -q --threads 2");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, group_quotient(lesmis, true, 7, false));
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST_F(ContractCliTest, StringLabelsInByteOrder) {
  const Result r = run("contract g.txt --labels labels.tsv -q");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, "blue\tred\t1\nred\tblue\t1\nred\tgreen\t1\n");
  const Result loops = run("contract g.txt --labels labels.tsv --keep-loops -q");
  ASSERT_EQ(loops.status, 0) << describe(loops);
  EXPECT_EQ(loops.out, "blue\tred\t1\ngreen\tgreen\t1\nred\tblue\t1\nred\tgreen\t1\nred\tred\t1\n");
  // Undirected: each edge both ways, the loop inside red counted twice.
  const Result both = run("contract g.txt --labels labels.tsv --keep-loops --undirected -q");
  ASSERT_EQ(both.status, 0) << describe(both);
  EXPECT_EQ(both.out,
            "blue\tred\t2\ngreen\tgreen\t1\ngreen\tred\t1\nred\tblue\t2\nred\tgreen\t1\n"
            "red\tred\t2\n");
}

// A graph with named vertices (--abc): the label file names them.
TEST_F(ContractCliTest, NamedVerticesInTheLabelFile) {
  write("named.abc", "YKR068C YDR108W\nYDR108W YGR166W\nYGR166W YBR254C\n");
  write("named.tsv", "YKR068C X\nYDR108W X\nYGR166W Y\nYBR254C Y\n");
  const Result r = run("contract named.abc --abc --labels named.tsv -q");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, "X\tY\t1\n");
  write("unknown.tsv", "YKR068C X\nYDR108W X\nYGR166W Y\nQ0045 Y\n");
  const Result bad = run("contract named.abc --abc --labels unknown.tsv -q");
  EXPECT_EQ(bad.status, 2) << describe(bad);
  EXPECT_NE(bad.err.find("unknown.tsv:4"), std::string::npos) << bad.err;
}

TEST_F(ContractCliTest, IntegerLabelsInNumericOrder) {
  // Byte order would put 100 before 9.
  write("num.tsv", "10 9\n20 100\n30 9\n40 10\n");
  const Result r = run("contract g.txt --labels num.tsv -q");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, "9\t10\t1\n9\t100\t1\n100\t9\t1\n");
  // One label that is not an integer: byte order for all.
  write("mixed.tsv", "10 9\n20 100\n30 9\n40 x\n");
  const Result m = run("contract g.txt --labels mixed.tsv -q");
  ASSERT_EQ(m.status, 0) << describe(m);
  EXPECT_EQ(m.out, "100\t9\t1\n9\t100\t1\n9\tx\t1\n");
}

TEST_F(ContractCliTest, OutputFileIsWrittenWhole) {
  const Result to_stdout = run("contract g.txt --labels labels.tsv --keep-loops -q");
  ASSERT_EQ(to_stdout.status, 0) << describe(to_stdout);
  const Result r = run("contract g.txt --labels labels.tsv --keep-loops --output C.tsv");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(slurp(work_ / "C.tsv"), to_stdout.out);
  EXPECT_EQ(work_files(), (std::set<std::string>{"g.txt", "labels.tsv", "C.tsv"}));
  // A failing run leaves the earlier C.tsv as it was, and no temporary file.
  write("bad.tsv", "10 red\n");
  const Result bad = run("contract g.txt --labels bad.tsv --output C.tsv");
  EXPECT_EQ(bad.status, 2) << describe(bad);
  EXPECT_EQ(slurp(work_ / "C.tsv"), to_stdout.out);
  EXPECT_EQ(work_files(), (std::set<std::string>{"g.txt", "labels.tsv", "bad.tsv", "C.tsv"}));
}

TEST_F(ContractCliTest, LabelFileErrorsNameFileAndLine) {
  expect_label_error("10 a\n20 b\n# 30 is missing\n40 c\n", "bad.tsv:4:", "vertex 30");
  expect_label_error("10 a\n20 b\n99 c\n30 a\n40 a\n", "bad.tsv:3:", "'99' is not in the graph");
  expect_label_error("10 a\n20 b\nten a\n", "bad.tsv:3:", "'ten' is not in the graph");
  expect_label_error("10 a\n20 b\n30 c\n20 d\n40 a\n", "bad.tsv:4:", "first on line 2");
  expect_label_error("10 a\n20 b c\n30 c\n40 a\n", "bad.tsv:2:", "found 3");
  expect_label_error("10 a\n20\n", "bad.tsv:2:", "found 1");
  expect_label_error("", "bad.tsv:", "no label");
}

TEST_F(ContractCliTest, OptionErrors) {
  const Result both = run("contract g.txt --labels labels.tsv --group-size 2 -o C.tsv");
  EXPECT_EQ(both.status, 2) << describe(both);
  EXPECT_NE(both.err.find("exactly one of --labels"), std::string::npos) << both.err;
  const Result neither = run("contract g.txt -o C.tsv");
  EXPECT_EQ(neither.status, 2) << describe(neither);
  EXPECT_NE(neither.err.find("exactly one of --labels"), std::string::npos) << neither.err;
  const Result zero = run("contract g.txt --group-size 0");
  EXPECT_EQ(zero.status, 2) << describe(zero);
  const Result no_file = run("contract g.txt --labels nowhere.tsv");
  EXPECT_EQ(no_file.status, 2) << describe(no_file);
  EXPECT_NE(no_file.err.find("nowhere.tsv: no such file"), std::string::npos) << no_file.err;
  const Result folder = run("contract g.txt --group-size 2 -o no/such/folder/C.tsv");
  EXPECT_EQ(folder.status, 2) << describe(folder);
  EXPECT_EQ(work_files(), (std::set<std::string>{"g.txt", "labels.tsv"}));
}

TEST_F(ContractCliTest, HelpTeaches) {
  const Result r = run("contract --help");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_NE(r.out.find("S*A*Sᵀ"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("LABEL FILE"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--keep-loops"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("EXAMPLES"), std::string::npos) << r.out;
}

}  // namespace
