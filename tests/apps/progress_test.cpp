// The progress bar moves during a long step that reports nothing at its
// end: within the first second and a half it has drawn the elapsed time and
// what the algorithm reports from inside the step.
#include "progress.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

namespace graphrun::cli {
namespace {

std::string contents(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string s;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) s.append(buf, n);
  return s;
}

TEST(ProgressBar, DrawsDuringAStepThatReportsNothing) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  StepProgress step;
  {
    ProgressBar bar("mcl", f, 200);
    bar.watch(&step, [](int it, double fraction) {
      return "iteration " + std::to_string(it) + " at " +
             std::to_string(static_cast<int>(100 * fraction)) + "%";
    });
    // The first iteration is under way, half done, and its callback has not come.
    step.start(1);
    step.set(0.5);
    std::this_thread::sleep_for(std::chrono::milliseconds(1400));
    const std::string drawn = contents(f);
    EXPECT_NE(drawn.find("mcl "), std::string::npos) << drawn;
    EXPECT_NE(drawn.find("iteration 1 at 50%"), std::string::npos) << drawn;
    EXPECT_NE(drawn.find(" s"), std::string::npos) << drawn;
  }
  // Erased at the end: the last thing written clears the line.
  const std::string all = contents(f);
  EXPECT_EQ(all.substr(all.size() - 4), "\r\033[K");
  std::fclose(f);
}

TEST(ProgressBar, AShortStepDrawsNothing) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    ProgressBar bar("load", f, 200);
    bar.update(0.5);
  }
  EXPECT_TRUE(contents(f).empty());
  std::fclose(f);
}

}  // namespace
}  // namespace graphrun::cli
