// Reading whole files (or standard input) into memory; failures to read are errors, not exceptions.
#pragma once

#include "declone/support/Result.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace declone {

/// A whole file's bytes. A regular file of 2 MiB or more (standard input included, when it is
/// one) is read into huge pages that the PagePopulator faults in on another core while the bytes
/// are copied: a 135 MB dump otherwise spends more time on the kernel zeroing its buffer than
/// on copying into it. Smaller files and pipes are read into a string. Not a mapping of the
/// file: a file truncated after it is read (`declone opt F -o F` truncates its own input before
/// writing) must not take the graph's text with it.
class FileText {
public:
  FileText() = default;
  explicit FileText(std::string text) : string_(std::move(text)) {}
  FileText(FileText&& other) noexcept;
  FileText& operator=(FileText&& other) noexcept;
  FileText(const FileText&) = delete;
  FileText& operator=(const FileText&) = delete;
  ~FileText();

  [[nodiscard]] std::string_view view() const {
    return pages_ ? std::string_view(pages_, size_) : std::string_view(string_);
  }

private:
  friend Result<FileText> readFile(std::string_view path);
  void freePages();

  std::string string_; ///< the bytes, when not in pages_
  char* pages_ = nullptr;
  size_t size_ = 0; ///< bytes used in pages_
  size_t pageBytes_ = 0;
};

/// Reads the whole file at `path`, or standard input for "-". The error message names the
/// system's reason ("cannot open: Permission denied"); the caller adds the file name.
[[nodiscard]] Result<FileText> readFile(std::string_view path);

} // namespace declone
