// Reading whole files (or standard input) into memory, and writing files that are replaced
// whole; failures are errors, not exceptions.
#pragma once

#include "declone/support/Result.h"

#include <cstdint>
#include <cstdio>
#include <functional>
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

/// A program's record of the temporary file it is writing, which its signal handler removes when
/// a signal ends the program: the library installs no handler (the declone CLI does). OutputFile
/// runs each step that makes, renames or removes a temporary file through it; an implementation
/// makes the step and the change to its record one, as far as its handler can tell (it holds its
/// signals back while the step runs).
class TemporaryFileRecord {
public:
  virtual ~TemporaryFileRecord() = default;
  /// Runs `step`, which tries to make the file `path`; when it did (returned true), the record
  /// names `path`. Returns what `step` returned.
  [[nodiscard]] virtual bool create(const std::string& path, const std::function<bool()>& step) = 0;
  /// Runs `step`, which renames or removes `path`; then the record no longer names it.
  virtual void retire(const std::string& path, const std::function<void()>& step) = 0;
};

/// A file written so that `path` only ever holds its old contents or the complete new ones: the
/// text goes to a temporary file in the same folder, which rename(2) puts in place on commit().
/// A failed or concurrent write leaves no partial file at `path`, and no temporary file behind;
/// so does one a signal interrupts, when the program's TemporaryFileRecord removes it (without
/// one, or on SIGKILL, it stays beside `path`). Through a link, the file it names is replaced;
/// the replaced file's mode and, where allowed, owner are kept; hard links to it keep the old
/// contents. Written in place instead, as fopen would: "-" or "" (standard output), a target
/// that is not a regular file (/dev/null, a pipe, /dev/stdout), a link to a file not there yet,
/// and a writable file in a folder that takes no new files. Nothing is synced to disk: a system
/// crash may still lose the new contents.
class OutputFile {
public:
  /// Errors name the system's reason ("cannot write 'out.fx': Permission denied"). `record`, when
  /// given, must outlive the OutputFile.
  [[nodiscard]] static Result<OutputFile> open(std::string_view path,
                                               TemporaryFileRecord* record = nullptr);
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
  OutputFile(std::string path, std::string target, std::string temporary, std::FILE* stream,
             TemporaryFileRecord* record)
      : path_(std::move(path)), target_(std::move(target)), temporary_(std::move(temporary)),
        stream_(stream), record_(record) {}

  /// Runs `step` on the temporary file (its rename or removal) and forgets it.
  void retireTemporary(const std::function<void()>& step);

  std::string path_;      ///< as given, for messages ("<stdout>" for standard output)
  std::string target_;    ///< the file replaced: `path` with links resolved
  std::string temporary_; ///< empty when written in place
  std::FILE* stream_ = nullptr;
  TemporaryFileRecord* record_ = nullptr;
};

/// Writes `text` to `path` through an OutputFile.
[[nodiscard]] Status writeFileAtomically(std::string_view path, std::string_view text,
                                         TemporaryFileRecord* record = nullptr);

} // namespace declone
