// Iteration over the lines of a text, as the schema files and trace logs are read, and trimming.
#pragma once

#include <cstdint>
#include <string_view>

namespace declone {

/// Calls `fn(line, lineNumber)` for each line of `text` (1-based numbers), without its '\n' and
/// without a '\r' before it; stops early when `fn` returns false. A final line without '\n'
/// counts; the empty text has no lines.
template <class Fn> void forEachLine(std::string_view text, Fn&& fn) {
  uint32_t lineNumber = 0;
  size_t position = 0;
  while (position < text.size()) {
    size_t end = text.find('\n', position);
    if (end == std::string_view::npos)
      end = text.size();
    std::string_view line = text.substr(position, end - position);
    position = end + 1;
    ++lineNumber;
    if (!line.empty() && line.back() == '\r')
      line.remove_suffix(1);
    if (!fn(line, lineNumber))
      return;
  }
}

/// `text` without blanks, tabs, '\r' and '\n' at either end.
inline std::string_view trim(std::string_view text) {
  constexpr std::string_view kSpace = " \t\r\n";
  size_t begin = text.find_first_not_of(kSpace);
  if (begin == std::string_view::npos)
    return {};
  return text.substr(begin, text.find_last_not_of(kSpace) - begin + 1);
}

} // namespace declone
