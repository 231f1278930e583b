// The progress bar and plain progress lines of `declone report`.
#include "declone/report/Progress.h"

#include <cstdio>

namespace declone {

ProgressMeter::ProgressMeter(std::ostream& out, bool terminal, std::string label,
                             std::chrono::milliseconds interval, std::string unit)
    : out_(out), terminal_(terminal), label_(std::move(label)), unit_(std::move(unit)),
      interval_(interval), start_(Clock::now()), lastDraw_(start_) {}

void ProgressMeter::update(size_t done, size_t total) {
  done_ = done;
  total_ = total;
  Clock::time_point now = Clock::now();
  // A terminal redraws often enough to look alive; a log gets a line now and then. The last
  // file is left to finish(), which prints the final state once.
  auto every = terminal_ ? std::min(interval_, std::chrono::milliseconds(50)) : interval_;
  if (done < total && (!drawn_ || now - lastDraw_ >= every))
    draw(done, total, now, false);
}

void ProgressMeter::finish() {
  draw(done_, total_, Clock::now(), true);
}

void ProgressMeter::draw(size_t done, size_t total, Clock::time_point now, bool final) {
  drawn_ = true;
  lastDraw_ = now;
  double seconds = std::chrono::duration<double>(now - start_).count();
  char numbers[160];
  const char* unit = unit_.c_str();
  if (!terminal_) {
    if (final)
      std::snprintf(numbers, sizeof numbers, ": %zu/%zu %s in %.2f s\n", done, total, unit,
                    seconds);
    else
      std::snprintf(numbers, sizeof numbers, ": %zu/%zu %s\n", done, total, unit);
    out_ << label_ << numbers << std::flush;
    return;
  }
  constexpr size_t kBarWidth = 30;
  size_t filled = total ? done * kBarWidth / total : kBarWidth;
  std::string line =
      "\r" + label_ + " [" + std::string(filled, '#') + std::string(kBarWidth - filled, ' ') + "] ";
  double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0;
  std::snprintf(numbers, sizeof numbers, "%zu/%zu %s  %.1f %s/s  %.1f s", done, total, unit, rate,
                unit, seconds);
  line += numbers;
  // Blank out what a longer previous line left behind (no terminal escapes needed).
  size_t width = line.size();
  if (width < lastWidth_)
    line += std::string(lastWidth_ - width, ' ');
  lastWidth_ = width;
  if (final)
    line += '\n';
  out_ << line << std::flush;
}

} // namespace declone
