// Error messages quote the input printably: control characters escaped, no
// raw NUL to cut what() short, bytes that are not UTF-8 as \xNN, text in any
// script as it is, long fields cut with "...".

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstring>
#include <string>

#include "graphrun/io/labels.hpp"
#include "graphrun/io/load.hpp"
#include "graphrun/io/vertex_values.hpp"
#include "graphrun/io/write.hpp"
#include "io_test_support.hpp"
#include "printable.hpp"

namespace graphrun::io::test {
namespace {

using namespace std::string_literals;
using detail::printable;

TEST(Printable, EscapesControlBytes) {
  EXPECT_EQ(printable("plain text, 1.5e3 [x]"), "plain text, 1.5e3 [x]");
  EXPECT_EQ(printable("1\x1b[31m"), "1\\x1b[31m");
  EXPECT_EQ(printable("a\0b"s), "a\\0b");
  EXPECT_EQ(printable("\t\r\n"), "\\t\\r\\n");
  EXPECT_EQ(printable("\b\x7f\x01"), "\\x08\\x7f\\x01");
  EXPECT_EQ(printable("C:\\data"), "C:\\\\data");
}

TEST(Printable, KeepsUtf8AndEscapesTheRest) {
  EXPECT_EQ(printable("caf\xc3\xa9 \xe6\x9d\xb1 \xf0\x9f\x99\x82"),
            "caf\xc3\xa9 \xe6\x9d\xb1 \xf0\x9f\x99\x82");
  EXPECT_EQ(printable("\xc3"), "\\xc3");                             // cut short
  EXPECT_EQ(printable("\xc3(x"), "\\xc3(x");                         // bad continuation
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");                    // overlong '/'
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // a surrogate
  EXPECT_EQ(printable("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // past U+10FFFF
  EXPECT_EQ(printable("\xff\xfe"), "\\xff\\xfe");
  EXPECT_EQ(printable("\xc2\x9b"
                      "31m"),
            "\\u009b31m");                       // C1 CSI
  EXPECT_EQ(printable("\xc2\xa0"), "\xc2\xa0");  // no-break space is text
}

TEST(Printable, CutsAtFortyCharacters) {
  EXPECT_EQ(printable(std::string(40, 'a')), std::string(40, 'a'));
  EXPECT_EQ(printable(std::string(41, 'a')), std::string(40, 'a') + "...");
  std::string accents;
  for (int i = 0; i < 45; ++i) accents += "\xc3\xa9";
  EXPECT_EQ(printable(accents), accents.substr(0, 80) + "...");
  EXPECT_EQ(printable(std::string(50, '\x1b')).size(), 40 * 4 + 3u);
}

// The message of an InputError from fn: it starts with `prefix`, contains
// `fragment` in full (nothing cut at a NUL) and no control byte at all.
template <class Fn>
void expect_printable_error(Fn&& fn, const std::string& prefix, const std::string& fragment) {
  try {
    fn();
    ADD_FAILURE() << "expected InputError: " << fragment;
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.size(), std::strlen(e.what()));
    EXPECT_EQ(what.rfind(prefix, 0), 0u) << what;
    EXPECT_NE(what.find(fragment), std::string::npos) << what << "\nexpected: " << fragment;
    for (const char c : what)
      EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
          << "control byte " << int(c) << " in: " << printable(what, 1000);
  }
}

TEST(Messages, EdgeListIdsArePrintable) {
  TempDir dir;
  const std::string esc = write_file(dir.file("esc.txt"), "1 2\n1\x1b[31m 2\n");
  expect_printable_error([&] { read_edge_list(esc); }, esc + ":2: ",
                         "source id '1\\x1b[31m' is not a number; for named vertices use --abc");
  const std::string nul = write_file(dir.file("nul.txt"), "1 2\n\n3 4\0x 5\n"s);
  for (std::size_t chunk : {std::size_t(0), std::size_t(3)}) {
    LoadOptions o = options(false, 2, chunk);
    expect_printable_error([&] { read_edge_list(nul, o); }, nul + ":3: ",
                           "target id '4\\0x' is not a number; for named vertices use --abc");
  }
  const std::string weight = write_file(dir.file("w.txt"), "1 2 0.5\n1 2 \b\b\b\b9\n");
  expect_printable_error([&] { read_edge_list(weight); },
                         weight + ":2: ", "weight '\\x08\\x08\\x08\\x089' is not a number");
  const std::string gz = write_gz(dir.file("nul.txt.gz"), "7\0 8\n"s);
  expect_printable_error([&] { read_edge_list(gz); }, gz + ":1: ", "source id '7\\0' is not");
  const std::string longer =
      write_file(dir.file("long.txt"), "1 2\n" + std::string(100, 'y') + "\x1b 2\n");
  expect_printable_error([&] { read_edge_list(longer); }, longer + ":2: ",
                         "source id '" + std::string(40, 'y') + "...' is not a number");
}

TEST(Messages, AbcWeightsAndNamesArePrintable) {
  TempDir dir;
  const std::string esc = write_file(dir.file("esc.abc"), "a b 1\nb c 2\x1b[2J\n");
  expect_printable_error([&] { read_abc(esc); },
                         esc + ":2: ", "weight '2\\x1b[2J' is not a number");
  const std::string nul = write_file(dir.file("nul.abc"), "a b 1\0\n"s);
  expect_printable_error([&] { read_abc(nul); }, nul + ":1: ", "weight '1\\0' is not a number");
}

TEST(Messages, MatrixMarketHeaderAndSizeLineArePrintable) {
  TempDir dir;
  const std::string banner = "%%MatrixMarket matrix coordinate real general\n";
  const std::string esc = write_file(dir.file("esc.mtx"), banner + "3 3\x1b[2J 1\n1 1 1\n");
  expect_printable_error([&] { read_matrix_market(esc); },
                         esc + ":2: ", "column count '3\\x1b[2J' is not a number");
  const std::string nul = write_file(dir.file("nul.mtx"), banner + "% c\n3\0 3 1\n1 1 1\n"s);
  expect_printable_error([&] { read_matrix_market_graph(nul); },
                         nul + ":3: ", "row count '3\\0' is not a number");
  const std::string word =
      write_file(dir.file("word.mtx"), "%%MatrixMarket matrix coordinate real gen\x1b[0meral\n");
  expect_printable_error([&] { read_matrix_market(word); }, word + ":1: ",
                         "unsupported Matrix Market symmetry 'gen\\x1b[0meral' for field 'real'");
  const std::string entry = write_file(dir.file("entry.mtx"), banner + "3 3 1\n1 2 5\x7f\n");
  expect_printable_error([&] { read_matrix_market(entry); },
                         entry + ":3: ", "value '5\\x7f' is not a number");
}

TEST(Messages, LabelAndValueFilesArePrintable) {
  TempDir dir;
  const Graph g = read_abc(write_file(dir.file("g.abc"), "a\x1b b\n"));
  const std::string labels = write_file(dir.file("l.tsv"), "a\x1b\t1\nb\x01\t2\n");
  expect_printable_error([&] { read_vertex_labels(labels, g); },
                         labels + ":2: ", "vertex 'b\\x01' is not in the graph");
  const std::string missing = write_file(dir.file("m.tsv"), "b\t1\n");
  expect_printable_error([&] { read_vertex_labels(missing, g); },
                         missing + ":1: ", "vertex a\\x1b has no label");
  const std::string values = write_file(dir.file("v.tsv"),
                                        "a\x1b\t0.5\nb\t\x1b"
                                        "1\n");
  expect_printable_error([&] { read_vertex_values(values, g); },
                         values + ":2: ", "value '\\x1b1' is not a finite number");
}

// A cache whose names repeat is corrupt; the message names the name, with
// its NUL and ESC escaped.
TEST(Messages, CacheNamesArePrintable) {
  TempDir dir;
  const Graph g = read_abc(write_file(dir.file("g.abc"), "a\0\x1b x\nb\0\x1b x\n"s));
  const std::string path = dir.file("g.grb");
  write_cache(path, g);
  std::string bytes = read_file(path);
  // Rename "b\0\x1b" to "a\0\x1b", then make both checksums right again: the
  // payload's is the crc of everything after the 64-byte header.
  const std::size_t at = bytes.rfind("b\0\x1b"s);
  ASSERT_NE(at, std::string::npos);
  bytes[at] = 'a';
  auto crc = [](const std::string& s, std::size_t from, std::size_t n) {
    return static_cast<std::uint32_t>(
        crc32_z(0, reinterpret_cast<const Bytef*>(s.data() + from), n));
  };
  const std::uint32_t payload = crc(bytes, 64, bytes.size() - 64);
  std::memcpy(bytes.data() + 40, &payload, 4);
  const std::uint32_t header = crc(bytes, 0, 44);
  std::memcpy(bytes.data() + 44, &header, 4);
  write_file(path, bytes);
  expect_printable_error([&] { read_cache(path); }, path + ": ",
                         "corrupt graphrun cache: vertex name 'a\\0\\x1b' is given twice");
}

}  // namespace
}  // namespace graphrun::io::test
