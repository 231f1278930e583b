// fake_tensor_oracle.py, embedded by EmbedText.cmake.
#pragma once

#include <span>
#include <string_view>

namespace declone::detail {

/// The script's text, in chunks.
[[nodiscard]] std::span<const std::string_view> fakeTensorScriptChunks();

} // namespace declone::detail
