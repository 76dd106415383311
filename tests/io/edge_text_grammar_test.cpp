// The device's edge-list grammar (engine/src/edge_text_grammar.hpp, run
// here on the host) against the host's parse: on random texts built from
// ids, blanks, line ends, comment marks and stray bytes, cut into the
// device's slices of 64 bytes as its threads cut them, the two must accept
// the same texts and read the same edges in the same order. The host side
// is parse_chunk's loop over text_fields.hpp for two columns, itself held
// to read_edge_list on a sample of the texts (accepted or refused alike,
// the same edges once assembled).
#include "edge_text_grammar.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "graphrun/io/load.hpp"
#include "io_test_support.hpp"
#include "text_fields.hpp"
#include "text_input.hpp"

namespace graphrun::io::detail {
namespace {

using Edges = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

// The device's reading: every slice's lines, slice after slice. nullopt
// where a line is refused.
std::optional<Edges> device_edges(const std::string& text) {
  // Words as the device holds them: the text, then line ends.
  std::vector<unsigned long long> words(text.size() / 8 + 2, 0x0a0a0a0a0a0a0a0aull);
  std::memcpy(words.data(), text.data(), text.size());
  Edges out;
  for (std::size_t a = 0; a < text.size(); a += edge_text::kSliceBytes) {
    const std::size_t b = std::min(a + edge_text::kSliceBytes, text.size());
    edge_text::TextReader r(words.data());
    for (std::size_t p = edge_text::first_line_start(r, a, b); p < b;) {
      unsigned long long u = 0, v = 0;
      const edge_text::Line line = edge_text::parse_line(r, p, u, v);
      if (line == edge_text::Line::refused) return std::nullopt;
      if (line == edge_text::Line::edge) out.emplace_back(u, v);
    }
  }
  return out;
}

// The host's reading of two columns, as parse_chunk reads them.
std::optional<Edges> host_edges(std::string text) {
  const std::size_t size = text.size();
  text.append(text_padding, '\0');
  Edges out;
  for (const char* p = text.data(); p < text.data() + size;) {
    const char* q = skip_blanks(p);
    if (at_line_end(q) || *q == '#' || *q == '%') {
      p = next_line(q);
      continue;
    }
    std::uint64_t u = 0, v = 0;
    if (parse_u64(q, u) != FieldError::none) return std::nullopt;
    q = skip_blanks(q);
    if (at_line_end(q) || parse_u64(q, v) != FieldError::none) return std::nullopt;
    q = skip_blanks(q);
    if (!at_line_end(q)) return std::nullopt;
    p = q + (*q == '\r' ? 2 : 1);
    out.emplace_back(u, v);
  }
  return out;
}

// A text of pieces likely to meet at every kind of boundary, ending in
// '\n': half of them well-formed lines among blank and comment lines, with
// at most one stray piece, the other half pieces in any order.
std::string random_text(std::mt19937_64& rng) {
  static const char* const any[] = {
      "0",
      "1",
      "9",
      "12",
      "4294967296",
      "18446744073709551615",
      "18446744073709551616",
      "00000000000000000000012",
      " ",
      "\t",
      "\r",
      "\n",
      "\r\n",
      "#",
      "%",
      "x",
      "-",
      "+",
      ",",
  };
  static const char* const between[] = {"\n", "\r\n", " \n", "\t\r\n", "# 1 2\n", "  %x\n"};
  const bool clean = rng() % 2 == 0;
  const int stray = clean && rng() % 3 == 0 ? static_cast<int>(rng() % 40) : -1;
  std::string t;
  const int n = static_cast<int>(rng() % 40);
  for (int i = 0; i < n; ++i) {
    if (i == stray || (!clean && rng() % 3 != 0)) {
      t += any[rng() % std::size(any)];
    } else if (clean && rng() % 4 == 0) {
      t += between[rng() % std::size(between)];
    } else {
      if (rng() % 4 == 0) t += rng() % 2 ? " " : "\t";
      t += std::to_string(rng() % 1000);
      t += rng() % 4 == 0 ? "\t " : " ";
      t += std::to_string(rng() % 1000);
      if (rng() % 4 == 0) t += rng() % 2 ? " " : "\t";
      t += rng() % 5 == 0 ? "\r\n" : "\n";
    }
  }
  if (rng() % 4 == 0) t.append(rng() % 200, rng() % 2 ? ' ' : '#');
  t += '\n';
  return t;
}

TEST(EdgeTextGrammar, TheDeviceReadsWhatTheHostReads) {
  std::mt19937_64 rng(7);
  int accepted = 0;
  for (int i = 0; i < 200000; ++i) {
    const std::string text = random_text(rng);
    const std::optional<Edges> device = device_edges(text), host = host_edges(text);
    ASSERT_EQ(device.has_value(), host.has_value()) << "text: " << printable(text);
    if (!host) continue;
    ASSERT_EQ(*device, *host) << "text: " << printable(text);
    accepted += !host->empty();
  }
  EXPECT_GT(accepted, 50000);  // both branches are well exercised
}

// The host reading above is read_edge_list's: the same texts accepted, and
// the same edges once assembled (directed, duplicates merged).
TEST(EdgeTextGrammar, TheHostReadingIsTheReadersOwn) {
  io::test::TempDir dir;
  std::mt19937_64 rng(8);
  int compared = 0;
  for (int i = 0; i < 600; ++i) {
    const std::string text = random_text(rng);
    // Files whose first data line has two fields: read_edge_list reads
    // three as a weighted list, which the device never parses.
    const char* p = text.c_str();
    while (*p != '\0') {
      const char* q = skip_blanks(p);
      if (!at_line_end(q) && *q != '#' && *q != '%') break;
      p = next_line(q);
    }
    if (*p == '\0' || count_fields(p) != 2) continue;
    const std::optional<Edges> host = host_edges(text);
    const std::string path = io::test::write_file(dir.file("g.txt"), text);
    std::optional<Graph> g;
    try {
      g = read_edge_list(path);
    } catch (const InputError&) {
    }
    ASSERT_EQ(g.has_value(), host.has_value() && !host->empty()) << printable(text);
    if (!g) continue;
    const std::set<std::pair<std::uint64_t, std::uint64_t>> distinct(host->begin(), host->end());
    EXPECT_EQ(static_cast<std::size_t>(g->adj().nnz()), distinct.size()) << printable(text);
    std::set<std::uint64_t> ids;
    for (const auto& [u, v] : *host) ids.insert({u, v});
    EXPECT_EQ(g->input_ids(), std::vector<std::uint64_t>(ids.begin(), ids.end()));
    ++compared;
  }
  EXPECT_GT(compared, 150);
}

}  // namespace
}  // namespace graphrun::io::detail
