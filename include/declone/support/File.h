// Reading whole files (or standard input) into memory, with errors instead of exceptions.
#pragma once

#include "declone/support/Result.h"

#include <string>
#include <string_view>

namespace declone {

/// Reads the whole file at `path`, or standard input for "-". The error message names the
/// system's reason ("cannot open: Permission denied"); the caller adds the file name.
[[nodiscard]] Result<std::string> readFile(std::string_view path);

} // namespace declone
