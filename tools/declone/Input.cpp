// File and stream I/O for the CLI.
#include "Input.h"

#include "declone/io/Reader.h"
#include "declone/io/Writer.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace declone::cli {

std::string displayName(std::string_view path) {
  return path == "-" ? std::string("<stdin>") : std::string(path);
}

Result<std::string> readInput(std::string_view path) {
  std::FILE* stream = path == "-" ? stdin : std::fopen(std::string(path).c_str(), "rb");
  if (!stream)
    return Error{std::string("cannot open: ") + std::strerror(errno)};
  std::string text;
  char buffer[1 << 16];
  size_t count;
  while ((count = std::fread(buffer, 1, sizeof buffer, stream)) > 0)
    text.append(buffer, count);
  bool failed = std::ferror(stream);
  int savedErrno = errno;
  if (stream != stdin)
    std::fclose(stream);
  if (failed)
    return Error{std::string("cannot read: ") + std::strerror(savedErrno)};
  return text;
}

std::unique_ptr<GraphFile> loadGraphFile(std::string_view path, std::string* contents) {
  Result<std::string> text = readInput(path);
  if (!text.ok()) {
    std::cerr << text.error().format(displayName(path)) << '\n';
    return nullptr;
  }
  Result<std::unique_ptr<GraphFile>> file = readGraphFile(*text);
  if (!file.ok()) {
    std::cerr << file.error().format(displayName(path)) << '\n';
    return nullptr;
  }
  if (contents)
    *contents = std::move(text).value();
  return std::move(file).value();
}

Status writeOutput(std::string_view path, std::string_view text) {
  bool toStdout = path.empty() || path == "-";
  std::FILE* stream = toStdout ? stdout : std::fopen(std::string(path).c_str(), "wb");
  if (!stream)
    return Error{"cannot write '" + std::string(path) + "': " + std::strerror(errno)};
  bool ok = std::fwrite(text.data(), 1, text.size(), stream) == text.size();
  ok = (toStdout ? std::fflush(stream) : std::fclose(stream)) == 0 && ok;
  if (!ok)
    return Error{"cannot write '" + std::string(path) + "'"};
  return declone::ok();
}

int writeGraph(std::string_view path, const GraphFile& file) {
  Status written = writeOutput(path, writeGraphFile(file));
  if (!written.ok()) {
    reportUsageError(written.error().message);
    return kBadInput;
  }
  return kSuccess;
}

void reportUsageError(std::string_view message) {
  std::cerr << "declone: error: " << message << '\n';
}

} // namespace declone::cli
