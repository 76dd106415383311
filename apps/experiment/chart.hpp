// Grouped bar charts as PNG files, for the experiment drivers: one group of
// bars per category (a graph), one bar per series (a method) in the
// series' colour, a legend, a y axis with ticks and numeric labels, and an
// optional dashed reference line (1.0 on a speed-up chart).
//
// Drawn with libgd's built-in bitmap fonts, which know ASCII only: keep
// names and titles in ASCII. Category labels are written horizontally when
// every one fits its group's width, vertically (bottom to top) otherwise.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace graphrun::cli::experiment {

struct BarSeries {
  std::string name;            // the legend's entry
  std::vector<double> values;  // values[i] belongs to categories[i]; NaN = no bar
};

struct BarChart {
  std::string title, y_label;
  std::vector<std::string> categories;   // x axis (graph names), one group of bars each
  std::vector<BarSeries> series;         // one colour per series
  std::optional<double> reference_line;  // drawn dashed across the plot
  // Logarithmic y axis (powers of ten); every value and the reference line
  // must then be > 0. A linear axis always includes 0, bars start there.
  bool log_scale = false;
};

// Renders in memory and writes `path` atomically (io::OutputFile: a
// temporary file renamed into place). ArgumentError when the chart makes no
// sense: no categories or no series, a series whose length differs from the
// categories', an infinite value, a value <= 0 on a log axis, too many
// categories for one image. graphrun::Error when the file cannot be written.
void write_png(const std::string& path, const BarChart& chart);

// The colour of series i as 0xRRGGBB (a ten-colour qualitative palette,
// repeated past ten series); the tests find bars by it.
std::uint32_t series_colour(std::size_t i);

}  // namespace graphrun::cli::experiment
