// Reading whole files (or standard input) into memory, and writing files that are replaced
// whole; failures are errors, not exceptions.
#pragma once

#include "declone/support/Result.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace declone {

/// The most readFile takes: a file larger than this is an error, found from its size before
/// anything is read (so a huge or sparse file costs no memory); standard input or a pipe is read
/// up to the limit and no further.
struct ReadLimit {
  uint64_t maxBytes = 0; ///< 0: no limit
  /// Appended to the error after "; ": where the limit comes from and how to change it.
  std::string_view hint = {};
};

/// Reads the whole file at `path`, or standard input for "-", into a string (a copy, not a
/// mapping: `declone opt F -o F` replaces its own input). The error message names the system's
/// reason ("cannot open: Permission denied"), or the size and the limit; the caller adds the
/// file name. Running out of memory throws std::bad_alloc, as any allocation does.
[[nodiscard]] Result<std::string> readFile(std::string_view path, const ReadLimit& limit = {});

/// A file written so that `path` only ever holds its old contents or the complete new ones: the
/// text goes to a temporary file in the same folder, which rename(2) puts in place on commit().
/// A failed, interrupted (SIGINT, SIGTERM, SIGHUP) or concurrent write leaves no partial file at
/// `path`, and no temporary file behind (SIGKILL leaves one beside it). Through a link, the file
/// it names is replaced; the replaced file's mode and, where allowed, owner are kept; hard links
/// to it keep the old contents. Written in place instead, as fopen would: "-" or "" (standard
/// output), a target that is not a regular file (/dev/null, a pipe, /dev/stdout), a link to a
/// file not there yet, and a writable file in a folder that takes no new files. Nothing is
/// synced to disk: a system crash may still lose the new contents.
class OutputFile {
public:
  /// Errors name the system's reason ("cannot write 'out.fx': Permission denied").
  [[nodiscard]] static Result<OutputFile> open(std::string_view path);
  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&&) = delete;
  ~OutputFile() { abandon(); }

  [[nodiscard]] std::FILE* stream() const { return stream_; }
  /// The path as given, "<stdout>" for standard output: for messages.
  [[nodiscard]] const std::string& name() const { return path_; }
  /// Flushes and closes the stream and renames the file into place.
  [[nodiscard]] Status commit();
  /// Gives the write up: the temporary file is removed, `path` is left as it was.
  void abandon();
  /// Gives the write up after a write failed with `error` (an errno value, 0 for unknown) and
  /// returns the error naming the file.
  [[nodiscard]] Error fail(int error);

private:
  OutputFile(std::string path, std::string target, std::string temporary, std::FILE* stream)
      : path_(std::move(path)), target_(std::move(target)), temporary_(std::move(temporary)),
        stream_(stream) {}

  std::string path_;      ///< as given, for messages ("<stdout>" for standard output)
  std::string target_;    ///< the file replaced: `path` with links resolved
  std::string temporary_; ///< empty when written in place
  std::FILE* stream_ = nullptr;
};

/// Writes `text` to `path` through an OutputFile.
[[nodiscard]] Status writeFileAtomically(std::string_view path, std::string_view text);

} // namespace declone
