// Formatting of located errors in the compiler-style `FILE:LINE:COL: error:` form.
#include "declone/support/Result.h"

namespace declone {

std::string Error::format(std::string_view file) const {
  std::string out(file);
  if (line != 0) {
    out += ':' + std::to_string(line);
    if (column != 0)
      out += ':' + std::to_string(column);
  }
  out += ": error: ";
  out += message;
  return out;
}

} // namespace declone
