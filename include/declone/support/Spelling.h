// Suggestions for misspelled names: the closest candidate by edit distance.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace declone {

/// The Levenshtein distance between `a` and `b`, or `limit + 1` once it is known to exceed
/// `limit` (so that comparing against many candidates stays cheap).
[[nodiscard]] size_t editDistance(std::string_view a, std::string_view b, size_t limit);

/// The candidate closest to `word` within `limit` edits (default: a third of the word's length,
/// at least 1), or none. A tie keeps the first candidate.
[[nodiscard]] std::optional<std::string>
closestSpelling(std::string_view word, std::span<const std::string_view> candidates,
                std::optional<size_t> limit = std::nullopt);

} // namespace declone
