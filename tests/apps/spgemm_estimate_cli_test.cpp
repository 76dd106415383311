// End-to-end tests of `graphrun spgemm --estimate`: the printed intermediate
// products, bound on nnz(C) and bytes per phase for small known products,
// no output file and no product written, the GPU estimate with or without
// a GPU, --help, and a shape mismatch still refused with status 2.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <set>
#include <sstream>
#include <string>

#include "cli_support.hpp"
#include "spgemm_matrices.hpp"

namespace {

using graphrun::test::describe;
using Result = graphrun::test::CliResult;

// A (2x3) and B (3x2) with A*B = [4 10; 18 21] (spgemm_matrices.hpp).
constexpr const char* matrix_a = graphrun::test::spgemm_matrix_a;
constexpr const char* matrix_b = graphrun::test::spgemm_matrix_b;

// All ones, 2x2: each row of M*M has 4 products in 2 columns.
constexpr const char* matrix_ones =
    "%%MatrixMarket matrix coordinate pattern general\n"
    "2 2 4\n"
    "1 1\n"
    "1 2\n"
    "2 1\n"
    "2 2\n";

// The text after "KEY:" on its line of the table, or "" when absent.
std::string value_of(const std::string& out, const std::string& key) {
  std::istringstream s(out);
  for (std::string line; std::getline(s, line);)
    if (line.rfind(key + ":", 0) == 0) {
      const auto v = line.find_first_not_of(' ', key.size() + 1);
      return v == std::string::npos ? "" : line.substr(v);
    }
  return "";
}

// The leading integer of the value (the exact figure), or -1.
std::int64_t number_of(const std::string& out, const std::string& key) {
  const std::string v = value_of(out, key);
  return v.empty() || !std::isdigit(static_cast<unsigned char>(v[0])) ? -1 : std::stoll(v);
}

// The bytes of a memory row ("  peak      12345  (12.1 KiB)  ..."), or -1.
std::int64_t bytes_of(const std::string& out, const std::string& label) {
  std::istringstream s(out);
  for (std::string line; std::getline(s, line);) {
    if (line.rfind("  " + label + " ", 0) != 0) continue;
    std::istringstream fields(line.substr(label.size() + 2));
    std::int64_t bytes = -1;
    fields >> bytes;
    return bytes;
  }
  return -1;
}

class SpgemmEstimateCliTest : public graphrun::test::CliFixture {
 protected:
  void SetUp() override {
    CliFixture::SetUp();
    write("A.mtx", matrix_a);
    write("B.mtx", matrix_b);
    write("M.mtx", matrix_ones);
  }
};

TEST_F(SpgemmEstimateCliTest, PrintsTheFiguresAndWritesNothing) {
  const Result r = run("spgemm A.mtx B.mtx --estimate --output C.mtx --threads 2");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(number_of(r.out, "intermediate products"), 4) << r.out;
  EXPECT_EQ(number_of(r.out, "largest row products"), 2) << r.out;
  EXPECT_EQ(number_of(r.out, "nnz(C) at most"), 4) << r.out;
  EXPECT_EQ(value_of(r.out, "rows with products"), "2 of 2") << r.out;
  EXPECT_EQ(value_of(r.out, "device"), "cpu, 2 threads") << r.out;
  EXPECT_NE(value_of(r.out, "A").find("2x3, 3 nnz"), std::string::npos) << r.out;
  // Bytes: A and B as read (3 and 4 entries of 12 bytes, 3 row pointers
  // each), and C at the bound: 3 row pointers and 4 entries.
  EXPECT_EQ(bytes_of(r.out, "inputs"), 3 * 8 + 3 * 12 + 4 * 8 + 4 * 12) << r.out;
  EXPECT_EQ(bytes_of(r.out, "output C"), 3 * 8 + 4 * 12) << r.out;
  std::int64_t sum = 0;
  for (const char* phase :
       {"inputs", "row analysis", "symbolic phase", "numeric phase", "output C"}) {
    const std::int64_t b = bytes_of(r.out, phase);
    EXPECT_GE(b, 0) << phase << "\n" << r.out;
    sum += b;
  }
  EXPECT_EQ(bytes_of(r.out, "peak"), sum) << r.out;
  EXPECT_NE(value_of(r.out, "physical memory").find("the peak fits"), std::string::npos) << r.out;
  // Nothing multiplied, nothing written.
  EXPECT_EQ(work_files(), (std::set<std::string>{"A.mtx", "B.mtx", "M.mtx"}));
  EXPECT_EQ(r.out.find("%%MatrixMarket"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("nothing multiplied"), std::string::npos) << r.err;
}

TEST_F(SpgemmEstimateCliTest, BoundBelowTheProductsWhenColumnsRepeat) {
  // M*M: 8 products, at most 2 columns per row; B = A counted once.
  const Result r = run("spgemm M.mtx --estimate -q");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(number_of(r.out, "intermediate products"), 8) << r.out;
  EXPECT_EQ(number_of(r.out, "largest row products"), 4) << r.out;
  EXPECT_EQ(number_of(r.out, "nnz(C) at most"), 4) << r.out;
  EXPECT_EQ(bytes_of(r.out, "inputs"), 3 * 8 + 4 * 4) << r.out;  // pattern: no values
  EXPECT_TRUE(r.err.empty()) << r.err;
  // The same figures as the product reports when it is computed.
  const Result real = run("spgemm M.mtx -o C.mtx");
  ASSERT_EQ(real.status, 0) << describe(real);
  EXPECT_NE(real.err.find("8 intermediate products (max 4 in a row)"), std::string::npos)
      << real.err;
}

TEST_F(SpgemmEstimateCliTest, TransposeB) {
  // A*Aᵀ: row 0 of A meets rows 0 and 1 of Aᵀ (one entry each), row 1 meets row 2.
  const Result r = run("spgemm A.mtx --transpose-b --estimate");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(number_of(r.out, "intermediate products"), 3) << r.out;
  EXPECT_EQ(number_of(r.out, "nnz(C) at most"), 3) << r.out;
  EXPECT_NE(value_of(r.out, "B").find("(transposed)"), std::string::npos) << r.out;
}

TEST_F(SpgemmEstimateCliTest, GpuEstimateNeedsNoGpu) {
  const Result r = run("spgemm A.mtx B.mtx --estimate --device cuda");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(value_of(r.out, "device"), "cuda") << r.out;
  EXPECT_EQ(number_of(r.out, "intermediate products"), 4) << r.out;
  // The GPU uploads A and B; C's row pointers and entries at the bound.
  EXPECT_EQ(bytes_of(r.out, "inputs"), 3 * 8 + 3 * 12 + 4 * 8 + 4 * 12) << r.out;
  EXPECT_EQ(bytes_of(r.out, "output C"), 3 * 8 + 4 * 12) << r.out;
  EXPECT_GE(bytes_of(r.out, "least"), 0) << r.out;
  EXPECT_GE(bytes_of(r.out, "peak"), bytes_of(r.out, "least")) << r.out;
  // Either the GPU's memory, or why there is none to compare with.
  const bool compared = !value_of(r.out, "free GPU memory").empty();
  const std::string none = value_of(r.out, "device memory");
  EXPECT_TRUE(compared || none.find("no GPU is present") != std::string::npos) << r.out;
  EXPECT_EQ(work_files(), (std::set<std::string>{"A.mtx", "B.mtx", "M.mtx"}));
}

TEST_F(SpgemmEstimateCliTest, HelpExplainsTheOption) {
  const Result r = run("spgemm --help");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_NE(r.out.find("--estimate"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ESTIMATE (--estimate):"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("without multiplying"), std::string::npos) << r.out;
}

TEST_F(SpgemmEstimateCliTest, ShapeMismatchStillExits2) {
  const Result r = run("spgemm A.mtx A.mtx --estimate");
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_NE(r.err.find("2x3"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

}  // namespace
