// Reads the FX graph text PyTorch prints (print_readable, python_code, Inductor/vLLM dumps).
#pragma once

#include "declone/ir/Graph.h"
#include "declone/support/Result.h"

#include <memory>
#include <string>
#include <string_view>

namespace declone {

/// Parses a whole dump. Never evaluates anything and never aborts: malformed text yields an
/// Error with the 1-based line and column of the problem. The text is copied into the file's
/// Context, so `text` need not outlive the call.
[[nodiscard]] Result<std::unique_ptr<GraphFile>> readGraphFile(std::string_view text);
/// As readGraphFile, but the file's Context takes over `text` instead of copying it: for a large
/// dump that saves a copy of the whole input.
[[nodiscard]] Result<std::unique_ptr<GraphFile>> readOwnedGraphFile(std::string text);

/// Parses one tensor/Sym annotation (the text between the quotes) into `context`. Column
/// numbers in the error are 1-based offsets into `text`.
[[nodiscard]] Result<TypeAnnotation> parseTypeAnnotation(Context& context, std::string_view text);

} // namespace declone
