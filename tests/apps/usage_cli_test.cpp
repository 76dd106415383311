// What a new user meets on the command line: where --output writes (devices,
// FIFOs, symlinks, permissions), weights PageRank cannot rank, the bounds of
// --threads, exit status 3 for a run that stopped at its iteration limit,
// error messages that escape the input's bytes, the words of the summaries
// and of --help, and the formats convert writes.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_support.hpp"

namespace fs = std::filesystem;

namespace {

using graphrun::test::describe;
using graphrun::test::slurp;
using Result = graphrun::test::CliResult;

const std::string karate = GRAPHRUN_SOURCE_DIR "/datasets/karate/karate.txt.gz";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream s(text);
  for (std::string line; std::getline(s, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> rank_column(const std::string& text) {
  std::vector<std::string> ranks;
  for (const auto& line : lines_of(text)) ranks.push_back(line.substr(line.find('\t') + 1));
  return ranks;
}

bool contains(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

class UsageCli : public graphrun::test::CliFixture {
 protected:
  // Runs a shell command line in work/ with $G standing for the graphrun binary.
  Result shell(const std::string& script) {
    return graphrun::test::run_command(
        "cd '" + work_.string() + "' && G='" GRAPHRUN_EXE "' && " + script, root_ / "stdout",
        root_ / "stderr");
  }
  static constexpr const char* path_graph = "1 2\n2 3\n3 4\n";
};

// ---- --output onto what is not a regular file ------------------------------

// A character device written through, not replaced by a regular file. As
// root a private copy of /dev/null (mknod) is used, so that a regression
// cannot break the machine's own /dev/null.
TEST_F(UsageCli, OutputToADeviceWritesThroughIt) {
  write("g.txt", path_graph);
  std::string target = "/dev/null";
  if (::geteuid() == 0) {
    target = (work_ / "null").string();
    ASSERT_EQ(::mknod(target.c_str(), S_IFCHR | 0666, makedev(1, 3)), 0);
  }
  for (const std::string cmd : {"bfs g.txt --source 1", "pagerank g.txt", "mcl g.txt",
                                "spgemm g.txt", "contract g.txt --group-size 2", "convert g.txt"}) {
    const bool positional = cmd.rfind("convert", 0) == 0;
    const Result r = run(cmd + (positional ? " '" : " -o '") + target + "' -q");
    EXPECT_EQ(r.status, 0) << cmd << ": " << describe(r);
    struct stat st {};
    ASSERT_EQ(::stat(target.c_str(), &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode)) << cmd << " replaced the device " << target;
  }
}

TEST_F(UsageCli, OutputToAFifoFeedsTheReader) {
  write("g.txt", path_graph);
  ASSERT_EQ(::mkfifo((work_ / "p").c_str(), 0600), 0);
  // The reader gives up after 20 s, so a FIFO that is never written cannot hang the test.
  const Result r = shell(
      "(timeout 20 cat p > ../from-fifo.txt &) ; \"$G\" bfs g.txt --source 1 -o p -q; st=$?; "
      "sleep 0.2; exit $st");
  ASSERT_EQ(r.status, 0) << describe(r);
  for (int i = 0; i < 50 && slurp(root_ / "from-fifo.txt").empty(); ++i) ::usleep(100000);
  EXPECT_EQ(slurp(root_ / "from-fifo.txt"), "1\t0\n2\t1\n3\t2\n4\t3\n");
  struct stat st {};
  ASSERT_EQ(::lstat((work_ / "p").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO was replaced";
}

// -o /dev/stdout with stdout redirected to a file: the output lands in that
// file. Reached through a private link to /dev/stdout, so that a regression
// replaces the link, not the machine's /dev/stdout.
TEST_F(UsageCli, DevStdoutWritesToStdout) {
  write("g.txt", path_graph);
  fs::create_symlink("/dev/stdout", work_ / "stdout-link");
  const Result r = run("bfs g.txt --source 1 -o stdout-link -q");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, "1\t0\n2\t1\n3\t2\n4\t3\n");
  EXPECT_TRUE(fs::is_symlink(work_ / "stdout-link"));
}

TEST_F(UsageCli, OutputThroughASymlinkReplacesItsTarget) {
  write("g.txt", path_graph);
  fs::create_directory(work_ / "results");
  write("results/levels.tsv", "old\n");
  fs::create_symlink("results/levels.tsv", work_ / "latest.tsv");
  const Result r = run("bfs g.txt --source 1 -o latest.tsv -q");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(fs::is_symlink(work_ / "latest.tsv")) << "the link was replaced by a file";
  EXPECT_EQ(slurp(work_ / "results/levels.tsv"), "1\t0\n2\t1\n3\t2\n4\t3\n");
}

TEST_F(UsageCli, OutputKeepsAnExistingFilesMode) {
  write("g.txt", path_graph);
  write("ranks.tsv", "old\n");
  fs::permissions(work_ / "ranks.tsv", fs::perms::owner_read | fs::perms::owner_write);
  const Result r = run("pagerank g.txt -o ranks.tsv -q");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(fs::status(work_ / "ranks.tsv").permissions() & fs::perms::mask,
            fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(lines_of(slurp(work_ / "ranks.tsv")).size(), 4u);
}

// A folder that does not exist and one that may not be written are the same
// kind of mistake: both exit 2, before the work, and leave nothing behind.
TEST_F(UsageCli, UnwritableOutputExits2WhateverTheReason) {
  write("g.txt", path_graph);
  const Result missing = run("pagerank g.txt -o no-such-folder/ranks.tsv");
  EXPECT_EQ(missing.status, 2) << describe(missing);
  EXPECT_TRUE(contains(missing.err, "no-such-folder")) << describe(missing);

  fs::create_directory(work_ / "locked");
  fs::permissions(work_ / "locked", fs::perms::owner_read | fs::perms::owner_exec |
                                        fs::perms::group_read | fs::perms::group_exec |
                                        fs::perms::others_read | fs::perms::others_exec);
  std::string as_user;
  if (::geteuid() == 0) {
    // Root may write anywhere: run as nobody, in folders nobody may enter.
    fs::permissions(root_, fs::perms::all & ~fs::perms::others_write & ~fs::perms::group_write);
    fs::permissions(work_, fs::perms::all & ~fs::perms::others_write & ~fs::perms::group_write);
    as_user = "setpriv --reuid=65534 --regid=65534 --clear-groups ";
    if (shell(as_user + "true").status != 0) GTEST_SKIP() << "cannot drop to uid 65534";
  }
  const Result denied = shell(as_user + "\"$G\" pagerank g.txt -o locked/ranks.tsv");
  EXPECT_EQ(denied.status, 2) << describe(denied);
  EXPECT_TRUE(contains(denied.err, "locked/ranks.tsv")) << describe(denied);
  EXPECT_TRUE(contains(denied.err, "ermission denied")) << describe(denied);
  EXPECT_TRUE(fs::is_empty(work_ / "locked"));
}

TEST_F(UsageCli, EmptyOutputNameIsRefused) {
  write("g.txt", path_graph);
  for (const std::string cmd :
       {"pagerank g.txt -o ''", "bfs g.txt --source 1 -o ''", "mcl g.txt -o ''",
        "spgemm g.txt -o ''", "contract g.txt --group-size 2 -o ''", "convert g.txt ''"}) {
    const Result r = run(cmd);
    EXPECT_EQ(r.status, 2) << cmd << ": " << describe(r);
    EXPECT_TRUE(contains(r.err, "empty file name")) << cmd << ": " << describe(r);
  }
}

// ---- weights PageRank cannot rank ------------------------------------------

TEST_F(UsageCli, PagerankRefusesNegativeWeightsNamingTheLine) {
  write("g.txt", "1 2 1\n1 3 -0.5\n2 1 1\n3 1 1\n");
  const Result r = run("pagerank g.txt -o ranks.tsv");
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "g.txt:2:")) << describe(r);
  EXPECT_TRUE(contains(r.err, "--unweighted")) << describe(r);
  EXPECT_FALSE(fs::exists(work_ / "ranks.tsv"));

  const Result unweighted = run("pagerank g.txt --unweighted -q");
  EXPECT_EQ(unweighted.status, 0) << describe(unweighted);
}

// Weights that are each fine but whose out-weight inverts past the range of
// a double: the ranks become infinite in the first iteration. An error, not
// "inf" in the output.
TEST_F(UsageCli, PagerankNeverWritesANonFiniteRank) {
  write("g.txt", "1 2 1e-320\n2 1 1\n");
  const Result r = run("pagerank g.txt -o ranks.tsv");
  EXPECT_EQ(r.status, 1) << describe(r);
  EXPECT_TRUE(contains(r.err, "iteration 1")) << describe(r);
  EXPECT_FALSE(contains(r.out, "inf")) << describe(r);
  EXPECT_FALSE(contains(r.out, "nan")) << describe(r);
  EXPECT_FALSE(fs::exists(work_ / "ranks.tsv"));
}

// Sums and products past the range of a double: an error naming the entry,
// never "inf" in a file graphrun could not read back.
TEST_F(UsageCli, ContractAndSpgemmNeverWriteANonFiniteValue) {
  write("g.txt", "1 2 1e308\n1 3 1e308\n2 3 1\n");
  write("labels.tsv", "1 a\n2 b\n3 b\n");
  const Result q = run("contract g.txt --labels labels.tsv -o q.tsv");
  EXPECT_EQ(q.status, 1) << describe(q);
  EXPECT_TRUE(contains(q.err, "from label a to label b")) << describe(q);
  EXPECT_FALSE(fs::exists(work_ / "q.tsv"));

  write("m.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 1e200\n2 1 1e200\n");
  const Result c = run("spgemm m.mtx -o c.mtx");
  EXPECT_EQ(c.status, 1) << describe(c);
  EXPECT_TRUE(contains(c.err, "C(1, 1)")) << describe(c);
  EXPECT_FALSE(fs::exists(work_ / "c.mtx"));
}

TEST_F(UsageCli, MclRefusesNegativeWeightsNamingTheLine) {
  write("g.txt", "1 2 1\n2 3 -2\n");
  const Result r = run("mcl g.txt");
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "g.txt:2:")) << describe(r);
}

// ---- --threads --------------------------------------------------------------

TEST_F(UsageCli, ThreadsAboveTheBoundExit2NamingIt) {
  write("g.txt", path_graph);
  for (const char* n : {"1025", "50000", "100000"}) {
    const Result r = run(std::string("pagerank g.txt --threads ") + n);
    EXPECT_EQ(r.status, 2) << n << ": " << describe(r);
    EXPECT_TRUE(contains(r.err, "1024")) << n << ": " << describe(r);
  }
  const Result env = shell("OMP_NUM_THREADS=100000 \"$G\" pagerank g.txt");
  EXPECT_EQ(env.status, 2) << describe(env);
  EXPECT_TRUE(contains(env.err, "OMP_NUM_THREADS")) << describe(env);

  const Result most = run("pagerank g.txt --threads 1024 -q");
  EXPECT_EQ(most.status, 0) << describe(most);
  const Result help = run("pagerank --help");
  EXPECT_TRUE(contains(help.out, "at most 1024")) << describe(help);
}

// ---- stopping at the iteration limit ---------------------------------------

TEST_F(UsageCli, PagerankNotConvergedExits3AndWritesTheRanks) {
  const Result r = run("pagerank '" + karate + "' --undirected --max-iter 3 -o ranks.tsv");
  EXPECT_EQ(r.status, 3) << describe(r);
  EXPECT_TRUE(contains(r.err, "NOT converged")) << describe(r);
  EXPECT_EQ(lines_of(slurp(work_ / "ranks.tsv")).size(), 34u);

  const Result done = run("pagerank '" + karate + "' --undirected -q");
  EXPECT_EQ(done.status, 0) << describe(done);
  EXPECT_TRUE(contains(run("pagerank --help").out, "3 an iterative command"));
}

TEST_F(UsageCli, MclNotConvergedExits3AndWritesTheClusters) {
  const Result r = run("mcl '" + karate + "' --max-iter 1 -o clusters.txt");
  EXPECT_EQ(r.status, 3) << describe(r);
  EXPECT_FALSE(slurp(work_ / "clusters.txt").empty());
  EXPECT_EQ(run("mcl '" + karate + "' -q -o c.txt").status, 0);
}

// ---- messages, summaries, help ---------------------------------------------

TEST_F(UsageCli, UnknownSubcommandListsEverySubcommand) {
  const Result r = run("frobnicate g.txt");
  EXPECT_EQ(r.status, 2) << describe(r);
  for (const char* sub :
       {"pagerank", "bfs", "spgemm", "contract", "mcl", "experiment", "info", "convert", "bench"})
    EXPECT_TRUE(contains(r.err, sub)) << sub << " missing: " << describe(r);
}

TEST_F(UsageCli, MclHelpSaysOnceWhatRepeatedEdgesBecome) {
  const Result r = run("mcl --help");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_FALSE(contains(r.out, "summed")) << r.out;
  EXPECT_TRUE(contains(r.out, "largest weight")) << r.out;
}

TEST_F(UsageCli, BfsSummaryNamesTheDeepestLevel) {
  write("g.txt", path_graph);  // levels 0..3
  const Result r = run("bfs g.txt --source 1");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(contains(r.err, "deepest level 3")) << describe(r);
}

// info, pagerank and bfs count an undirected graph's edges the same way.
TEST_F(UsageCli, SummariesCountEdgesAsInfoDoes) {
  const Result info = run("info '" + karate + "' --undirected");
  ASSERT_EQ(info.status, 0) << describe(info);
  EXPECT_TRUE(contains(info.out, "78 undirected")) << info.out;
  for (const std::string& cmd : {"pagerank '" + karate + "' --undirected --top 0",
                                 "bfs '" + karate + "' --undirected --source 1 -o -"}) {
    const Result r = run(cmd);
    ASSERT_EQ(r.status, 0) << describe(r);
    EXPECT_TRUE(contains(r.err, "34 vertices, 78 undirected edges (156 stored entries)"))
        << describe(r);
  }
  write("g.txt", path_graph);
  EXPECT_TRUE(contains(run("pagerank g.txt").err, "4 vertices, 3 edges"));
}

TEST_F(UsageCli, ErrorMessagesEscapeTheInputsBytes) {
  write("esc.txt", std::string("1 2\n1\x1b[31m 2\n"));
  const Result esc = run("pagerank esc.txt");
  EXPECT_EQ(esc.status, 2) << describe(esc);
  EXPECT_FALSE(contains(esc.err, "\x1b")) << "a raw escape reached the terminal";
  EXPECT_TRUE(contains(esc.err, "esc.txt:2:")) << describe(esc);
  EXPECT_TRUE(contains(esc.err, "\\x1b")) << describe(esc);

  write("nul.txt", std::string("1 2\n3\0 4\n", 10));
  const Result nul = run("pagerank nul.txt");
  EXPECT_EQ(nul.status, 2) << describe(nul);
  EXPECT_EQ(nul.err.find('\0'), std::string::npos) << "a raw NUL in the message";
  EXPECT_TRUE(contains(nul.err, "nul.txt:2:")) << describe(nul);
  // The message goes on past the NUL.
  EXPECT_TRUE(contains(nul.err, "not a number")) << describe(nul);
}

TEST_F(UsageCli, NamesWithoutAbcSuggestAbc) {
  write("ppi.txt", "YKR068C YOR123W 0.9\n");
  const Result r = run("pagerank ppi.txt");
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "--abc")) << describe(r);
  EXPECT_EQ(run("pagerank ppi.txt --abc -q").status, 0);
}

// ---- convert writes what graphrun reads -------------------------------------

TEST_F(UsageCli, ConvertWritesEveryFormatItReads) {
  const Result want = run("pagerank '" + karate + "' -o - -q");
  ASSERT_EQ(want.status, 0) << describe(want);
  for (const char* name : {"k.grb", "k.mtx", "k.mtx.gz", "k.txt", "k.txt.gz", "k.edges"}) {
    const Result c = run("convert '" + karate + "' " + name + " -q");
    ASSERT_EQ(c.status, 0) << name << ": " << describe(c);
    const Result got = run(std::string("pagerank ") + name + " -o - -q");
    ASSERT_EQ(got.status, 0) << name << ": " << describe(got);
    // Matrix Market renumbers karate's ids 0..33 to 1..34, in the same
    // order: the ranks, vertex by vertex, are the same.
    EXPECT_EQ(rank_column(got.out), rank_column(want.out)) << name;
    if (std::string(name).find(".mtx") == std::string::npos) {
      EXPECT_EQ(got.out, want.out) << name;
    }
  }
  const std::string gz = slurp(work_ / "k.txt.gz");
  ASSERT_GE(gz.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(gz[0]), 0x1f);
  EXPECT_EQ(static_cast<unsigned char>(gz[1]), 0x8b);
  const Result to_stdout = run("convert '" + karate + "' - -q");
  ASSERT_EQ(to_stdout.status, 0) << describe(to_stdout);
  const auto written = lines_of(to_stdout.out);
  EXPECT_EQ(std::count_if(written.begin(), written.end(),
                          [](const std::string& l) { return !l.empty() && l[0] != '#'; }),
            78);
}

// ---- a tiny file that declares a huge matrix --------------------------------

// One entry in a 10⁹ × 10⁹ matrix: read in memory proportional to the entry.
// A per-row array of 10⁹ offsets alone would hold 8 GB; every process this
// test starts stays under 1 GB (the largest resident size of the waited-for
// descendants; an address-space limit would not do, AddressSanitizer
// reserves terabytes of it).
TEST_F(UsageCli, HypersparseMatrixMarketTakesLittleMemory) {
  write("huge.mtx",
        "%%MatrixMarket matrix coordinate real general\n1000000000 1000000000 1\n5 700 2.5\n");
  const Result info = run("info huge.mtx");
  EXPECT_EQ(info.status, 0) << describe(info);
  EXPECT_TRUE(contains(info.out, "2 (the file declares 1000000000")) << describe(info);
  const Result bfs = run("bfs huge.mtx --source 5 -q");
  EXPECT_EQ(bfs.status, 0) << describe(bfs);
  EXPECT_EQ(bfs.out, "5\t0\n700\t1\n");
  const Result product = run("spgemm huge.mtx huge.mtx");
  EXPECT_EQ(product.status, 2) << describe(product);
  rusage children{};
  ASSERT_EQ(::getrusage(RUSAGE_CHILDREN, &children), 0);
  EXPECT_LT(children.ru_maxrss, 1'000'000) << "KiB at the largest of the processes run";
}

// ---- bench and experiment, run by graphrun-compare --------------------------

// `graphrun bench ARGS` is `graphrun-compare bench ARGS`: help, errors and
// exit statuses come through as the subcommands give them.
TEST_F(UsageCli, BenchAndExperimentRunInGraphrunCompare) {
  Result r = run("bench --help");
  EXPECT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "Usage: graphrun bench")) << r.out;
  EXPECT_TRUE(contains(r.out, "spmv")) << r.out;
  r = run("experiment mcl --help");
  EXPECT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "Usage: graphrun experiment mcl")) << r.out;
  // --tune tunes the GPU SpGEMM: on the CPU it is a usage error naming the
  // device, before any graph loads or the mcl program is looked for.
  r = run("experiment mcl --tune sort-max-ip=1 gen:rmat:6");
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "--device cuda")) << r.err;
  r = run("bench spmv --no-such-option");
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "--no-such-option")) << r.err;
  // A run: the SpMV table of a generated graph on the CPU.
  r = run("bench spmv gen:rmat:8 --device cpu");
  EXPECT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "| graph |")) << r.out;
}

// bench pagerank --reorder takes one comma-separated word: the inputs after it
// stay inputs, and an ordering it does not know is a usage error (exit 2 and
// the subcommand's help named), not an uncaught exception.
TEST_F(UsageCli, BenchPagerankReorderTakesOneWord) {
  Result r = run("bench pagerank --reorder none,dbg gen:rmat:8 --device cpu");
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "use it with --device cuda")) << describe(r);
  EXPECT_FALSE(contains(r.err, "gen:rmat:8")) << describe(r);
  for (const char* list : {"none,bogus", "none,", "gen:rmat:8"}) {
    r = run(std::string("bench pagerank --reorder ") + list + " --device cuda");
    EXPECT_EQ(r.status, 2) << list << ": " << describe(r);
    EXPECT_TRUE(contains(r.err, "unknown vertex ordering")) << list << ": " << describe(r);
    EXPECT_TRUE(contains(r.err, "graphrun bench pagerank --help")) << list << ": " << describe(r);
  }
}

// bench pagerank --format: a name of the format table, for GPU runs only.
TEST_F(UsageCli, BenchPagerankFormatIsAGpuFormatName) {
  Result r = run("bench pagerank --format csr-bins gen:rmat:8 --device cpu");
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "use it with --device cuda")) << describe(r);
  r = run("bench pagerank --format bogus gen:rmat:8 --device cuda");
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "unknown SpMV format 'bogus'")) << describe(r);
  EXPECT_TRUE(contains(r.err, "csr-bins")) << describe(r);
}

// Without graphrun-compare beside it, graphrun says which program is
// missing and where it looked, and exits 2; its own commands still run.
TEST_F(UsageCli, AMissingGraphrunCompareIsNamed) {
  const fs::path alone = work_ / "alone";
  fs::create_directories(alone);
  fs::copy_file(GRAPHRUN_EXE, alone / "graphrun");
  write("g.txt", path_graph);
  const Result r = shell("'" + (alone / "graphrun").string() + "' bench spmv g.txt");
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, (alone / "graphrun-compare").string())) << r.err;
  EXPECT_TRUE(contains(r.err, "graphrun bench")) << r.err;
  const Result own = shell("'" + (alone / "graphrun").string() + "' bfs g.txt --source 1 -q");
  EXPECT_EQ(own.status, 0) << describe(own);
}

// graphrun itself does not load the comparison's libraries: each costs
// milliseconds at every start (delegated.hpp). Read from the executable's
// dynamic section (readelf, binutils).
TEST_F(UsageCli, GraphrunLinksNoneOfTheAnchorsLibraries) {
  if (std::system("command -v readelf >/dev/null 2>&1") != 0) GTEST_SKIP() << "no readelf";
  const Result r = shell("readelf -d '" GRAPHRUN_EXE "'");
  ASSERT_EQ(r.status, 0) << describe(r);
  ASSERT_TRUE(contains(r.out, "(NEEDED)")) << r.out;
  for (const char* lib : {"libgraphblas", "libgd.", "libcusparse", "libnvJitLink"})
    EXPECT_FALSE(contains(r.out, lib)) << "graphrun links " << lib << ":\n" << r.out;
}

}  // namespace
