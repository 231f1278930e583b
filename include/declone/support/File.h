// Reading whole files (or standard input) into memory, and writing files that are replaced
// whole; failures are errors, not exceptions.
#pragma once

#include "declone/support/Result.h"

#include <cstdio>
#include <string>
#include <string_view>

namespace declone {

/// Reads the whole file at `path`, or standard input for "-", into a string (a copy, not a
/// mapping: `declone opt F -o F` replaces its own input). The error message names the system's
/// reason ("cannot open: Permission denied"); the caller adds the file name.
[[nodiscard]] Result<std::string> readFile(std::string_view path);

/// A file written so that `path` only ever holds its old contents or the complete new ones: the
/// text goes to a temporary file in the same folder, which rename(2) puts in place on commit().
/// A failed, interrupted (SIGINT, SIGTERM, SIGHUP) or concurrent write leaves no partial file at
/// `path`, and no temporary file behind. "-" (or "") is standard output, written directly.
class OutputFile {
public:
  /// Errors name the system's reason ("cannot write 'out.fx': Permission denied").
  [[nodiscard]] static Result<OutputFile> open(std::string_view path);
  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&&) = delete;
  ~OutputFile(); ///< without commit(): the temporary file is removed, `path` left as it was

  [[nodiscard]] std::FILE* stream() const { return stream_; }
  /// Flushes and closes the stream and renames the file into place.
  [[nodiscard]] Status commit();

private:
  OutputFile(std::string path, std::string temporary, std::FILE* stream)
      : path_(std::move(path)), temporary_(std::move(temporary)), stream_(stream) {}
  void discard();

  std::string path_, temporary_; ///< temporary_ is empty for standard output
  std::FILE* stream_ = nullptr;
};

/// Writes `text` to `path` through an OutputFile.
[[nodiscard]] Status writeFileAtomically(std::string_view path, std::string_view text);

} // namespace declone
