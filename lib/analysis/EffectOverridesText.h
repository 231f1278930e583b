// The override table's text, embedded at build time by lib/schema/EmbedText.cmake.
#pragma once

#include <span>
#include <string_view>

namespace declone::detail {

/// lib/analysis/effect-overrides.txt, in chunks (compilers cap the length of one literal).
std::span<const std::string_view> effectOverrideChunks();

} // namespace declone::detail
