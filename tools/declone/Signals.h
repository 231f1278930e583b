// The CLI's signal handling for the files it writes: what the library leaves to the program.
#pragma once

#include "declone/support/File.h"

namespace declone::cli {

/// The temporary file the CLI is writing (it writes one output at a time), which SIGINT, SIGTERM
/// and SIGHUP remove before ending the program. The handlers are installed on the first
/// temporary file, over the default action only: a signal the caller ignores (a job run in the
/// background) stays ignored, and a command that writes no file through a temporary one (report,
/// whose Ctrl-C stops starting files) keeps the signals to itself.
[[nodiscard]] TemporaryFileRecord& temporaryFiles();

} // namespace declone::cli
