// Edit distance with an early exit, for "did you mean" suggestions.
#include "declone/support/Spelling.h"

#include <algorithm>
#include <vector>

namespace declone {

size_t editDistance(std::string_view a, std::string_view b, size_t limit) {
  size_t lengthGap = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
  if (lengthGap > limit)
    return limit + 1;
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    size_t rowMin = row[0];
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
      rowMin = std::min(rowMin, row[j]);
    }
    if (rowMin > limit)
      return limit + 1;
  }
  return std::min(row[b.size()], limit + 1);
}

std::optional<std::string> closestSpelling(std::string_view word,
                                           std::span<const std::string_view> candidates,
                                           std::optional<size_t> limit) {
  size_t best = limit.value_or(std::max<size_t>(1, word.size() / 3));
  std::optional<std::string> found;
  for (std::string_view candidate : candidates) {
    if (candidate == word)
      continue;
    size_t distance = editDistance(word, candidate, best);
    if (distance < best || (distance == best && !found)) {
      best = distance;
      found = std::string(candidate);
    }
  }
  return found;
}

} // namespace declone
