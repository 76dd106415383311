// ABC input ("name name [weight]", as mcl --abc reads it): vertices numbered
// in order of first appearance, the edge-list reader's policies for weights,
// duplicates and --undirected, FILE:LINE errors, and round trips through the
// edge-list writer and the .grb cache.

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "graphrun/io/load.hpp"
#include "graphrun/io/write.hpp"
#include "io_test_support.hpp"

namespace graphrun::io::test {
namespace {

std::vector<std::string> names_of(const Graph& g) {
  std::vector<std::string> out;
  for (vertex_t v = 0; v < g.n_vertices(); ++v) out.emplace_back(g.name(v));
  return out;
}

// Out-neighbours of the vertex called `name`, by name, in column order.
std::vector<std::string> targets(const Graph& g, const std::string& name) {
  const auto v = g.find_name(name);
  EXPECT_TRUE(v.has_value()) << name;
  std::vector<std::string> out;
  if (!v) return out;
  for (const vertex_t j : g.adj().row_cols(*v)) out.emplace_back(g.name(j));
  return out;
}

LoadOptions abc_options(bool undirected, Duplicates dup = Duplicates::sum) {
  LoadOptions o = options(undirected);
  o.duplicates = dup;
  return o;
}

TEST(Abc, VerticesAreNumberedInOrderOfFirstAppearance) {
  TempDir dir;
  const std::string path = write_file(dir.file("g.abc"),
                                      "YKR068C\tYAL001C\n"
                                      "ZZZ YKR068C\n"
                                      "AAA\tZZZ\n"
                                      "YAL001C AAA\n");
  const Graph g = read_abc(path);
  EXPECT_TRUE(g.has_names());
  EXPECT_TRUE(g.directed());
  EXPECT_FALSE(g.weighted());
  EXPECT_TRUE(g.adj().is_pattern());
  EXPECT_TRUE(g.input_ids().empty());
  EXPECT_EQ(names_of(g), (std::vector<std::string>{"YKR068C", "YAL001C", "ZZZ", "AAA"}));
  EXPECT_EQ(g.n_edges(), 4);
  EXPECT_EQ(targets(g, "ZZZ"), (std::vector<std::string>{"YKR068C"}));
  EXPECT_EQ(targets(g, "YAL001C"), (std::vector<std::string>{"AAA"}));
  EXPECT_EQ(g.find_name("AAA"), 3);
  EXPECT_FALSE(g.find_name("aaa").has_value());
  EXPECT_EQ(g.label(1), "YAL001C");
}

TEST(Abc, NumericLookingNamesAreNamesToo) {
  TempDir dir;
  const Graph g = read_abc(write_file(dir.file("n.abc"), "10 7\n007 10\n"));
  EXPECT_EQ(names_of(g), (std::vector<std::string>{"10", "7", "007"}));
  EXPECT_EQ(g.find_name("7"), 1);
  EXPECT_EQ(g.find_name("007"), 2);
  EXPECT_NE(g.find_name("7"), g.find_name("007"));
}

TEST(Abc, WeightsAreReadLikeAnEdgeList) {
  TempDir dir;
  const Graph g = read_abc(write_file(dir.file("w.abc"), "a b 0.5\nb c +2\nc a -1.25e0\n"));
  EXPECT_TRUE(g.weighted());
  ASSERT_FALSE(g.adj().is_pattern());
  // Rows a, b, c hold one entry each: a->b, b->c, c->a. Negative weights
  // are accepted, as read_edge_list accepts them.
  EXPECT_EQ(g.adj().values(), (std::vector<double>{0.5, 2.0, -1.25}));
}

TEST(Abc, RepeatedEdgesFollowTheDuplicatesOption) {
  TempDir dir;
  const std::string weighted = write_file(dir.file("d.abc"), "x y 1\nx y 2.5\ny x 4\nx y 1.5\n");
  EXPECT_EQ(read_abc(weighted).adj().values(), (std::vector<double>{5.0, 4.0}));
  EXPECT_EQ(read_abc(weighted, abc_options(false, Duplicates::max)).adj().values(),
            (std::vector<double>{2.5, 4.0}));
  EXPECT_EQ(read_abc(weighted, abc_options(false, Duplicates::last)).adj().values(),
            (std::vector<double>{1.5, 4.0}));
  // Undirected: x-y and y-x are the same edge, summed in both directions.
  EXPECT_EQ(read_abc(weighted, abc_options(true)).adj().values(), (std::vector<double>{9.0, 9.0}));

  // Unweighted: a repeated edge counts once.
  const Graph u = read_abc(write_file(dir.file("u.abc"), "x y\nx y\ny x\n"));
  EXPECT_EQ(u.n_edges(), 2);
  EXPECT_TRUE(u.adj().is_pattern());
}

TEST(Abc, UndirectedIsWhatTheEdgeListReaderBuilds) {
  TempDir dir;
  // The same graph under names that appear in ascending order of the ids,
  // so that both readers number the vertices alike.
  const std::string abc = write_file(dir.file("g.abc"), "v0 v1 1\nv1 v2 2\nv2 v2 3\nv0 v2 4\n");
  const std::string txt = write_file(dir.file("g.txt"), "0 1 1\n1 2 2\n2 2 3\n0 2 4\n");
  for (const bool undirected : {false, true}) {
    SCOPED_TRACE(undirected);
    const Graph a = read_abc(abc, options(undirected));
    const Graph e = read_edge_list(txt, options(undirected));
    EXPECT_EQ(a.directed(), e.directed());
    EXPECT_EQ(a.adj().row_ptr(), e.adj().row_ptr());
    EXPECT_EQ(a.adj().col_idx(), e.adj().col_idx());
    EXPECT_EQ(a.adj().values(), e.adj().values());
  }
  // A self loop stays one entry.
  EXPECT_EQ(read_abc(abc, options(true)).n_edges(), 7);
}

TEST(Abc, CommentsBlankLinesCrlfAndGzipGiveTheSameGraph) {
  TempDir dir;
  const std::string text =
      "# header\n"
      "\n"
      "   \t\n"
      "  a\t\tb  \n"
      "#b c\n"
      "b c\r\n"
      "\t# indented comment\n"
      "% a\n";
  const Graph plain = read_abc(write_file(dir.file("c.abc"), text + "c a"));  // no final newline
  EXPECT_EQ(names_of(plain), (std::vector<std::string>{"a", "b", "c", "%"}));
  EXPECT_EQ(plain.n_edges(), 4);
  const Graph gz = read_abc(write_gz(dir.file("c.abc.gz"), text + "c a\n"));
  EXPECT_EQ(arrays(gz), arrays(plain));
  EXPECT_EQ(names_of(gz), names_of(plain));
  // load_graph reads gzip ABC by content, whatever the name, with abc set.
  LoadOptions o;
  o.abc = true;
  const Graph loaded = load_graph(write_gz(dir.file("c.mtx"), text + "c a\n"), o);
  EXPECT_EQ(names_of(loaded), names_of(plain));
}

TEST(Abc, NamesMayHoldAnyBytesButBlanks) {
  TempDir dir;
  const std::vector<std::string> odd = {
      "α-β/γ",         "name#with#hashes", "'quoted'", "\"dq\"", "semi;colon,comma",
      "a\x01\x7f\xff", "%percent",         "-1",       "1e5",    "back\\slash",
      "ends#"};
  std::string text;
  for (std::size_t i = 0; i + 1 < odd.size(); ++i) text += odd[i] + " " + odd[i + 1] + "\n";
  text += std::string("nul") + '\0' + "byte " + odd[0] + "\n";
  const Graph g = read_abc(write_file(dir.file("odd.abc"), text));
  std::vector<std::string> expect = odd;
  expect.push_back(std::string("nul") + '\0' + "byte");
  EXPECT_EQ(names_of(g), expect);
  for (std::size_t i = 0; i < expect.size(); ++i)
    EXPECT_EQ(g.find_name(expect[i]), static_cast<vertex_t>(i)) << i;
}

TEST(Abc, LoadGraphUsesTheAbcReaderOnlyWhenAsked) {
  TempDir dir;
  const std::string path = write_file(dir.file("numbers.txt"), "5 3\n3 9\n");
  const Graph numeric = load_graph(path);
  EXPECT_FALSE(numeric.has_names());
  EXPECT_EQ(numeric.input_ids(), (std::vector<std::uint64_t>{3, 5, 9}));
  LoadOptions o;
  o.abc = true;
  const Graph named = load_graph(path, o);
  EXPECT_TRUE(named.has_names());
  EXPECT_EQ(names_of(named), (std::vector<std::string>{"5", "3", "9"}));
}

TEST(Abc, StatsAndProgress) {
  TempDir dir;
  std::string text;
  // Appended piece by piece: GCC 12 warns falsely on chains of operator+.
  for (int i = 0; i < 200000; ++i) {
    text += 'p';
    text += std::to_string(i % 5000);
    text += " q";
    text += std::to_string(i % 777);
    text += '\n';
  }
  LoadOptions o;
  std::vector<double> seen;
  o.on_progress = [&](double f) { seen.push_back(f); };
  LoadStats stats;
  const Graph g = read_abc(write_file(dir.file("big.abc"), text), o, &stats);
  EXPECT_EQ(g.n_vertices(), 5000 + 777);
  EXPECT_EQ(stats.bytes_read, text.size());
  EXPECT_GE(stats.seconds_read, 0.0);
  EXPECT_GE(stats.seconds_build, 0.0);
  ASSERT_FALSE(seen.empty());
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
  EXPECT_EQ(seen.back(), 1.0);
}

// As mcl reads ABC: a line without a weight weighs 1, and one weighted line
// makes the whole graph weighted.
TEST(Abc, LinesWithAndWithoutWeightsMix) {
  TempDir dir;
  const std::string path = write_file(dir.file("mixed.abc"), "a b\nb c 2.5\nc d\n");
  const Graph g = read_abc(path);
  ASSERT_TRUE(g.weighted());
  ASSERT_EQ(g.n_vertices(), 4);
  const auto& a = g.adj();
  ASSERT_EQ(a.nnz(), 3);
  EXPECT_EQ(a.values()[0], 1.0);  // a -> b
  EXPECT_EQ(a.values()[1], 2.5);  // b -> c
  EXPECT_EQ(a.values()[2], 1.0);  // c -> d
}

// The parse runs in line chunks on several threads; the numbering must still
// be the order of first appearance in the whole file, whatever the chunks.
TEST(Abc, ChunkedParseNumbersNamesAsOneSerialPass) {
  TempDir dir;
  std::mt19937_64 rng(7);
  std::string text;
  std::vector<std::string> expected;  // first appearance, computed here
  std::set<std::string> seen;
  auto name = [&](std::uint64_t k) {
    std::string v = "p";  // (appended, not "p" + ...: GCC 12 warns falsely on the latter)
    return v.append(std::to_string(k * 2654435761u % 100003));
  };
  for (int line = 0; line < 20000; ++line) {
    // Skewed choice: a few hubs recur in every chunk, most names are rare.
    const std::uint64_t a = rng() % (rng() % 2 ? 50 : 30000), b = rng() % 30000;
    for (const std::string& v : {name(a), name(b)})
      if (seen.insert(v).second) expected.push_back(v);
    text.append(name(a)).append(line % 3 ? "\t" : " ").append(name(b));
    text.append(line % 5 ? "\n" : " 0.5\n");
    if (line % 97 == 0) text += "# a comment\n\n";
  }
  const std::string path = write_file(dir.file("chunks.abc"), text);
  LoadOptions one = abc_options(false);
  one.threads = 1;
  one.chunk_bytes = text.size() + 1;
  const Graph serial = read_abc(path, one);
  EXPECT_EQ(names_of(serial), expected);
  for (const std::size_t chunk : {std::size_t{64}, std::size_t{1000}, std::size_t{40000}}) {
    LoadOptions o = abc_options(false);
    o.threads = 3;
    o.chunk_bytes = chunk;
    const Graph g = read_abc(path, o);
    EXPECT_EQ(names_of(g), expected) << chunk;
    EXPECT_EQ(g.adj().row_ptr(), serial.adj().row_ptr()) << chunk;
    EXPECT_EQ(g.adj().col_idx(), serial.adj().col_idx()) << chunk;
    EXPECT_EQ(g.adj().values(), serial.adj().values()) << chunk;
  }
}

TEST(AbcErrors, TheEarliestBadLineIsReportedWhateverTheChunks) {
  TempDir dir;
  std::string text;
  for (int line = 1; line <= 3000; ++line)
    if (line == 1234 || line == 2500)
      text += "lonely\n";
    else
      text.append("u").append(std::to_string(line)).append(" v\n");
  const std::string path = write_file(dir.file("late.abc"), text);
  for (const std::size_t chunk : {std::size_t{50}, std::size_t{4096}, text.size() + 1}) {
    LoadOptions o = abc_options(false);
    o.threads = 4;
    o.chunk_bytes = chunk;
    expect_input_error([&] { read_abc(path, o); }, path, 1234, "found 1");
  }
}

// ---------------------------------------------------------------- errors

struct BadAbcCase {
  const char* name;
  const char* text;
  std::int64_t line;
  const char* fragment;
};

const BadAbcCase bad_abc_cases[] = {
    {"one_field_first", "# h\nYKR068C\n", 2,
     "expected 2 or 3 columns (source, target [, weight]), found 1"},
    {"four_fields_first", "a b 1 x\n", 1, "expected 2 or 3 columns"},
    {"one_field_later", "a b\n\nc\n", 3,
     "expected 2 or 3 columns (source, target [, weight]), found 1"},
    {"four_fields_later", "a b 1\nb c 2 3\n", 2,
     "expected 2 or 3 columns (source, target [, weight]), found 4"},
    {"bad_weight", "a b 1\nb c heavy\n", 2, "weight 'heavy' is not a number"},
    {"weight_suffix", "a b 1.5x\n", 1, "weight '1.5x' is not a number"},
    {"weight_nan", "a b 1\nb c nan\n", 2, "weight 'nan' is not a finite number"},
    {"weight_inf", "a b inf\n", 1, "weight 'inf' is not a finite number"},
    {"weight_overflow", "a b 1\r\nb a 1e999\r\n", 2, "not a finite number"},
    {"stray_carriage_return", "a b\nb\rc d\n", 2, "carriage return"},
};

class AbcErrors : public ::testing::TestWithParam<BadAbcCase> {};

TEST_P(AbcErrors, NameFileAndLine) {
  const BadAbcCase& c = GetParam();
  TempDir dir;
  const std::string path = write_file(dir.file(std::string(c.name) + ".abc"), c.text);
  expect_input_error([&] { read_abc(path); }, path, c.line, c.fragment);
  const std::string gz = write_gz(dir.file(std::string(c.name) + ".abc.gz"), c.text);
  expect_input_error([&] { read_abc(gz); }, gz, c.line, c.fragment);
}

INSTANTIATE_TEST_SUITE_P(Malformed, AbcErrors, ::testing::ValuesIn(bad_abc_cases),
                         [](const auto& test_info) { return std::string(test_info.param.name); });

TEST(AbcErrors, EmptyFileHasNoEdgesAsInAnEdgeList) {
  TempDir dir;
  for (const char* text : {"", "\n\n", "# only\n# comments\n   \n"}) {
    const std::string path = write_file(dir.file("empty.abc"), text);
    expect_input_error([&] { read_abc(path); }, path, 0, "no edges");
    expect_input_error([&] { read_edge_list(path); }, path, 0, "no edges");
  }
  const std::string gz = write_gz(dir.file("empty.gz"), "");
  expect_input_error([&] { read_abc(gz); }, gz, 0, "no edges");
}

TEST(AbcErrors, MissingFileNamesPathAndReason) {
  LoadOptions o;
  o.abc = true;
  const std::string path = "/nonexistent/graphrun/g.abc";
  expect_input_error([&] { load_graph(path, o); }, path, 0, "No such file or directory");
}

TEST(AbcErrors, ACacheGivenAsAbcIsRecognised) {
  TempDir dir;
  write_cache(dir.file("g.grb"), read_abc(write_file(dir.file("g.abc"), "a b\n")));
  expect_input_error([&] { read_abc(dir.file("g.grb")); }, dir.file("g.grb"), 0,
                     "is a graphrun cache");
}

// ---------------------------------------------------------------- round trips

const char* const round_trip_text =
    "# names out of alphabetical order, vertices that first appear as a\n"
    "# target, as a source, and both at once (k b)\n"
    "m z 1.5\n"
    "z a 2\n"
    "q m 0.25\n"
    "a a 7\n"
    "m a 1\n"
    "sink#1 q 3\n"
    "q sink#1 -2\n"
    "k b 1\n"
    "b k 1\n"
    "b m 1\n"
    "m k 5\n";

std::vector<Graph> round_trip_graphs(const TempDir& dir) {
  const std::string path = write_file(dir.file("rt.abc"), round_trip_text);
  std::string unweighted;
  for (const char* p = round_trip_text; *p;) {
    // Drop the third column for the pattern variant.
    std::string line;
    while (*p && *p != '\n') line += *p++;
    if (*p) ++p;
    if (!line.empty() && line[0] != '#') line = line.substr(0, line.rfind(' '));
    unweighted += line + "\n";
  }
  const std::string plain = write_file(dir.file("rt-plain.abc"), unweighted);
  return {read_abc(path), read_abc(path, options(true)), read_abc(plain),
          read_abc(plain, options(true))};
}

TEST(AbcRoundTrip, EdgeListWriterWritesNamesThatReadBackAsTheSameGraph) {
  TempDir dir;
  for (const Graph& g : round_trip_graphs(dir)) {
    SCOPED_TRACE(std::string(g.directed() ? "directed" : "undirected") +
                 (g.weighted() ? " weighted" : " unweighted"));
    write_edge_list(dir.file("out.abc"), g);
    const std::string written = read_file(dir.file("out.abc"));
    EXPECT_NE(written.find("sink#1"), std::string::npos) << written;
    EXPECT_NE(written.find("--abc"), std::string::npos) << written;
    const Graph back = read_abc(dir.file("out.abc"), options(!g.directed()));
    EXPECT_EQ(names_of(back), names_of(g)) << written;
    EXPECT_EQ(arrays(back), arrays(g)) << written;
    EXPECT_EQ(back.weighted(), g.weighted());
    EXPECT_EQ(back.directed(), g.directed());
  }
}

TEST(AbcRoundTrip, EdgeListWriterRefusesNamesThatCannotReadBack) {
  TempDir dir;
  Coo<double> coo{2, 2, {0}, {1}, {}};
  const Graph blank = Graph::with_names(Csr<double>::from_coo(coo), {"a b", "c"}, true, false);
  EXPECT_THROW(write_edge_list(dir.file("x.abc"), blank), ArgumentError);
  const Graph hash = Graph::with_names(Csr<double>::from_coo(coo), {"#a", "c"}, true, false);
  EXPECT_THROW(write_edge_list(dir.file("x.abc"), hash), ArgumentError);
  // '#' is fine where it does not start a line.
  const Graph later = Graph::with_names(Csr<double>::from_coo(coo), {"c", "#a"}, true, false);
  write_edge_list(dir.file("y.abc"), later);
  EXPECT_EQ(names_of(read_abc(dir.file("y.abc"))), (std::vector<std::string>{"c", "#a"}));
  EXPECT_FALSE(fs::exists(dir.file("x.abc")));
}

TEST(AbcRoundTrip, CacheKeepsTheNames) {
  TempDir dir;
  for (const Graph& g : round_trip_graphs(dir)) {
    write_cache(dir.file("g.grb"), g);
    const Graph back = read_cache(dir.file("g.grb"));
    ASSERT_TRUE(back.has_names());
    EXPECT_EQ(names_of(back), names_of(g));
    EXPECT_EQ(arrays(back), arrays(g));
    EXPECT_EQ(back.weighted(), g.weighted());
    EXPECT_EQ(back.directed(), g.directed());
    EXPECT_EQ(back.find_name("sink#1"), g.find_name("sink#1"));
  }
}

TEST(AbcRoundTrip, UndirectedLoadOfANamedCacheKeepsTheNames) {
  TempDir dir;
  const std::string path = write_file(dir.file("rt.abc"), round_trip_text);
  write_cache(dir.file("d.grb"), read_abc(path));
  const Graph g = load_graph(dir.file("d.grb"), options(true));
  const Graph expect = read_abc(path, options(true));
  EXPECT_FALSE(g.directed());
  EXPECT_EQ(names_of(g), names_of(expect));
  EXPECT_EQ(arrays(g), arrays(expect));
}

// The names made the cache format version 2 (io/src/cache.cpp); version 1
// files, as earlier builds wrote them, must still load.
std::uint32_t crc_of(const std::string& bytes, std::size_t from, std::size_t to) {
  return static_cast<std::uint32_t>(
      crc32(0, reinterpret_cast<const Bytef*>(bytes.data() + from), static_cast<uInt>(to - from)));
}

void put_u32(std::string& bytes, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i)
    bytes[at + static_cast<std::size_t>(i)] = static_cast<char>(v >> (8 * i));
}

TEST(CacheVersions, WritesVersionTwoAndReadsVersionOne) {
  TempDir dir;
  write_cache(dir.file("named.grb"), read_abc(write_file(dir.file("a.abc"), "a b\n")));
  EXPECT_EQ(read_file(dir.file("named.grb"))[8], 2);
  // A pattern graph with ids 1, 2: payload row_ptr (3 x 8), col_idx (1 x 4),
  // no values, ids (2 x 8). Version 1's checksum restarted at the empty
  // values array, so it covered the ids only.
  const Graph g = read_edge_list(write_file(dir.file("a.txt"), "1 2\n"));
  write_cache(dir.file("plain.grb"), g);
  std::string v1 = read_file(dir.file("plain.grb"));
  ASSERT_EQ(v1.size(), 64u + 24 + 4 + 16);
  EXPECT_EQ(v1[8], 2);
  v1[8] = 1;
  put_u32(v1, 40, crc_of(v1, 64 + 24 + 4, v1.size()));
  put_u32(v1, 44, crc_of(v1, 0, 44));
  const Graph back = read_cache(write_file(dir.file("v1.grb"), v1));
  EXPECT_EQ(arrays(back), arrays(g));
  EXPECT_FALSE(back.has_names());
  // Version 2 checks every array: damage to col_idx is caught.
  std::string v2 = read_file(dir.file("plain.grb"));
  v2[64 + 24] = static_cast<char>(v2[64 + 24] ^ 0x01);
  const std::string bad = write_file(dir.file("bad.grb"), v2);
  expect_input_error([&] { read_cache(bad); }, bad, 0, "checksum mismatch");
  // Names in a version 1 header are impossible.
  std::string named = read_file(dir.file("named.grb"));
  named[8] = 1;
  put_u32(named, 44, crc_of(named, 0, 44));
  const std::string v1_named = write_file(dir.file("v1-named.grb"), named);
  expect_input_error([&] { read_cache(v1_named); }, v1_named, 0, "impossible header fields");
}

TEST(AbcRoundTrip, DamagedNamedCacheIsRefused) {
  TempDir dir;
  write_cache(dir.file("g.grb"), round_trip_graphs(dir)[0]);
  const std::string bytes = read_file(dir.file("g.grb"));
  for (std::size_t i = 64; i < bytes.size(); ++i) {
    std::string damaged = bytes;
    damaged[i] = static_cast<char>(damaged[i] ^ 0x01);
    const std::string path = write_file(dir.file("bad.grb"), damaged);
    EXPECT_THROW(read_cache(path), InputError) << "byte " << i;
  }
  const std::string cut = write_file(dir.file("cut.grb"), bytes.substr(0, bytes.size() - 1));
  expect_input_error([&] { read_cache(cut); }, cut, 0, "truncated graphrun cache");
  const std::string more = write_file(dir.file("more.grb"), bytes + "x");
  expect_input_error([&] { read_cache(more); }, more, 0, "oversized graphrun cache");
}

}  // namespace
}  // namespace graphrun::io::test
