// Progress on standard error while many files are processed: a bar on a terminal, lines if not.
#pragma once

#include <chrono>
#include <cstddef>
#include <ostream>
#include <string>

namespace declone {

/// On a terminal, one line redrawn in place (`\r`) with a bar, the count and the rate; elsewhere
/// (a log file, CI) plain lines `LABEL: 3/30 files`, the first at once and then at most one per
/// `interval`, so that huge folders do not flood the log. Not for several threads at once:
/// report's pool calls update() under its own lock.
class ProgressMeter {
public:
  using Clock = std::chrono::steady_clock;

  ProgressMeter(std::ostream& out, bool terminal, std::string label,
                std::chrono::milliseconds interval = std::chrono::milliseconds(100),
                std::string unit = "files");

  /// `done` of `total` files are finished.
  void update(size_t done, size_t total);
  /// The final state, always printed: `LABEL: 30/30 files in 1.23 s` (or the finished bar).
  void finish();

private:
  void draw(size_t done, size_t total, Clock::time_point now, bool final);

  std::ostream& out_;
  bool terminal_;
  std::string label_;
  std::string unit_; ///< what is counted: "files", "runs"
  std::chrono::milliseconds interval_;
  Clock::time_point start_;
  Clock::time_point lastDraw_;
  bool drawn_ = false;
  size_t done_ = 0;
  size_t total_ = 0;
  size_t lastWidth_ = 0;
};

} // namespace declone
