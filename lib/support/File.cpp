// Whole-file reads with stdio: errno turned into the error message.
#include "declone/support/File.h"

#include "declone/support/HugePages.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>
#include <utility>

namespace declone {

FileText::FileText(FileText&& other) noexcept
    : string_(std::move(other.string_)), pages_(std::exchange(other.pages_, nullptr)),
      size_(std::exchange(other.size_, 0)), pageBytes_(std::exchange(other.pageBytes_, 0)) {}

FileText& FileText::operator=(FileText&& other) noexcept {
  if (this != &other) {
    freePages();
    string_ = std::move(other.string_);
    pages_ = std::exchange(other.pages_, nullptr);
    size_ = std::exchange(other.size_, 0);
    pageBytes_ = std::exchange(other.pageBytes_, 0);
  }
  return *this;
}

FileText::~FileText() {
  freePages();
}

void FileText::freePages() {
  if (!pages_)
    return;
  freeHugePages(pages_, pageBytes_);
  pages_ = nullptr;
  size_ = 0;
  pageBytes_ = 0;
}

Result<FileText> readFile(std::string_view path) {
  std::FILE* stream = path == "-" ? stdin : std::fopen(std::string(path).c_str(), "rb");
  if (!stream)
    return Error{std::string("cannot open: ") + std::strerror(errno)};
  FileText text;
  // A regular file is read in one piece, into a string or pages of its size: growing a string
  // by doubling would hold up to twice the text at once (and copy it as often). Huge pages only
  // from one huge page on: a small file would pay for a 2 MiB page it does not fill.
  struct stat info;
  if (::fstat(::fileno(stream), &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0) {
    auto size = static_cast<size_t>(info.st_size);
    if (size >= kHugePage) {
      text.pageBytes_ = roundUpToHugePages(size);
      text.pages_ = static_cast<char*>(allocateHugePages(size));
      requestPopulation(text.pages_, size);
      text.size_ = std::fread(text.pages_, 1, size, stream);
    } else {
      text.string_.resize(size);
      text.string_.resize(std::fread(text.string_.data(), 1, size, stream));
    }
  }
  // Standard input, a pipe, or a file that grew since fstat: the rest goes into a string.
  char buffer[1 << 16];
  size_t count;
  while ((count = std::fread(buffer, 1, sizeof buffer, stream)) > 0) {
    if (text.pages_) {
      text.string_.assign(text.pages_, text.size_);
      text.freePages();
    }
    text.string_.append(buffer, count);
  }
  bool failed = std::ferror(stream);
  int savedErrno = errno;
  if (stream != stdin)
    std::fclose(stream);
  // Reading a directory opens fine on Linux and fails here with EISDIR.
  if (failed)
    return Error{std::string("cannot read: ") + std::strerror(savedErrno)};
  return text;
}

} // namespace declone
