// The id scanner that reads eight digits at a time (text_fields.hpp's
// parse_u64) against a reference built on std::from_chars, on random fields
// of every length from none to past 64 bits, every kind of byte after them,
// and at every alignment, in buffers laid out as the text readers lay them
// out: the text, its final '\n', then text_padding zero bytes.

#include "text_fields.hpp"

#include <gtest/gtest.h>

#include <charconv>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "text_input.hpp"

namespace graphrun::io::detail {
namespace {

struct Scan {
  FieldError error = FieldError::none;
  std::uint64_t value = 0;
  std::ptrdiff_t consumed = 0;  // bytes the scanner moved past
  bool operator==(const Scan&) const = default;
};

void PrintTo(const Scan& s, std::ostream* os) {
  *os << "{error " << static_cast<int>(s.error) << ", value " << s.value << ", consumed "
      << s.consumed << "}";
}

Scan scan(const char* p) {
  Scan r;
  const char* q = p;
  r.error = parse_u64(q, r.value);
  r.consumed = q - p;
  if (r.error != FieldError::none) r.value = 0;
  return r;
}

// What parse_u64 must give, from the field's text alone.
Scan reference(const char* p) {
  Scan r;
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (!digit(*p)) {
    r.error = *p == '-' && digit(p[1]) ? FieldError::negative : FieldError::not_a_number;
    return r;
  }
  const char* e = p;
  while (digit(*e)) ++e;
  if (!ends_field(*e)) {
    r.error = FieldError::not_a_number;
    return r;
  }
  std::uint64_t v = 0;
  const auto res = std::from_chars(p, e, v);
  if (res.ec == std::errc::result_out_of_range) {
    r.error = FieldError::too_large;
    return r;
  }
  r.value = v;
  r.consumed = e - p;
  return r;
}

// `text` at offset `at` of a buffer ending as a TextBuffer does.
std::vector<char> laid_out(const std::string& text, std::size_t at) {
  std::vector<char> b(at, 'x');
  b.insert(b.end(), text.begin(), text.end());
  if (b.empty() || b.back() != '\n') b.push_back('\n');
  b.insert(b.end(), text_padding, '\0');
  return b;
}

TEST(ParseU64, MatchesTheReferenceOnRandomFields) {
  std::mt19937_64 rng(20261205);
  const std::string after = " \t\r\n-+.:/ae\x7f\xff";
  std::uniform_int_distribution<int> length(0, 24), byte(0, 255), pick(0, 99);
  for (int trial = 0; trial < 200000; ++trial) {
    std::string f;
    if (pick(rng) < 5) f += '-';
    const int digits = length(rng);
    // Leading zeros now and then: 00000000123 is 123.
    const bool zeros = pick(rng) < 10;
    for (int i = 0; i < digits; ++i)
      f += static_cast<char>('0' + (zeros && i < digits / 2 ? 0 : rng() % 10));
    // Whatever follows: a field end, a byte that makes the field no number,
    // or the buffer's own end.
    const int tail = pick(rng);
    if (tail < 80) f += after[rng() % after.size()];
    if (tail < 60)
      for (int i = 0, n = static_cast<int>(rng() % 20); i < n; ++i)
        f += static_cast<char>(byte(rng));
    const std::size_t at = rng() % 8;
    const std::vector<char> b = laid_out(f, at);
    const char* p = b.data() + at;
    ASSERT_EQ(scan(p), reference(p)) << "field '" << f << "'";
  }
}

TEST(ParseU64, EveryLengthUpToPast64BitsAtEveryAlignment) {
  for (std::size_t at = 0; at < 8; ++at)
    for (int n = 1; n <= 22; ++n)
      for (const char end : std::string(" \t\r\nx")) {
        std::string f;
        for (int i = 0; i < n; ++i) f += static_cast<char>('1' + (i * 7) % 9);
        f += end;
        const std::vector<char> b = laid_out(f, at);
        const char* p = b.data() + at;
        ASSERT_EQ(scan(p), reference(p)) << "field '" << f << "' at " << at;
      }
}

TEST(ParseU64, TheLimitsOf64Bits) {
  const auto value = [](const std::string& f) {
    const std::vector<char> b = laid_out(f + "\n", 0);
    return scan(b.data());
  };
  EXPECT_EQ(value("18446744073709551615"), (Scan{FieldError::none, 18446744073709551615u, 20}));
  EXPECT_EQ(value("18446744073709551616").error, FieldError::too_large);
  EXPECT_EQ(value("99999999999999999999").error, FieldError::too_large);
  EXPECT_EQ(value("0000000000000000000000000000042"), (Scan{FieldError::none, 42, 31}));
  EXPECT_EQ(value("12345678"), (Scan{FieldError::none, 12345678, 8}));
  EXPECT_EQ(value("1234567812345678"), (Scan{FieldError::none, 1234567812345678, 16}));
  EXPECT_EQ(value("0"), (Scan{FieldError::none, 0, 1}));
  EXPECT_EQ(value("-7").error, FieldError::negative);
  EXPECT_EQ(value("7a").error, FieldError::not_a_number);
  EXPECT_EQ(value("123456789012345678a").error, FieldError::not_a_number);
}

// The field that ends the text, with no '\n' of its own in the file: the
// reader appends one, and the padding follows.
TEST(ParseU64, AFieldAtTheVeryEndOfTheText) {
  for (int n = 1; n <= 20; ++n) {
    const std::string f(static_cast<std::size_t>(n), '9');
    const std::vector<char> b = laid_out(f, 3);
    const char* p = b.data() + 3;
    ASSERT_EQ(scan(p), reference(p)) << n << " digits";
  }
}

}  // namespace
}  // namespace graphrun::io::detail
