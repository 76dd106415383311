// LFR benchmark graphs against the published construction: the degree and
// community-size exponents fitted back from a large graph by maximum
// likelihood, the mean degree and the realized mixing within reach of what
// was asked, the structure every LFR graph has (a simple graph, community
// sizes in range, every vertex in one community), the same graph at any
// thread count, and clear errors for parameters that cannot be met.
#include "graphrun/generators/lfr.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "graphrun/engine/error.hpp"

namespace graphrun {
namespace {

gen::LfrOptions large_options() {
  gen::LfrOptions o;
  o.n = 200000;
  o.avg_degree = 20;
  o.max_degree = 100;
  o.mu = 0.3;
  o.tau1 = 2.5;
  o.tau2 = 1.5;
  o.min_community = 20;
  o.max_community = 200;
  o.seed = 7;
  return o;
}

// The exponent of the law the construction samples (a continuous power law,
// floored: P(k) ∝ ∫_k^{k+1} x^-tau dx), fitted by maximum likelihood to the
// values in [lo, hi] (golden-section search on the log-likelihood).
double fit_exponent(const std::vector<std::int64_t>& values, std::int64_t lo, std::int64_t hi) {
  std::vector<double> k;
  for (std::int64_t v : values)
    if (v >= lo && v <= hi) k.push_back(static_cast<double>(v));
  const auto mass = [](double a, double b, double tau) {  // ∫_a^b x^-tau dx
    return (std::pow(b, 1 - tau) - std::pow(a, 1 - tau)) / (1 - tau);
  };
  const auto log_likelihood = [&](double tau) {
    double s = 0;
    for (double x : k) s += std::log(mass(x, x + 1, tau));
    return s - static_cast<double>(k.size()) *
                   std::log(mass(static_cast<double>(lo), static_cast<double>(hi) + 1, tau));
  };
  double a = 1.05, b = 6.0;
  const double g = (std::sqrt(5.0) - 1) / 2;
  for (int it = 0; it < 80; ++it) {
    const double c = b - g * (b - a), d = a + g * (b - a);
    if (log_likelihood(c) > log_likelihood(d))
      b = d;
    else
      a = c;
  }
  return (a + b) / 2;
}

TEST(Lfr, MatchesThePublishedConstruction) {
  const gen::LfrOptions o = large_options();
  const gen::LfrGraph g = gen::lfr(o);
  const auto n = static_cast<std::size_t>(o.n);
  ASSERT_EQ(g.community.size(), n);

  std::vector<std::int64_t> degree(n, 0), outside(n, 0);
  for (std::size_t e = 0; e < g.edges.row.size(); ++e) {
    const vertex_t x = g.edges.row[e], y = g.edges.col[e];
    ++degree[x];
    ++degree[y];
    if (g.community[x] != g.community[y]) {
      ++outside[x];
      ++outside[y];
    }
  }
  const double mean = std::accumulate(degree.begin(), degree.end(), 0.0) / static_cast<double>(n);
  EXPECT_NEAR(mean, o.avg_degree, 0.02 * o.avg_degree);
  EXPECT_LE(*std::max_element(degree.begin(), degree.end()),
            static_cast<std::int64_t>(o.max_degree));
  // Realized mixing: recomputed here, equal to what the generator reports,
  // within 0.01 of what was asked.
  double mixing = 0;
  std::size_t counted = 0;
  for (std::size_t v = 0; v < n; ++v)
    if (degree[v] > 0) {
      mixing += static_cast<double>(outside[v]) / static_cast<double>(degree[v]);
      ++counted;
    }
  mixing /= static_cast<double>(counted);
  EXPECT_NEAR(mixing, g.mixing, 1e-12);
  EXPECT_NEAR(mixing, o.mu, 0.01);
  // Almost every stub found a place.
  EXPECT_LT(static_cast<double>(g.dropped_stubs), 0.005 * mean * static_cast<double>(n));

  // The exponents, fitted back. The law's lowest degree bin is partial (its
  // lower end is a real number, chosen for the mean), and a vertex that lost
  // a stub falls below it; every full bin holds fewer vertices than the one
  // before, so the fit starts above the histogram's peak.
  std::vector<std::int64_t> histogram(o.max_degree + 1, 0);
  for (std::int64_t d : degree) ++histogram[static_cast<std::size_t>(d)];
  const auto peak = std::max_element(histogram.begin(), histogram.end()) - histogram.begin();
  EXPECT_NEAR(fit_exponent(degree, peak + 1, static_cast<std::int64_t>(o.max_degree)), o.tau1,
              0.05);
  std::vector<std::int64_t> sizes(static_cast<std::size_t>(g.n_communities), 0);
  for (vertex_t c : g.community) ++sizes[static_cast<std::size_t>(c)];
  for (std::int64_t s : sizes) {
    EXPECT_GE(s, static_cast<std::int64_t>(o.min_community));
    EXPECT_LE(s, static_cast<std::int64_t>(o.max_community));
  }
  EXPECT_NEAR(fit_exponent(sizes, static_cast<std::int64_t>(o.min_community),
                           static_cast<std::int64_t>(o.max_community)),
              o.tau2, 0.15);
}

TEST(Lfr, IsASimpleGraphWithEveryVertexInACommunity) {
  for (double mu : {0.0, 0.1, 0.5, 0.8}) {
    gen::LfrOptions o;
    o.n = 5000;
    o.avg_degree = 15;
    o.max_degree = 60;
    o.mu = mu;
    o.seed = 3;
    const gen::LfrGraph g = gen::lfr(o);
    ASSERT_EQ(g.community.size(), o.n);
    for (vertex_t c : g.community) {
      ASSERT_GE(c, 0);
      ASSERT_LT(c, g.n_communities);
    }
    for (std::size_t e = 0; e < g.edges.row.size(); ++e) {
      ASSERT_LT(g.edges.row[e], g.edges.col[e]) << "mu " << mu;  // no loop, each edge once
      if (e > 0) {
        const bool ascending =
            g.edges.row[e - 1] < g.edges.row[e] ||
            (g.edges.row[e - 1] == g.edges.row[e] && g.edges.col[e - 1] < g.edges.col[e]);
        ASSERT_TRUE(ascending) << "mu " << mu << ", edge " << e;  // sorted, no repeat
      }
    }
    EXPECT_NEAR(g.mixing, mu, 0.02) << "a small graph, a looser bound";
  }
}

TEST(Lfr, TheSameGraphAtAnyThreadCountAndSeedDependent) {
  gen::LfrOptions o = large_options();
  o.n = 30000;
  const int before = omp_get_max_threads();
  omp_set_num_threads(1);
  const gen::LfrGraph one = gen::lfr(o);
  omp_set_num_threads(std::max(2, before));
  const gen::LfrGraph many = gen::lfr(o);
  omp_set_num_threads(before);
  EXPECT_EQ(one.edges.row, many.edges.row);
  EXPECT_EQ(one.edges.col, many.edges.col);
  EXPECT_EQ(one.community, many.community);
  o.seed = 8;
  const gen::LfrGraph other = gen::lfr(o);
  EXPECT_NE(other.edges.col, one.edges.col);
}

TEST(Lfr, ParametersThatCannotBeMetAreNamed) {
  const auto message = [](gen::LfrOptions o) -> std::string {
    try {
      gen::lfr(o);
    } catch (const ArgumentError& e) {
      return e.what();
    }
    return "no error";
  };
  gen::LfrOptions o;
  o.n = 1000;
  gen::LfrOptions bad = o;
  bad.mu = 1.0;
  EXPECT_NE(message(bad).find("--mu"), std::string::npos) << message(bad);
  bad = o;
  bad.avg_degree = 80;  // above --max-degree 50
  EXPECT_NE(message(bad).find("--degree"), std::string::npos) << message(bad);
  bad = o;
  bad.max_community = 10;  // internal degrees reach ~35
  EXPECT_NE(message(bad).find("--max-community"), std::string::npos) << message(bad);
  bad = o;
  bad.tau1 = 1.0;
  EXPECT_NE(message(bad).find("--tau1"), std::string::npos) << message(bad);
  bad = o;
  bad.n = 0;
  EXPECT_NE(message(bad).find("vertices"), std::string::npos) << message(bad);
}

}  // namespace
}  // namespace graphrun
