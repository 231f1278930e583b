// The built-in schema texts, embedded at build time by EmbedText.cmake (see CMakeLists.txt).
#pragma once

#include <span>
#include <string_view>

namespace declone::detail {

/// Every operator schema of the libtorch the project was built against, one per line, sorted;
/// empty when it was built without libtorch. Split into chunks because compilers cap the length
/// of one string literal.
std::span<const std::string_view> libtorchSchemaChunks();
/// lib/schema/supplement.schemas.
std::span<const std::string_view> supplementSchemaChunks();

} // namespace declone::detail
