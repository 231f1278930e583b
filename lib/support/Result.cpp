// Formatting of located errors in the compiler-style `FILE:LINE:COL: error:` form.
#include "declone/support/Result.h"

#include "declone/support/Diagnostic.h"

namespace declone {

std::string Error::format(std::string_view file) const {
  // One line (a report's table cell, a Python exception): the notes follow in brackets.
  std::string out = renderDiagnostic(file, Severity::Error, Error{message, line, column});
  out.pop_back(); // the final newline
  for (const Note& note : notes)
    out += " [note: line " + std::to_string(note.line) + ": " + note.message + "]";
  return out;
}

} // namespace declone
