// Reading whole files (or standard input) into memory; failures to read are errors, not exceptions.
#pragma once

#include "declone/support/Result.h"

#include <string>
#include <string_view>

namespace declone {

/// Reads the whole file at `path`, or standard input for "-", into a string (a copy, not a
/// mapping: `declone opt F -o F` replaces its own input). The error message names the system's
/// reason ("cannot open: Permission denied"); the caller adds the file name.
[[nodiscard]] Result<std::string> readFile(std::string_view path);

} // namespace declone
