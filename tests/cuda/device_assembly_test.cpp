// Edge lists assembled on the GPU (LoadOptions::assemble_on_device) against
// the host's assembly, the reference: the same graph array for array — ids,
// row pointers, columns, values — on random edge lists with repeated edges
// (summed left to right, the largest kept, the last kept), self loops, dense
// and sparse 64-bit ids, weighted or not, symmetrized or not, parsed in many
// small chunks; on the shipped graphs; and the empty case. The copy a loader
// leaves on the device (keep_on_device) holds the same arrays, and PageRank
// started from it gives the same ranks bit for bit.
#include "graphrun/engine/device_assembly.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "graphrun/algorithms/pagerank.hpp"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/device_csr.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/io/load.hpp"
#include "io/io_test_support.hpp"
#include "support/random_graphs.hpp"
#include "support/shared_graphs.hpp"

namespace graphrun {
namespace {

#if defined(GRAPHRUN_HAVE_CUDA)

class DeviceAssembly : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }
};

void expect_same(const Graph& got, const Graph& want, const std::string& where) {
  EXPECT_EQ(got.input_ids(), want.input_ids()) << where;
  EXPECT_EQ(got.directed(), want.directed()) << where;
  EXPECT_EQ(got.weighted(), want.weighted()) << where;
  EXPECT_EQ(got.adj().row_ptr(), want.adj().row_ptr()) << where;
  EXPECT_EQ(got.adj().col_idx(), want.adj().col_idx()) << where;
  // Bit for bit: the sums run in the same order.
  EXPECT_EQ(got.adj().values(), want.adj().values()) << where;
}

// An edge list of `m` lines over ids drawn from `ids` distinct values
// spread by `stride` (a stride of 10^12 gives ids past 2^32), with repeats
// and self loops; weights with a fractional part, so that a sum's order
// shows in its last bits.
std::string edge_list(std::int64_t m, std::int64_t ids, std::uint64_t stride, bool weighted,
                      std::uint64_t seed) {
  test::Rng rng(seed);
  std::string text = "# a comment\n";
  for (std::int64_t e = 0; e < m; ++e) {
    const std::uint64_t u = 7 + static_cast<std::uint64_t>(rng.below(ids)) * stride;
    const std::uint64_t v =
        rng.coin(0.05) ? u : 7 + static_cast<std::uint64_t>(rng.below(ids)) * stride;
    // Appended piece by piece: GCC 12 at -O3 warns (-Wrestrict, a false
    // positive) on `" " + std::to_string(...)`.
    text += std::to_string(u);
    text += '\t';
    text += std::to_string(v);
    if (weighted) {
      text += ' ';
      text += std::to_string(rng.uniform(0.1, 3.0));
    }
    text += '\n';
  }
  return text;
}

TEST_F(DeviceAssembly, EqualsTheHostAssemblyOnRandomEdgeLists) {
  io::test::TempDir dir;
  std::uint64_t seed = 3;
  for (const auto& [m, ids] :
       {std::pair<std::int64_t, std::int64_t>{1, 1}, {50, 8}, {4000, 300}, {60000, 20000}})
    for (std::uint64_t stride : {std::uint64_t{1}, std::uint64_t{1000000000000}})
      for (bool weighted : {false, true}) {
        std::ostringstream name;
        name << "e" << seed << ".txt";
        const std::string path =
            io::test::write_file(dir.file(name.str()), edge_list(m, ids, stride, weighted, seed));
        ++seed;
        for (bool undirected : {false, true})
          for (Duplicates dup : {Duplicates::sum, Duplicates::max, Duplicates::last}) {
            io::LoadOptions o;
            o.undirected = undirected;
            o.duplicates = dup;
            o.chunk_bytes = 4096;  // many parts
            const Graph want = io::read_edge_list(path, o);
            o.assemble_on_device = true;
            const Graph got = io::read_edge_list(path, o);
            std::ostringstream where;
            where << "m=" << m << " ids=" << ids << " stride=" << stride
                  << (weighted ? " weighted" : "") << (undirected ? " undirected" : "")
                  << " dup=" << static_cast<int>(dup);
            expect_same(got, want, where.str());
          }
      }
}

TEST_F(DeviceAssembly, EqualsTheHostAssemblyOnTheShippedGraphs) {
  const auto files = test::shipped_graph_files();
  ASSERT_FALSE(files.empty());
  for (const auto& f : files)
    for (bool undirected : {false, true}) {
      io::LoadOptions o;
      o.undirected = undirected;
      const Graph want = io::load_graph(f.string(), o);
      o.assemble_on_device = true;
      expect_same(io::load_graph(f.string(), o), want, f.string());
    }
}

TEST_F(DeviceAssembly, TheCopyLeftOnTheDeviceIsTheGraphAndPageRankStartsFromIt) {
  io::test::TempDir dir;
  Context gpu(Device::cuda);
  std::uint64_t seed = 90;
  for (bool weighted : {false, true})
    for (bool undirected : {false, true}) {
      // Named piece by piece: GCC 12 at -O3 warns (-Wrestrict, a false
      // positive) on `"k" + std::to_string(...) + ".txt"`.
      std::ostringstream name;
      name << "k" << seed << ".txt";
      const std::string path =
          io::test::write_file(dir.file(name.str()), edge_list(20000, 3000, 1, weighted, seed));
      ++seed;
      io::LoadOptions o;
      o.undirected = undirected;
      o.assemble_on_device = true;
      const Graph plain = io::read_edge_list(path, o);
      EXPECT_EQ(plain.device_adjacency(), nullptr);  // not asked to stay
      o.keep_on_device = true;
      const Graph kept = io::read_edge_list(path, o);
      ASSERT_NE(kept.device_adjacency(), nullptr);
      EXPECT_EQ(kept.self_loops(), plain.self_loops());  // counted on the device
      PageRankOptions p;
      p.tol = 1e-12;
      const PageRankResult want = pagerank(gpu, plain, p);
      // PageRank on the GPU starts from the device copy: the host copy is
      // not fetched (a weighted graph's weights are checked on the host).
      int fetches = 0;
      Graph lazy = Graph::with_deferred_adjacency(
          kept.n_vertices(), kept.n_edges(), plain.self_loops(), kept.is_pattern(),
          [&] {
            ++fetches;
            return kept.adj();
          },
          kept.input_ids(), kept.directed(), kept.weighted());
      lazy.set_device_adjacency(kept.device_adjacency());
      EXPECT_EQ(pagerank(gpu, lazy, p).rank, want.rank);
      EXPECT_EQ(fetches, weighted ? 1 : 0);
      const Csr<double> there = kept.device_adjacency()->csr.download();
      EXPECT_EQ(there.row_ptr(), kept.adj().row_ptr());
      EXPECT_EQ(there.col_idx(), kept.adj().col_idx());
      EXPECT_EQ(there.values(), kept.adj().values());
      const PageRankResult got = pagerank(gpu, kept, p);
      EXPECT_EQ(got.rank, want.rank) << "weighted " << weighted << " undirected " << undirected;
      EXPECT_EQ(got.iterations, want.iterations);
    }
}

// The same parts with 32-bit ids (a parser's usual) and 64-bit ids give
// the same arrays; parts that mix the two are refused.
TEST_F(DeviceAssembly, ThirtyTwoAndSixtyFourBitIdsGiveTheSameGraph) {
  test::Rng rng(11);
  std::vector<std::vector<std::uint64_t>> src64(5), dst64(5);
  std::vector<std::vector<std::uint32_t>> src32(5), dst32(5);
  std::vector<IdEdges> wide(5), narrow(5);
  for (int p = 0; p < 5; ++p) {
    const int m = p == 2 ? 0 : 3000 * (p + 1);  // an empty part too
    for (int e = 0; e < m; ++e) {
      src64[p].push_back(4000000000u - static_cast<std::uint64_t>(rng.below(5000)));
      dst64[p].push_back(static_cast<std::uint64_t>(rng.below(5000)));
      src32[p].push_back(static_cast<std::uint32_t>(src64[p].back()));
      dst32[p].push_back(static_cast<std::uint32_t>(dst64[p].back()));
    }
    wide[p].src = src64[p];
    wide[p].dst = dst64[p];
    narrow[p].src32 = src32[p];
    narrow[p].dst32 = dst32[p];
    wide[p].max_id = narrow[p].max_id = 4000000000u;
  }
  for (bool mirror : {false, true}) {
    const AssembledCsr a = assemble_csr_on_device(wide, mirror, false, Duplicates::sum, "64");
    const AssembledCsr b = assemble_csr_on_device(narrow, mirror, false, Duplicates::sum, "32");
    EXPECT_EQ(a.ids, b.ids);
    EXPECT_EQ(a.ids.back(), 4000000000u);
    EXPECT_EQ(a.adj.row_ptr(), b.adj.row_ptr());
    EXPECT_EQ(a.adj.col_idx(), b.adj.col_idx());
    EXPECT_GT(a.nnz, 0);
  }
  std::vector<IdEdges> mixed = wide;
  mixed[3] = narrow[3];
  EXPECT_THROW(assemble_csr_on_device(mixed, false, false, Duplicates::sum, "mixed"),
               ArgumentError);
}

TEST_F(DeviceAssembly, NoEdgesGiveAnEmptyGraph) {
  const AssembledCsr a = assemble_csr_on_device({}, true, false, Duplicates::sum, "none");
  EXPECT_EQ(a.adj.n_rows(), 0);
  EXPECT_TRUE(a.ids.empty());
}

// Texts the device's parser takes: every form the host parser accepts for
// two columns. Each must parse on the device (not fall back) and give the
// host's graph array for array.
std::vector<std::string> texts_the_device_takes() {
  std::vector<std::string> t = {
      "1 2\n2 3\n",
      "1 2\r\n3 4\r\n5 5\r\n",
      "  1\t 2 \t\n\t3 4  \r\n 4\t\t1\n",
      "# a comment\n1 2\n  % another\n\n   \n\r\n \t\r\n3 1\n#x 1 2 3\n%\n2 3\n",
      "1 2\n3 4",  // no final line end
      "007 0008\n0 0\n00000000000000000000012 3\n",
      "18446744073709551615 1\n4294967296 4294967295\n4294967295 0\n",
      "5 5\n5 5\n1 2\n1 2\n2 1\n",
  };
  // Lines longer than a thread's slice of 64 bytes: slices with no line
  // start, a line that runs through several slices, blanks across one.
  t.push_back("1 2\n#" + std::string(300, 'c') + "\n3 4\n" + std::string(200, ' ') + "5" +
              std::string(150, '\t') + "6\n7 8\n");
  // Many short lines ("1 2\n"): 16 edges start in a 64-byte slice.
  std::string dense;
  for (int i = 0; i < 5000; ++i) {
    dense += std::to_string(i % 10);
    dense += ' ';
    dense += std::to_string((i * 7) % 10);
    dense += '\n';
  }
  t.push_back(dense);
  return t;
}

TEST_F(DeviceAssembly, TextParsedOnTheDeviceEqualsTheHostParse) {
  io::test::TempDir dir;
  int k = 0;
  for (const std::string& text : texts_the_device_takes()) {
    std::ostringstream name;
    name << "t" << k++ << ".txt";
    const std::string path = io::test::write_file(dir.file(name.str()), text);
    std::string whole = text;
    if (whole.back() != '\n') whole += '\n';
    for (bool undirected : {false, true}) {
      // The device's own parse, not a fall-back to the host's.
      const std::optional<AssembledCsr> a =
          assemble_edge_text_on_device({}, whole, undirected, path, false);
      ASSERT_TRUE(a.has_value()) << path << ": " << text.substr(0, 80);
      io::LoadOptions o;
      o.undirected = undirected;
      const Graph want = io::read_edge_list(path, o);
      EXPECT_EQ(a->ids, want.input_ids()) << path;
      EXPECT_EQ(a->adj.row_ptr(), want.adj().row_ptr()) << path;
      EXPECT_EQ(a->adj.col_idx(), want.adj().col_idx()) << path;
      EXPECT_EQ(a->self_loops, want.self_loops()) << path;
      o.assemble_on_device = true;
      expect_same(io::read_edge_list(path, o), want, path);
      o.keep_on_device = true;
      const Graph kept = io::read_edge_list(path, o);
      ASSERT_NE(kept.device_adjacency(), nullptr) << path;
      expect_same(kept, want, path + " kept on the device");
    }
  }
}

// Lines the host parser refuses, in a file whose first line has two
// columns: the device declines the text, and a load on the device reports
// what the host's parse reports, the same message with the same line.
TEST_F(DeviceAssembly, TextTheDeviceDeclinesIsReportedByTheHostParse) {
  io::test::TempDir dir;
  const std::vector<std::string> refused = {
      "1 2\n1 2 3\n",   "1 2\n1\n",   "1 2\n1 x\n",    "1 2\n-1 2\n",
      "1 2\n+1 2\n",    "1 2\n1,2\n", "1 2\n1 2\r3\n", "1 2\n18446744073709551616 1\n",
      "1 2\n3 4\r\r\n", "1 2\n1\r\n", "1 2\n1 2x\n",   "1 2\n\x01 2\n",
  };
  int k = 0;
  for (const std::string& text : refused) {
    std::ostringstream name;
    name << "r" << k++ << ".txt";
    const std::string path = io::test::write_file(dir.file(name.str()), text);
    EXPECT_FALSE(assemble_edge_text_on_device({}, text, false, path, false).has_value()) << path;
    io::LoadOptions o;
    std::string host, device;
    try {
      io::read_edge_list(path, o);
    } catch (const InputError& e) {
      host = e.what();
    }
    o.assemble_on_device = true;
    try {
      io::read_edge_list(path, o);
    } catch (const InputError& e) {
      device = e.what();
    }
    EXPECT_FALSE(host.empty()) << path;
    EXPECT_EQ(device, host) << path;
  }
  // Comments only: no edge to parse on the device, and the host's "no edges".
  EXPECT_FALSE(
      assemble_edge_text_on_device({}, std::string_view("# nothing\n\n"), false, "c", false)
          .has_value());
  EXPECT_FALSE(
      assemble_edge_text_on_device({}, std::string_view(""), false, "empty", false).has_value());
  EXPECT_THROW(
      assemble_edge_text_on_device({}, std::string_view("1 2"), false, "no line end", false),
      ArgumentError);
}

// A loader hands the device the rest of a file whose front the host
// parsed: the host's edges (32- or 64-bit ids) then the text's, in that
// order, give the graph of the whole file, wherever the cut falls, ids past
// 32 bits on either side of it or on none.
TEST_F(DeviceAssembly, HostEdgesThenDeviceTextGiveTheWholeFilesGraph) {
  io::test::TempDir dir;
  std::uint64_t seed = 40;
  for (std::uint64_t stride : {std::uint64_t{1}, std::uint64_t{1000000000000}}) {
    const std::string text = edge_list(3000, 500, stride, false, seed++);
    const std::string path = io::test::write_file(dir.file("whole.txt"), text);
    // The host's reading of every line, as the loader's parse leaves it.
    std::vector<std::uint64_t> src, dst;
    std::vector<std::size_t> line_end;  // one past each edge line's '\n'
    std::istringstream lines(text);
    std::string line;
    std::size_t at = 0;
    while (std::getline(lines, line)) {
      at += line.size() + 1;
      if (line.empty() || line[0] == '#') continue;
      std::istringstream fields(line);
      std::uint64_t u = 0, v = 0;
      fields >> u >> v;
      src.push_back(u);
      dst.push_back(v);
      line_end.push_back(at);
    }
    for (bool undirected : {false, true}) {
      io::LoadOptions o;
      o.undirected = undirected;
      const Graph want = io::read_edge_list(path, o);
      for (std::size_t cut :
           {std::size_t{0}, std::size_t{1}, src.size() / 3, src.size() - 1, src.size()}) {
        // The host's part: the first `cut` edges, in two pieces, 64-bit or
        // (where every id fits) 32-bit.
        const std::size_t offset = cut == 0 ? 0 : line_end[cut - 1];
        const std::string_view rest = std::string_view(text).substr(offset);
        std::vector<std::uint32_t> s32(src.begin(), src.begin() + static_cast<std::ptrdiff_t>(cut)),
            d32(dst.begin(), dst.begin() + static_cast<std::ptrdiff_t>(cut));
        for (bool narrow : {false, true}) {
          const std::uint64_t largest =
              cut == 0 ? 0
                       : std::max(*std::max_element(src.begin(), src.begin() + cut),
                                  *std::max_element(dst.begin(), dst.begin() + cut));
          if (narrow && largest > 0xffffffffu) continue;
          std::vector<IdEdges> parts(2);
          const std::size_t half = cut / 2;
          for (int p = 0; p < 2; ++p) {
            const std::size_t b = p == 0 ? 0 : half, e = p == 0 ? half : cut;
            if (narrow) {
              parts[p].src32 = std::span<const std::uint32_t>(s32).subspan(b, e - b);
              parts[p].dst32 = std::span<const std::uint32_t>(d32).subspan(b, e - b);
            } else {
              parts[p].src = std::span<const std::uint64_t>(src).subspan(b, e - b);
              parts[p].dst = std::span<const std::uint64_t>(dst).subspan(b, e - b);
            }
            parts[p].max_id = largest;
          }
          const std::optional<AssembledCsr> a =
              assemble_edge_text_on_device(parts, {rest.data(), rest.size()}, undirected, path);
          std::ostringstream where;
          where << "stride " << stride << " cut " << cut << (narrow ? " 32-bit" : " 64-bit")
                << (undirected ? " undirected" : "");
          ASSERT_TRUE(a.has_value()) << where.str();
          EXPECT_EQ(a->ids, want.input_ids()) << where.str();
          EXPECT_EQ(a->adj.row_ptr(), want.adj().row_ptr()) << where.str();
          EXPECT_EQ(a->adj.col_idx(), want.adj().col_idx()) << where.str();
        }
      }
    }
  }
}

#else

TEST(DeviceAssembly, NeedsCuda) { GTEST_SKIP() << "built without CUDA"; }

#endif

}  // namespace
}  // namespace graphrun
