// The PNG bar chart, read back through libgd: the image has the promised
// size, bars are found by their series colour and their heights follow the
// values, a NaN leaves its slot empty, bad data throws, and the file appears
// only whole (nothing is left behind when drawing fails).
#include "experiment/chart.hpp"

#include <gd.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "graphrun/engine/error.hpp"

namespace graphrun::cli::experiment {
namespace {

namespace fs = std::filesystem;
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

using Image = std::unique_ptr<gdImage, decltype(&gdImageDestroy)>;

Image read_png(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  return Image(gdImageCreateFromPngPtr(int(bytes.size()), bytes.data()), gdImageDestroy);
}

// A run of adjacent columns holding pixels of one colour: a bar, or a
// legend swatch (at the far right).
struct ColourRun {
  int x_begin = 0, x_end = 0;  // [x_begin, x_end)
  int height = 0;              // most pixels of the colour in one column
};

std::vector<ColourRun> colour_runs(gdImagePtr im, std::uint32_t rgb) {
  std::vector<ColourRun> runs;
  bool open = false;
  for (int x = 0; x < gdImageSX(im); ++x) {
    int count = 0;
    for (int y = 0; y < gdImageSY(im); ++y) {
      const int p = gdImageGetTrueColorPixel(im, x, y);
      const std::uint32_t pixel = std::uint32_t(gdTrueColorGetRed(p)) << 16 |
                                  std::uint32_t(gdTrueColorGetGreen(p)) << 8 |
                                  std::uint32_t(gdTrueColorGetBlue(p));
      count += pixel == rgb;
    }
    if (count > 0 && !open) runs.push_back({x, x, 0});
    open = count > 0;
    if (open) {
      runs.back().x_end = x + 1;
      runs.back().height = std::max(runs.back().height, count);
    }
  }
  return runs;
}

class ChartTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/graphrun-chart-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path dir_;
};

BarChart one_series(std::vector<double> values) {
  BarChart c;
  c.title = "speed-up over mcl";
  c.y_label = "speed-up";
  for (std::size_t i = 0; i < values.size(); ++i) c.categories.push_back(std::to_string(i));
  c.series.push_back({"graphrun", std::move(values)});
  return c;
}

TEST_F(ChartTest, BarsFollowTheValuesAndNaNLeavesAGap) {
  BarChart c = one_series({1.0, 3.0, nan, 2.0});
  c.reference_line = 1.0;
  const fs::path png = dir_ / "chart.png";
  write_png(png.string(), c);
  const Image im = read_png(png);
  ASSERT_TRUE(im);
  EXPECT_EQ(gdImageSX(im.get()), 640);  // four groups fit in the minimum size
  EXPECT_EQ(gdImageSY(im.get()), 400);

  // Three bars and the legend swatch; the bar of NaN is missing.
  const std::vector<ColourRun> runs = colour_runs(im.get(), series_colour(0));
  ASSERT_EQ(runs.size(), 4u);
  const ColourRun &b0 = runs[0], &b1 = runs[1], &b3 = runs[2];
  const int pitch = b1.x_begin - b0.x_begin;
  EXPECT_GE(pitch, 40);
  EXPECT_EQ(b3.x_begin - b1.x_begin, 2 * pitch);  // an empty slot where the NaN is
  EXPECT_LT(b0.height, b3.height);
  EXPECT_LT(b3.height, b1.height);
  // Heights are proportional to the values on a linear axis from 0 (±1 px
  // rounding; the dashed reference line crosses bar 0 in its own colour).
  EXPECT_NEAR(double(b3.height) / b1.height, 2.0 / 3.0, 0.02);
  EXPECT_NEAR(double(b0.height) / b1.height, 1.0 / 3.0, 0.02);
  EXPECT_LT(runs[3].height, b0.height);  // the swatch is small
}

TEST_F(ChartTest, SeriesGetTheirOwnColoursAndLogScaleWorks) {
  BarChart c;
  c.title = "seconds";
  c.categories = {"karate", "dolphins"};
  c.series = {{"graphrun", {10.0, 1000.0}}, {"mcl", {100.0, nan}}};
  c.log_scale = true;
  const fs::path png = dir_ / "log.png";
  write_png(png.string(), c);
  const Image im = read_png(png);
  ASSERT_TRUE(im);
  const std::vector<ColourRun> a = colour_runs(im.get(), series_colour(0));
  const std::vector<ColourRun> b = colour_runs(im.get(), series_colour(1));
  ASSERT_EQ(a.size(), 3u);  // two bars + swatch
  ASSERT_EQ(b.size(), 2u);  // one bar (the other is NaN) + swatch
  // Log axis from 1 to 1000: 10, 100, 1000 are one, two, three decades high.
  EXPECT_NEAR(double(a[0].height) / a[1].height, 1.0 / 3.0, 0.02);
  EXPECT_NEAR(double(b[0].height) / a[1].height, 2.0 / 3.0, 0.02);
  EXPECT_GT(b[0].x_begin, a[0].x_begin);  // beside its partner in the first group
  EXPECT_LT(b[0].x_begin, a[1].x_begin);
}

TEST_F(ChartTest, ManyLongCategoriesWidenTheImage) {
  BarChart c;
  for (int i = 0; i < 30; ++i) c.categories.push_back(std::to_string(i) + "-com-livejournal");
  c.series = {{"a", std::vector<double>(30, 1.0)}, {"b", std::vector<double>(30, 2.0)}};
  const fs::path png = dir_ / "wide.png";
  write_png(png.string(), c);
  const Image im = read_png(png);
  ASSERT_TRUE(im);
  EXPECT_GE(gdImageSX(im.get()), 30 * 40);
  EXPECT_GT(gdImageSY(im.get()), 400);  // room for the vertical labels
  EXPECT_EQ(colour_runs(im.get(), series_colour(1)).size(), 31u);
}

TEST_F(ChartTest, BadDataThrowsAndWritesNothing) {
  const fs::path png = dir_ / "bad.png";
  BarChart c = one_series({1.0, 2.0});
  c.series.push_back({"short", {1.0}});
  EXPECT_THROW(write_png(png.string(), c), ArgumentError);
  EXPECT_THROW(write_png(png.string(), one_series({})), ArgumentError);
  EXPECT_THROW(write_png(png.string(), one_series({1.0, INFINITY})), ArgumentError);
  BarChart log = one_series({1.0, 0.0});
  log.log_scale = true;
  EXPECT_THROW(write_png(png.string(), log), ArgumentError);
  BarChart no_series = one_series({1.0});
  no_series.series.clear();
  EXPECT_THROW(write_png(png.string(), no_series), ArgumentError);
  EXPECT_FALSE(fs::exists(png));
  EXPECT_TRUE(fs::is_empty(dir_));  // no temporary left behind either
}

TEST_F(ChartTest, WriteErrorsAreErrors) {
  EXPECT_THROW(write_png((dir_ / "missing" / "chart.png").string(), one_series({1.0})), Error);
}

TEST_F(ChartTest, AllMissingAndNegativeValuesStillDraw) {
  const fs::path png = dir_ / "edge.png";
  write_png(png.string(), one_series({nan, nan}));
  ASSERT_TRUE(read_png(png));
  write_png(png.string(), one_series({-2.0, 3.0}));
  const Image im = read_png(png);
  ASSERT_TRUE(im);
  const std::vector<ColourRun> runs = colour_runs(im.get(), series_colour(0));
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_NEAR(double(runs[0].height) / runs[1].height, 2.0 / 3.0, 0.03);
}

}  // namespace
}  // namespace graphrun::cli::experiment
