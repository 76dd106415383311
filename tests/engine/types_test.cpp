#include "graphrun/engine/types.hpp"

#include <gtest/gtest.h>

#include <limits>

#include "graphrun/engine/context.hpp"
#include "graphrun/engine/error.hpp"

namespace graphrun {
namespace {

TEST(CheckedArithmetic, ThrowsSizeErrorNamingTheQuantity) {
  const offset_t big = std::numeric_limits<offset_t>::max();
  EXPECT_EQ(checked_add<offset_t>(2, 3, "x"), 5);
  EXPECT_THROW(checked_add<offset_t>(big, 1, "edges"), SizeError);
  EXPECT_THROW(checked_mul<offset_t>(big / 2, 3, "bytes"), SizeError);
  try {
    checked_mul<offset_t>(big, 2, "intermediate products");
    FAIL();
  } catch (const SizeError& e) {
    EXPECT_NE(std::string(e.what()).find("intermediate products"), std::string::npos);
  }
  EXPECT_EQ(checked_cast<vertex_t>(std::int64_t{123}, "n"), 123);
  EXPECT_THROW(checked_cast<vertex_t>(std::int64_t{1} << 31, "vertices"), SizeError);
  EXPECT_THROW(checked_cast<vertex_t>(std::uint64_t{1} << 40, "vertices"), SizeError);
}

TEST(InputErrorMessage, NamesFileAndLine) {
  InputError e("g.txt", 17, "bad id");
  EXPECT_STREQ(e.what(), "g.txt:17: bad id");
  EXPECT_EQ(e.line(), 17);
  InputError f("g.txt", "truncated");
  EXPECT_STREQ(f.what(), "g.txt: truncated");
}

TEST(ContextTest, ResolvesThreadsAndParsesDevice) {
  Context c(Device::cpu, 3);
  EXPECT_EQ(c.threads(), 3);
  EXPECT_GE(Context().threads(), 1);
  EXPECT_THROW(Context(Device::cpu, -1), ArgumentError);
  EXPECT_EQ(parse_device("cuda"), Device::cuda);
  EXPECT_THROW(parse_device("gpu"), ArgumentError);
}

}  // namespace
}  // namespace graphrun
