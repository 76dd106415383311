#include "progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace graphrun::cli {

namespace {

constexpr auto show_after = std::chrono::seconds(1);
constexpr auto redraw_every = std::chrono::milliseconds(100);

int terminal_columns() {
  winsize ws{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20) return ws.ws_col;
  return 80;
}

}  // namespace

bool ProgressBar::stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

ProgressBar::ProgressBar(std::string label, bool enabled)
    : label_(std::move(label)),
      enabled_(enabled && stderr_is_terminal()),
      start_(clock::now()),
      last_draw_(start_) {}

ProgressBar::~ProgressBar() { finish(); }

bool ProgressBar::due() {
  if (!enabled_) return false;
  const auto now = clock::now();
  if (now - start_ < show_after) return false;
  if (drawn_ && now - last_draw_ < redraw_every) return false;
  last_draw_ = now;
  return true;
}

void ProgressBar::draw(double fraction, std::string_view detail) {
  const int columns = terminal_columns();
  const double elapsed = std::chrono::duration<double>(clock::now() - start_).count();

  std::string line = label_;
  line += ' ';
  if (fraction >= 0) {
    fraction = std::clamp(fraction, 0.0, 1.0);
    constexpr int width = 24;
    const int filled = static_cast<int>(std::lround(fraction * width));
    line += '[';
    line.append(static_cast<std::size_t>(filled), '#');
    line.append(static_cast<std::size_t>(width - filled), ' ');
    line += ']';
    char pct[16];
    std::snprintf(pct, sizeof pct, " %3d%%", static_cast<int>(fraction * 100));
    line += pct;
  }
  char secs[32];
  std::snprintf(secs, sizeof secs, " %.1f s", elapsed);
  line += secs;
  if (!detail.empty()) {
    line += "  ";
    line += detail;
  }
  // Never wrap: a wrapped line cannot be erased with "\r".
  if (line.size() > static_cast<std::size_t>(columns - 1)) line.resize(columns - 1);

  std::fputs("\r\033[K", stderr);
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::finish() {
  if (!drawn_) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace graphrun::cli
