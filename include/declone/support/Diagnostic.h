// Compiler-style diagnostics: `FILE:LINE:COL: error: ...`, the source line, a caret, notes.
#pragma once

#include "declone/support/Result.h"

#include <string>
#include <string_view>

namespace declone {

enum class Severity { Error, Warning, Note };

struct DiagnosticStyle {
  bool colour = false; ///< ANSI colours, as clang uses on a terminal
};

/// Renders `diagnostic` as clang does: the located message, then (when the source line is known)
/// the line and a caret under the column, then each note the same way. Ends with a newline.
[[nodiscard]] std::string renderDiagnostic(std::string_view file, Severity severity,
                                           const Error& diagnostic, DiagnosticStyle style = {});

/// The text of 1-based line `line` of `source` (without its line break; "" when out of range).
[[nodiscard]] std::string_view sourceLineAt(std::string_view source, uint32_t line);

/// Fills the source lines of `error` and its notes from `source` where they are missing.
void attachSourceLines(Error& error, std::string_view source);

/// Whether standard error should get colours: a terminal, and NO_COLOR unset or empty
/// (https://no-color.org); CLICOLOR_FORCE or FORCE_COLOR set (non-empty, not "0") forces them.
[[nodiscard]] bool colourWanted(int fd);

} // namespace declone
