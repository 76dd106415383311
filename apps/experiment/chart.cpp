// Grouped bar charts drawn with libgd: lay out margins from the text they
// must hold, choose the y axis (a linear axis on "nice" 1-2-5 steps through
// 0, or powers of ten), draw grid, bars, axes, labels, legend, and write the
// PNG through io::OutputFile so that a failed run leaves no half-written file.
#include "experiment/chart.hpp"

#include "graphrun/engine/error.hpp"

#if !defined(GRAPHRUN_HAVE_GD)
// A build without libgd: the experiments still write their tables and CSV.
namespace graphrun::cli::experiment {
std::uint32_t series_colour(std::size_t) { return 0; }
void write_png(const std::string& path, const BarChart&) {
  throw ArgumentError(path +
                      ": this build of graphrun draws no charts (libgd was not found when it "
                      "was configured; Debian: apt-get install libgd-dev, then rebuild); "
                      "the --csv table holds the same figures");
}
}  // namespace graphrun::cli::experiment
#else
#include <gd.h>
#include <gdfontl.h>
#include <gdfonts.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>

#include "graphrun/engine/error.hpp"
#include "graphrun/io/write.hpp"

namespace graphrun::cli::experiment {

namespace {

// libgd's own limit is memory; this keeps a runaway category count from
// asking for gigabytes (a truecolor pixel is 4 bytes).
constexpr int max_image_side = 16384;
constexpr int min_width = 640, min_height = 400;
constexpr int min_group_width = 40;    // pixels per category group
constexpr int min_bar_width = 10;      // per series within a group
constexpr int plot_height = 300;       // before stretching to min_height
constexpr std::size_t max_label = 40;  // longer category labels are cut

constexpr std::uint32_t palette[] = {0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f,
                                     0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac};

using Image = std::unique_ptr<gdImage, decltype(&gdImageDestroy)>;

int colour(std::uint32_t rgb) {
  return gdTrueColor(int(rgb >> 16 & 0xff), int(rgb >> 8 & 0xff), int(rgb & 0xff));
}

// The built-in fonts are 8-bit (ISO 8859-2): bytes of UTF-8 sequences would
// draw as unrelated letters, so they become '?'.
std::string printable(std::string s, std::size_t max_chars = std::string::npos) {
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  if (s.size() > max_chars) s = s.substr(0, max_chars - 3) + "...";
  return s;
}

int text_width(gdFontPtr font, const std::string& s) { return int(s.size()) * font->w; }

void draw_text(gdImagePtr im, gdFontPtr font, int x, int y, const std::string& s, int c) {
  gdImageString(im, font, x, y, reinterpret_cast<unsigned char*>(const_cast<char*>(s.c_str())), c);
}

// Vertical text reading bottom to top, its first letter at (x, y_bottom).
void draw_text_up(gdImagePtr im, gdFontPtr font, int x, int y_bottom, const std::string& s, int c) {
  gdImageStringUp(im, font, x, y_bottom,
                  reinterpret_cast<unsigned char*>(const_cast<char*>(s.c_str())), c);
}

void validate(const BarChart& chart) {
  const std::string what = "bar chart '" + chart.title + "': ";
  if (chart.categories.empty()) throw ArgumentError(what + "no categories");
  if (chart.series.empty()) throw ArgumentError(what + "no series");
  for (const BarSeries& s : chart.series) {
    if (s.values.size() != chart.categories.size())
      throw ArgumentError(what + "series '" + s.name + "' has " + std::to_string(s.values.size()) +
                          " values for " + std::to_string(chart.categories.size()) + " categories");
    for (std::size_t i = 0; i < s.values.size(); ++i) {
      const double v = s.values[i];
      if (std::isinf(v))
        throw ArgumentError(what + "series '" + s.name + "' is infinite at '" +
                            chart.categories[i] + "'");
      if (chart.log_scale && v <= 0)
        throw ArgumentError(what + "series '" + s.name + "' has " + std::to_string(v) + " at '" +
                            chart.categories[i] + "', which a log axis cannot show");
    }
  }
  if (chart.reference_line) {
    if (!std::isfinite(*chart.reference_line))
      throw ArgumentError(what + "the reference line is not finite");
    if (chart.log_scale && *chart.reference_line <= 0)
      throw ArgumentError(what + "the reference line is <= 0 on a log axis");
  }
}

// The y axis: the value range [lo, hi], the tick values and how a value maps
// to the unit interval (linear, or linear in log10).
struct Axis {
  bool log = false;
  double lo = 0, hi = 1;
  std::vector<double> ticks;
  std::vector<std::string> labels;

  double fraction(double v) const {
    return log ? (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo))
               : (v - lo) / (hi - lo);
  }
};

std::string number_label(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// About five ticks on steps of 1, 2 or 5 times a power of ten, the range
// widened to whole steps and always through 0 (bars start at 0).
Axis linear_axis(double lo, double hi) {
  lo = std::min(lo, 0.0);
  hi = std::max(hi, 0.0);
  if (hi == lo) hi = 1;
  const double raw = (hi - lo) / 5;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double norm = raw / mag;
  const double step = (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * mag;
  Axis axis;
  const double first = std::floor(lo / step), last = std::ceil(hi / step);
  axis.lo = first * step;
  axis.hi = last * step;
  for (double i = first; i <= last; ++i) {
    const double t = std::abs(i) < 0.5 ? 0.0 : i * step;  // an exact 0, not -1e-17
    axis.ticks.push_back(t);
    axis.labels.push_back(number_label(t));
  }
  return axis;
}

// Whole decades from one below the smallest value's (so that the smallest
// bar has height) to the largest value's; a tick per decade, or per few
// decades when there are many.
Axis log_axis(double lo, double hi) {
  const int lo_exp = int(std::ceil(std::log10(lo))) - 1;
  const int hi_exp = std::max(int(std::ceil(std::log10(hi))), lo_exp + 1);
  const int every = (hi_exp - lo_exp + 11) / 12;
  Axis axis;
  axis.log = true;
  axis.lo = std::pow(10.0, lo_exp);
  axis.hi = std::pow(10.0, hi_exp);
  for (int e = lo_exp; e <= hi_exp; e += every) {
    axis.ticks.push_back(std::pow(10.0, e));
    axis.labels.push_back(e >= -3 && e <= 4 ? number_label(std::pow(10.0, e))
                                            : "1e" + std::to_string(e));
  }
  return axis;
}

Axis y_axis(const BarChart& chart) {
  double lo = INFINITY, hi = -INFINITY;
  for (const BarSeries& s : chart.series)
    for (double v : s.values)
      if (!std::isnan(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  if (chart.reference_line)
    lo = std::min(lo, *chart.reference_line), hi = std::max(hi, *chart.reference_line);
  if (lo > hi) lo = hi = chart.log_scale ? 1.0 : 0.0;  // every bar missing
  return chart.log_scale ? log_axis(lo, hi) : linear_axis(lo, hi);
}

// Where everything goes, in pixels, derived from the text it must hold.
struct Layout {
  int width = 0, height = 0;
  int plot_left = 0, plot_top = 0, plot_width = 0, plot_height = 0;
  int group_width = 0, bar_width = 0;
  bool vertical_labels = false;
  int plot_bottom() const { return plot_top + plot_height; }
};

Layout layout(const BarChart& chart, const Axis& axis, const std::vector<std::string>& labels) {
  const gdFontPtr small = gdFontGetSmall(), large = gdFontGetLarge();
  const int n = int(chart.categories.size()), k = int(chart.series.size());
  Layout l;
  l.group_width = std::max(min_group_width, k * min_bar_width + 8);

  int longest_label = 0;
  for (const std::string& s : labels) longest_label = std::max(longest_label, text_width(small, s));
  int widest_tick = 0;
  for (const std::string& s : axis.labels)
    widest_tick = std::max(widest_tick, text_width(small, s));
  int widest_name = 0;
  for (const BarSeries& s : chart.series)
    widest_name = std::max(widest_name, text_width(small, printable(s.name)));

  l.plot_left = 10 + (chart.y_label.empty() ? 0 : small->h + 8) + widest_tick + 8;
  l.plot_top = chart.title.empty() ? 16 : 10 + large->h + 12;
  const int legend_width = 16 + 10 + 6 + widest_name + 10;
  l.width = std::max(min_width, l.plot_left + n * l.group_width + legend_width);
  l.group_width = (l.width - l.plot_left - legend_width) / n;  // stretched to fill min_width
  l.plot_width = n * l.group_width;
  l.bar_width = (l.group_width - 8) / k;

  l.vertical_labels = longest_label > l.group_width - 4;
  const int bottom = 8 + (l.vertical_labels ? longest_label : small->h) + 10;
  l.plot_height = std::max(plot_height, k * 16);
  l.height = std::max(min_height, l.plot_top + l.plot_height + bottom);
  l.plot_height = l.height - l.plot_top - bottom;
  if (l.width > max_image_side || l.height > max_image_side)
    throw ArgumentError("bar chart '" + chart.title + "': " + std::to_string(n) +
                        " categories and " + std::to_string(k) +
                        " series make an image too large to draw (" + std::to_string(l.width) +
                        " x " + std::to_string(l.height) + " pixels)");
  return l;
}

int y_pixel(const Layout& l, const Axis& axis, double v) {
  const double f = std::clamp(axis.fraction(v), 0.0, 1.0);
  return l.plot_bottom() - int(std::lround(f * l.plot_height));
}

Image render(const BarChart& chart) {
  const Axis axis = y_axis(chart);
  std::vector<std::string> labels;
  for (const std::string& c : chart.categories) labels.push_back(printable(c, max_label));
  const Layout l = layout(chart, axis, labels);
  const gdFontPtr small = gdFontGetSmall(), large = gdFontGetLarge();

  Image im(gdImageCreateTrueColor(l.width, l.height), gdImageDestroy);
  if (!im) throw Error("bar chart '" + chart.title + "': libgd could not allocate the image");
  gdImagePtr g = im.get();
  const int white = colour(0xffffff), black = colour(0x000000), grid = colour(0xdddddd),
            reference = colour(0x333333);
  gdImageFilledRectangle(g, 0, 0, l.width - 1, l.height - 1, white);

  // Grid and y ticks with their labels, right-aligned against the axis.
  const int right = l.plot_left + l.plot_width;
  for (std::size_t i = 0; i < axis.ticks.size(); ++i) {
    const int y = y_pixel(l, axis, axis.ticks[i]);
    gdImageLine(g, l.plot_left + 1, y, right, y, grid);
    gdImageLine(g, l.plot_left - 4, y, l.plot_left, y, black);
    draw_text(g, small, l.plot_left - 6 - text_width(small, axis.labels[i]), y - small->h / 2,
              axis.labels[i], black);
  }

  // Bars: from 0 on a linear axis (down for negative values), from the
  // bottom on a log axis. Each bar is a pixel narrower than its slot so that
  // neighbours stay apart; NaN draws nothing and leaves its slot empty.
  const int base = axis.log ? l.plot_bottom() : y_pixel(l, axis, 0.0);
  const int k = int(chart.series.size());
  const int inset = (l.group_width - k * l.bar_width) / 2;
  for (std::size_t c = 0; c < chart.categories.size(); ++c)
    for (int s = 0; s < k; ++s) {
      const double v = chart.series[std::size_t(s)].values[c];
      if (std::isnan(v)) continue;
      const int x0 = l.plot_left + int(c) * l.group_width + inset + s * l.bar_width;
      const int y = y_pixel(l, axis, v);
      gdImageFilledRectangle(g, x0, std::min(base, y), x0 + l.bar_width - 2, std::max(base, y),
                             colour(series_colour(std::size_t(s))));
    }

  // Axes: the y axis, the bottom edge, and the zero line when it lies inside.
  gdImageLine(g, l.plot_left, l.plot_top, l.plot_left, l.plot_bottom(), black);
  gdImageLine(g, l.plot_left, l.plot_bottom(), right, l.plot_bottom(), black);
  if (base != l.plot_bottom()) gdImageLine(g, l.plot_left, base, right, base, black);

  if (chart.reference_line) {
    int dash[8];
    std::fill(dash, dash + 5, reference);
    std::fill(dash + 5, dash + 8, int(gdTransparent));
    gdImageSetStyle(g, dash, 8);
    const int y = y_pixel(l, axis, *chart.reference_line);
    gdImageLine(g, l.plot_left + 1, y, right, y, gdStyled);
  }

  // Category labels under their groups: centred, or vertical when too wide.
  for (std::size_t c = 0; c < labels.size(); ++c) {
    const int centre = l.plot_left + int(c) * l.group_width + l.group_width / 2;
    if (l.vertical_labels)
      draw_text_up(g, small, centre - small->h / 2,
                   l.plot_bottom() + 8 + text_width(small, labels[c]), labels[c], black);
    else
      draw_text(g, small, centre - text_width(small, labels[c]) / 2, l.plot_bottom() + 8, labels[c],
                black);
  }

  if (!chart.title.empty()) {
    const std::string title = printable(chart.title);
    draw_text(g, large, (l.width - text_width(large, title)) / 2, 10, title, black);
  }
  if (!chart.y_label.empty()) {
    const std::string label = printable(chart.y_label);
    draw_text_up(g, small, 10, l.plot_top + l.plot_height / 2 + text_width(small, label) / 2, label,
                 black);
  }

  // Legend to the right of the plot: a swatch and the name per series.
  for (int s = 0; s < k; ++s) {
    const int x = right + 16, y = l.plot_top + s * 16;
    gdImageFilledRectangle(g, x, y + 2, x + 9, y + 11, colour(series_colour(std::size_t(s))));
    draw_text(g, small, x + 16, y, printable(chart.series[std::size_t(s)].name), black);
  }
  return im;
}

}  // namespace

std::uint32_t series_colour(std::size_t i) { return palette[i % std::size(palette)]; }

void write_png(const std::string& path, const BarChart& chart) {
  validate(chart);
  const Image im = render(chart);
  int size = 0;
  const std::unique_ptr<void, decltype(&gdFree)> png(gdImagePngPtr(im.get(), &size), gdFree);
  if (!png || size <= 0) throw Error(path + ": libgd could not encode the PNG");
  io::OutputFile out(path);
  if (std::fwrite(png.get(), 1, std::size_t(size), out.stream()) != std::size_t(size))
    throw Error(path + ": write: " + std::strerror(errno));
  out.commit();
}

}  // namespace graphrun::cli::experiment
#endif  // GRAPHRUN_HAVE_GD
