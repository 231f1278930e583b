// Whole-file reads with stdio: errno turned into the error message.
#include "declone/support/File.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>

namespace declone {

Result<std::string> readFile(std::string_view path) {
  std::FILE* stream = path == "-" ? stdin : std::fopen(std::string(path).c_str(), "rb");
  if (!stream)
    return Error{std::string("cannot open: ") + std::strerror(errno)};
  std::string text;
  // A regular file is read in one piece into a buffer of its size: growing a string by doubling
  // would hold up to twice the text at once.
  struct stat info;
  if (::fstat(::fileno(stream), &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0) {
    text.resize(static_cast<size_t>(info.st_size));
    text.resize(std::fread(text.data(), 1, text.size(), stream));
  }
  // Standard input, a pipe, or a file that grew since fstat: the rest is appended.
  char buffer[1 << 16];
  size_t count;
  while ((count = std::fread(buffer, 1, sizeof buffer, stream)) > 0)
    text.append(buffer, count);
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
