// The parallel parser against a plain serial reference reader, on a file
// large enough for many chunks, with comments, blank lines and CRLF lines
// landing on chunk boundaries.

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <sstream>

#include "graphrun/io/load.hpp"
#include "io_test_support.hpp"

namespace graphrun::io::test {
namespace {

// The obvious reader: istringstream per line, std::map for the adjacency.
Arrays reference_read(const std::string& text, bool undirected) {
  std::map<std::pair<std::uint64_t, std::uint64_t>, double> adj;
  std::set<std::uint64_t> ids;
  bool weighted = false, first = true;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::vector<std::string> f;
    for (std::string s; fields >> s;) f.push_back(s);
    if (f.empty() || f[0][0] == '#' || f[0][0] == '%') continue;
    if (first) weighted = f.size() == 3, first = false;
    const std::uint64_t u = std::stoull(f[0]), v = std::stoull(f[1]);
    const double w = weighted ? std::stod(f[2]) : 1.0;
    ids.insert(u);
    ids.insert(v);
    adj[{u, v}] += w;
    if (undirected && u != v) adj[{v, u}] += w;
  }
  Arrays a;
  a.ids.assign(ids.begin(), ids.end());
  auto dense = [&](std::uint64_t id) {
    return static_cast<vertex_t>(std::lower_bound(a.ids.begin(), a.ids.end(), id) - a.ids.begin());
  };
  a.row_ptr.assign(a.ids.size() + 1, 0);
  for (const auto& [e, w] : adj) {  // map order: by input ids = by dense ids
    ++a.row_ptr[dense(e.first) + 1];
    a.col_idx.push_back(dense(e.second));
    if (weighted) a.values.push_back(w);
  }
  for (std::size_t i = 0; i + 1 < a.row_ptr.size(); ++i) a.row_ptr[i + 1] += a.row_ptr[i];
  return a;
}

std::string random_edge_list(std::uint64_t id_range, std::uint64_t id_offset, bool weighted,
                             int lines, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::ostringstream out;
  out << "# generated test graph\n";
  for (int i = 0; i < lines; ++i) {
    switch (rng() % 23) {
      case 0:
        out << "# a comment line that may straddle a chunk boundary\n";
        break;
      case 1:
        out << "\n";
        break;
      case 2:
        out << "%\t\r\n";
        break;
      default:
        break;
    }
    const std::uint64_t u = id_offset + rng() % id_range;
    const std::uint64_t v = rng() % 10 == 0 ? u : id_offset + rng() % id_range;
    out << u << (rng() % 2 ? "\t" : "  ") << v;
    if (weighted) out << ' ' << static_cast<double>(rng() % 2000) / 8.0 - 100.0;
    out << (rng() % 5 == 0 ? "\r\n" : "\n");
  }
  return out.str();
}

struct Variant {
  const char* name;
  std::uint64_t id_range, id_offset;
  bool weighted, undirected;
};

class ParallelParse : public ::testing::TestWithParam<Variant> {};

TEST_P(ParallelParse, EqualsSerialAndReference) {
  const Variant& v = GetParam();
  TempDir dir;
  const std::string text = random_edge_list(v.id_range, v.id_offset, v.weighted, 30000, 11);
  const std::string path = write_file(dir.file("g.txt"), text);
  const Arrays want = reference_read(text, v.undirected);
  ASSERT_GT(want.col_idx.size(), 1000u);

  LoadOptions serial;
  serial.undirected = v.undirected;
  serial.threads = 1;
  serial.chunk_bytes = std::size_t(1) << 30;  // one chunk
  EXPECT_EQ(arrays(read_edge_list(path, serial)), want);

  for (std::size_t chunk : {std::size_t(0), std::size_t(61), std::size_t(4096)}) {
    LoadOptions parallel = serial;
    parallel.threads = 2;
    parallel.chunk_bytes = chunk;
    EXPECT_EQ(arrays(read_edge_list(path, parallel)), want) << "chunk_bytes " << chunk;
  }
  const std::string gz = write_gz(dir.file("g.txt.gz"), text);
  EXPECT_EQ(arrays(read_edge_list(gz, options(v.undirected, 2))), want);
}

INSTANTIATE_TEST_SUITE_P(
    Files, ParallelParse,
    ::testing::Values(Variant{"dense_ids_unweighted", 5000, 0, false, false},
                      Variant{"dense_ids_weighted_undirected", 5000, 100, true, true},
                      Variant{"huge_ids_unweighted_undirected", 5000, 1ull << 62, false, true},
                      Variant{"huge_ids_weighted", 100000, 1ull << 50, true, false}),
    [](const auto& test_info) { return std::string(test_info.param.name); });

TEST(ParallelParseMatrixMarket, EqualsSerial) {
  TempDir dir;
  std::mt19937_64 rng(5);
  std::ostringstream out;
  out << "%%MatrixMarket matrix coordinate real symmetric\n% comment\n2000 2000 20000\n";
  for (int i = 0; i < 20000; ++i) {
    const auto a = 1 + rng() % 2000, b = 1 + rng() % 2000;
    out << std::max(a, b) << ' ' << std::min(a, b) << ' ' << (rng() % 100) / 4.0 << "\n";
  }
  const std::string path = write_file(dir.file("s.mtx"), out.str());
  const Graph serial = read_matrix_market_graph(path, options(false, 1));
  for (std::size_t chunk : {std::size_t(0), std::size_t(77)}) {
    const Graph parallel = read_matrix_market_graph(path, options(false, 2, chunk));
    EXPECT_EQ(arrays(parallel), arrays(serial));
  }
  EXPECT_FALSE(serial.directed());
  EXPECT_EQ(serial.n_vertices(), 2000);
}

}  // namespace
}  // namespace graphrun::io::test
