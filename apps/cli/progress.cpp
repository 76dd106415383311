#include "progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

namespace graphrun::cli {

namespace {

constexpr auto show_after = std::chrono::seconds(1);
constexpr auto redraw_every = std::chrono::milliseconds(100);
// update() stores a new detail at most this often: callers may report
// thousands of times a second (every 64K lines written).
constexpr auto keep_every = std::chrono::milliseconds(20);

int terminal_columns() {
  winsize ws{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20) return ws.ws_col;
  return 80;
}

}  // namespace

bool ProgressBar::stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

ProgressBar::ProgressBar(std::string label, bool enabled)
    : label_(std::move(label)),
      out_(stderr),
      enabled_(enabled && stderr_is_terminal()),
      start_(clock::now()),
      last_set_(start_ - keep_every) {
  start_ticker();
}

ProgressBar::ProgressBar(std::string label, std::FILE* out, int columns)
    : label_(std::move(label)),
      out_(out),
      fixed_columns_(columns),
      enabled_(true),
      start_(clock::now()),
      last_set_(start_ - keep_every) {
  start_ticker();
}

ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::start_ticker() {
  if (enabled_) ticker_ = std::thread([this] { tick(); });
}

void ProgressBar::watch(const StepProgress* step,
                        std::function<std::string(int, double)> describe) {
  if (!enabled_) return;
  const std::lock_guard lock(mutex_);
  step_ = step;
  describe_ = std::move(describe);
}

bool ProgressBar::due() {
  const auto now = clock::now();
  if (now - last_set_ < keep_every) return false;
  last_set_ = now;
  return true;
}

void ProgressBar::set(double fraction, std::string detail) {
  const std::lock_guard lock(mutex_);
  fraction_ = fraction;
  detail_ = std::move(detail);
}

void ProgressBar::tick() {
  std::unique_lock lock(mutex_);
  if (wake_.wait_until(lock, start_ + show_after, [this] { return stop_; })) return;
  do draw_locked();
  while (!wake_.wait_for(lock, redraw_every, [this] { return stop_; }));
}

void ProgressBar::draw_locked() {
  const int columns = fixed_columns_ > 0 ? fixed_columns_ : terminal_columns();
  const double elapsed = std::chrono::duration<double>(clock::now() - start_).count();

  std::string line = label_;
  line += ' ';
  if (fraction_ >= 0) {
    const double fraction = std::clamp(fraction_, 0.0, 1.0);
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
  if (!detail_.empty()) {
    line += "  ";
    line += detail_;
  }
  if (step_ && describe_) {
    const int it = step_->iteration.load(std::memory_order_relaxed);
    if (it > 0) {
      line += detail_.empty() ? "  " : "; ";
      line += describe_(it, step_->fraction.load(std::memory_order_relaxed));
    }
  }
  // Never wrap: a wrapped line cannot be erased with "\r".
  if (line.size() > static_cast<std::size_t>(columns - 1)) line.resize(columns - 1);

  std::fputs("\r\033[K", out_);
  std::fputs(line.c_str(), out_);
  std::fflush(out_);
  drawn_ = true;
}

void ProgressBar::finish() {
  if (!enabled_) return;
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (ticker_.joinable()) ticker_.join();
  const std::lock_guard lock(mutex_);
  if (!drawn_) return;
  std::fputs("\r\033[K", out_);
  std::fflush(out_);
  drawn_ = false;
}

}  // namespace graphrun::cli
