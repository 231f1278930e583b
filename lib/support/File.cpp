// Whole-file reads with stdio, and writes through a temporary file renamed into place: errno
// turned into the error message.
#include "declone/support/File.h"

#include "declone/support/Bytes.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

namespace declone {

namespace {

/// Closes a stream other than standard input when it goes, also on std::bad_alloc.
struct InputStream {
  std::FILE* stream;
  ~InputStream() {
    if (stream && stream != stdin)
      std::fclose(stream);
  }
};

Error tooLarge(const std::string& what, const ReadLimit& limit) {
  std::string message = what + " the input size limit of " + formatBytes(limit.maxBytes) + " (" +
                        std::to_string(limit.maxBytes) + " bytes)";
  if (!limit.hint.empty())
    message += "; " + std::string(limit.hint);
  return Error{std::move(message)};
}

} // namespace

Result<std::string> readFile(std::string_view path, const ReadLimit& limit) {
  InputStream input{path == "-" ? stdin : std::fopen(std::string(path).c_str(), "rb")};
  std::FILE* stream = input.stream;
  if (!stream)
    return Error{std::string("cannot open: ") + std::strerror(errno)};
  std::string text;
  // A regular file is read in one piece into a buffer of its size: growing a string by doubling
  // would hold up to twice the text at once. Its size is checked before anything is allocated.
  struct stat info;
  if (::fstat(::fileno(stream), &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0) {
    auto size = static_cast<uint64_t>(info.st_size);
    if (limit.maxBytes && size > limit.maxBytes)
      return tooLarge("the file is " + formatBytes(size) + " (" + std::to_string(size) +
                          " bytes), more than",
                      limit);
    text.resize(static_cast<size_t>(size));
    text.resize(std::fread(text.data(), 1, text.size(), stream));
  }
  // Standard input, a pipe, or a file that grew since fstat: the rest is appended, and reading
  // stops at the first block that passes the limit.
  char buffer[1 << 16];
  size_t count;
  while ((count = std::fread(buffer, 1, sizeof buffer, stream)) > 0) {
    if (limit.maxBytes && text.size() + count > limit.maxBytes)
      return tooLarge("the input is longer than", limit); // and not read any further
    text.append(buffer, count);
  }
  // Reading a directory opens fine on Linux and fails here with EISDIR.
  if (std::ferror(stream))
    return Error{std::string("cannot read: ") + std::strerror(errno)};
  return text;
}

namespace {

Error writeError(std::string_view path, int error) {
  return Error{"cannot write '" + std::string(path) + "': " + std::strerror(error)};
}

/// A name no other writer uses: the process, a counter and random bits (processes in other
/// containers may share the folder and the pid).
std::string temporaryName(const std::string& folder, const std::string& base) {
  static std::atomic<unsigned> counter{0};
  static const uint64_t salt = std::random_device()() * 0x9E3779B97F4A7C15ull;
  char suffix[64];
  std::snprintf(suffix, sizeof suffix, ".declone-%d-%u-%06llx.tmp", static_cast<int>(::getpid()),
                counter++, static_cast<unsigned long long>(salt >> 40));
  return folder + "." + base + suffix;
}

} // namespace

Result<OutputFile> OutputFile::open(std::string_view path, TemporaryFileRecord* record) {
  if (path.empty() || path == "-")
    return OutputFile("<stdout>", "", "", stdout, nullptr);
  std::string display(path);
  struct stat existing;
  bool exists = ::stat(display.c_str(), &existing) == 0;
  if (exists && S_ISDIR(existing.st_mode))
    return writeError(path, EISDIR);
  // Only a regular file (or a new one) is replaced: a device, a pipe or /dev/stdout is written
  // as it is, and so is a link that leads nowhere yet (writing creates its target).
  struct stat link;
  bool dangling = !exists && ::lstat(display.c_str(), &link) == 0 && S_ISLNK(link.st_mode);
  auto direct = [&]() -> Result<OutputFile> {
    std::FILE* stream = std::fopen(display.c_str(), "wb");
    if (!stream)
      return writeError(path, errno);
    return OutputFile(display, "", "", stream, nullptr);
  };
  if ((exists && !S_ISREG(existing.st_mode)) || dangling)
    return direct();
  if (exists && ::access(display.c_str(), W_OK) != 0)
    return writeError(path, errno);
  // Through links to the file they name: that file is replaced, the links stay.
  std::string target = display;
  if (exists) {
    char* resolved = ::realpath(display.c_str(), nullptr);
    if (resolved) {
      target = resolved;
      std::free(resolved);
    }
  }
  size_t slash = target.rfind('/');
  std::string folder = slash == std::string::npos ? "" : target.substr(0, slash + 1);
  std::string base = slash == std::string::npos ? target : target.substr(slash + 1);
  std::string temporary;
  int fd = -1, error = 0; // errno is kept: the record's own calls may change it
  auto create = [&] {
    // 0666 less the umask, as fopen would create it; an existing file keeps its mode.
    fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    error = fd < 0 ? errno : 0;
    return fd >= 0;
  };
  for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {
    temporary = temporaryName(folder, base);
    bool created = record ? record->create(temporary, create) : create();
    if (!created && error != EEXIST)
      break;
  }
  if (fd < 0) {
    // A folder that takes no new files, with a file in it that may be written: write it in place
    // (not atomic, as before declone wrote through temporary files).
    if (exists && (error == EACCES || error == EPERM || error == EROFS))
      return direct();
    return writeError(path, error);
  }
  if (exists) {
    // The owner too where allowed (root writing in a user's folder); the set-id bits only then.
    bool owned = ::fchown(fd, existing.st_uid, existing.st_gid) == 0;
    (void)::fchmod(fd, existing.st_mode & (owned ? 07777 : 0777));
  }
  std::FILE* stream = ::fdopen(fd, "wb");
  if (!stream) {
    error = errno;
    ::close(fd);
    auto remove = [&] { ::unlink(temporary.c_str()); };
    record ? record->retire(temporary, remove) : remove();
    return writeError(path, error);
  }
  return OutputFile(display, target, temporary, stream, record);
}

OutputFile::OutputFile(OutputFile&& other) noexcept
    : path_(std::move(other.path_)), target_(std::move(other.target_)),
      temporary_(std::move(other.temporary_)), stream_(other.stream_), record_(other.record_) {
  other.stream_ = nullptr;
  other.temporary_.clear();
}

void OutputFile::retireTemporary(const std::function<void()>& step) {
  if (record_)
    record_->retire(temporary_, step);
  else
    step();
  temporary_.clear();
}

void OutputFile::abandon() {
  if (!temporary_.empty()) {
    if (stream_)
      std::fclose(stream_);
    retireTemporary([&] { ::unlink(temporary_.c_str()); });
  } else if (stream_ && stream_ != stdout) {
    std::fclose(stream_);
  }
  stream_ = nullptr;
}

Error OutputFile::fail(int error) {
  abandon(); // not committed: the file at `path` stays as it was
  return writeError(path_, error ? error : EIO);
}

Status OutputFile::commit() {
  if (!stream_)
    return Error{"cannot write '" + path_ + "': already closed"};
  // An error flag set by an earlier write has lost its errno: EIO stands in for it.
  bool failed = std::ferror(stream_) != 0;
  int error = failed ? EIO : 0;
  if (!failed && std::fflush(stream_) != 0) {
    failed = true;
    error = errno;
  }
  if (stream_ == stdout) {
    stream_ = nullptr;
    return failed ? writeError(path_, error) : ok();
  }
  if (std::fclose(stream_) != 0 && !failed) {
    failed = true;
    error = errno;
  }
  stream_ = nullptr;
  if (!temporary_.empty()) {
    retireTemporary([&] {
      if (!failed && ::rename(temporary_.c_str(), target_.c_str()) != 0) {
        failed = true;
        error = errno;
      }
      if (failed)
        ::unlink(temporary_.c_str());
    });
  }
  return failed ? writeError(path_, error) : ok();
}

Status writeFileAtomically(std::string_view path, std::string_view text,
                           TemporaryFileRecord* record) {
  Result<OutputFile> file = OutputFile::open(path, record);
  if (!file.ok())
    return file.error();
  if (std::fwrite(text.data(), 1, text.size(), file->stream()) != text.size())
    return file->fail(errno);
  return file->commit();
}

} // namespace declone
