// Progress output: plain lines off a terminal (first at once, then throttled), a bar on one.
#include "declone/report/Progress.h"

#include <gtest/gtest.h>
#include <regex>
#include <sstream>

namespace declone::test {
namespace {

TEST(Progress, PlainLinesAreThrottledAndTheFinalLineAlwaysPrinted) {
  std::ostringstream out;
  ProgressMeter meter(out, /*terminal=*/false, "report", std::chrono::hours(1));
  for (size_t done = 1; done <= 100; ++done)
    meter.update(done, 100);
  meter.finish();
  std::string text = out.str();
  EXPECT_TRUE(std::regex_match(text, std::regex("report: 1/100 files\n"
                                                "report: 100/100 files in [0-9]+\\.[0-9]{2} s\n")))
      << text;
}

TEST(Progress, PlainLinesWithoutThrottling) {
  std::ostringstream out;
  ProgressMeter meter(out, false, "scan", std::chrono::milliseconds(0));
  meter.update(1, 3);
  meter.update(2, 3);
  meter.update(3, 3); // the last is left to finish()
  meter.finish();
  std::string text = out.str();
  EXPECT_TRUE(text.starts_with("scan: 1/3 files\nscan: 2/3 files\nscan: 3/3 files in ")) << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3);
}

TEST(Progress, ATerminalGetsOneLineRedrawnInPlace) {
  std::ostringstream out;
  ProgressMeter meter(out, true, "report", std::chrono::milliseconds(0));
  meter.update(1, 4);
  meter.update(2, 4);
  meter.finish();
  std::string text = out.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\r'), 3) << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1);
  EXPECT_TRUE(text.ends_with("\n"));
  EXPECT_NE(text.find("\rreport [###############               ] 2/4 files"), std::string::npos)
      << text;
  EXPECT_NE(text.find("files/s"), std::string::npos);
}

TEST(Progress, NothingToDo) {
  std::ostringstream out;
  ProgressMeter meter(out, false, "report");
  meter.finish();
  EXPECT_TRUE(out.str().starts_with("report: 0/0 files in ")) << out.str();
}

} // namespace
} // namespace declone::test
