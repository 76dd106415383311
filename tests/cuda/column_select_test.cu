// The block-wide order statistics of MCL's pruning (algorithms/src/cuda/
// column_select.cuh) against std::nth_element and a plain loop: columns of
// random values, of many ties, of one value, with zeros, of one entry and
// of 300,000 entries; k at both ends and between. A kernel of the test's own
// runs a block per column, as decide_columns does.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "cuda/column_select.cuh"
#include "graphrun/engine/context.hpp"
#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/engine/device_array.hpp"

namespace graphrun {
namespace {

constexpr int kBlock = 128;
using Select = detail::ColumnSelect<kBlock>;

struct Answer {
  float kth;
  long long count;
  double mass;
};

// Column j is vals[ptr[j], ptr[j + 1]); its k is ks[j].
__global__ void select_kernel(int columns, const std::int64_t* ptr, const float* vals,
                              const std::int64_t* ks, Answer* out) {
  __shared__ Select::Shared sel;
  for (int j = blockIdx.x; j < columns; j += gridDim.x) {
    const std::int64_t b = ptr[j], n = ptr[j + 1] - b;
    const float t = Select::kth_largest(vals + b, n, ks[j], sel);
    long long count = 0;
    double mass = 0;
    Select::at_least(vals + b, n, t, count, mass, sel);
    if (threadIdx.x == 0) out[j] = {t, count, mass};
    __syncthreads();
  }
}

TEST(ColumnSelectCuda, KthLargestAndMassAtLeastMatchASort) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  std::mt19937_64 rng(7);
  std::vector<std::vector<float>> columns;
  std::vector<std::string> what;
  auto add = [&](std::vector<float> c, const std::string& w) {
    columns.push_back(std::move(c));
    what.push_back(w);
  };
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (std::size_t n : {std::size_t{1}, std::size_t{37}, std::size_t{1400}, std::size_t{300000}}) {
    std::vector<float> c(n);
    for (float& x : c) x = unit(rng) * 1e-3f;
    add(c, "uniform " + std::to_string(n));
  }
  {
    std::vector<float> c(5000);  // a star's leaves: few distinct values, many ties
    std::uniform_int_distribution<int> pick(0, 3);
    for (float& x : c) x = 0.25f / static_cast<float>(1 + pick(rng));
    add(c, "ties");
  }
  add(std::vector<float>(2000, 1.0f / 2000), "one value");
  {
    std::vector<float> c(3000, 0.0f);  // zeros beside a few positive entries
    for (int i = 0; i < 40; ++i) c[static_cast<std::size_t>(rng() % c.size())] = unit(rng);
    add(c, "mostly zeros");
  }
  {
    std::vector<float> c(20000);  // a power law of magnitudes: many exponents
    std::exponential_distribution<double> e(0.2);
    for (float& x : c) x = static_cast<float>(std::exp(-e(rng)));
    add(c, "exponents");
  }
  std::vector<std::int64_t> ptr{0};
  std::vector<float> vals;
  std::vector<std::int64_t> ks;
  std::vector<std::string> labels;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const auto n = static_cast<std::int64_t>(columns[c].size());
    for (std::int64_t k : {std::int64_t{1}, n / 3 + 1, n / 2 + 1, std::min<std::int64_t>(1100, n),
                           std::min<std::int64_t>(1400, n), n}) {
      vals.insert(vals.end(), columns[c].begin(), columns[c].end());
      ptr.push_back(static_cast<std::int64_t>(vals.size()));
      ks.push_back(k);
      labels.push_back(what[c] + ", k " + std::to_string(k));
    }
  }
  const int n_columns = static_cast<int>(ks.size());
  const DeviceArray<std::int64_t> d_ptr(ptr), d_ks(ks);
  const DeviceArray<float> d_vals(vals);
  DeviceArray<Answer> d_out(static_cast<std::size_t>(n_columns));
  select_kernel<<<std::min(n_columns, 64), kBlock>>>(n_columns, d_ptr.data(), d_vals.data(),
                                                     d_ks.data(), d_out.data());
  GRAPHRUN_CUDA_CHECK(cudaGetLastError());
  const std::vector<Answer> out = d_out.download();
  for (int j = 0; j < n_columns; ++j) {
    std::vector<float> c(vals.begin() + ptr[j], vals.begin() + ptr[j + 1]);
    std::nth_element(c.begin(), c.begin() + (ks[j] - 1), c.end(), std::greater<float>());
    const float kth = c[static_cast<std::size_t>(ks[j] - 1)];
    long long count = 0;
    double mass = 0;
    for (std::int64_t p = ptr[j]; p < ptr[j + 1]; ++p)
      if (vals[static_cast<std::size_t>(p)] >= kth) {
        ++count;
        mass += vals[static_cast<std::size_t>(p)];
      }
    EXPECT_EQ(out[j].kth, kth) << labels[j];
    EXPECT_EQ(out[j].count, count) << labels[j];
    EXPECT_GE(out[j].count, ks[j]) << labels[j];
    EXPECT_NEAR(out[j].mass, mass, 1e-12 * static_cast<double>(count) * (1 + mass)) << labels[j];
  }
}

}  // namespace
}  // namespace graphrun
