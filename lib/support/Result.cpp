// Formatting of located errors in the compiler-style `FILE:LINE:COL: error:` form.
#include "declone/support/Result.h"

namespace declone {
namespace {

void appendLocated(std::string& out, std::string_view file, uint32_t line, uint32_t column,
                   std::string_view severity, std::string_view message) {
  out += file;
  if (line != 0) {
    out += ':' + std::to_string(line);
    if (column != 0)
      out += ':' + std::to_string(column);
  }
  out += ": ";
  out += severity;
  out += ": ";
  out += message;
}

} // namespace

std::string Error::format(std::string_view file) const {
  std::string out;
  appendLocated(out, file, line, column, "error", message);
  for (const Note& note : notes) {
    out += '\n';
    appendLocated(out, file, note.line, note.column, "note", note.message);
  }
  return out;
}

} // namespace declone
