// Whole-file reads with stdio, and writes through a temporary file renamed into place: errno
// turned into the error message.
#include "declone/support/File.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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

namespace {

// The temporary file being written, for the signal handler to remove: a program writes one
// output at a time. A fixed buffer, since a handler may not allocate.
char pendingTemporary[4096];

void removePendingAndDie(int signal) {
  if (pendingTemporary[0])
    ::unlink(pendingTemporary);
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

/// Removes the temporary file on the signals that end a program by default (Ctrl-C, kill, a
/// closed terminal), where the program has not chosen a handler of its own.
void installSignalHandlers() {
  static bool installed = false;
  if (installed)
    return;
  installed = true;
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction current {};
    if (::sigaction(signal, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) {
      struct sigaction handler {};
      handler.sa_handler = &removePendingAndDie;
      sigemptyset(&handler.sa_mask);
      ::sigaction(signal, &handler, nullptr);
    }
  }
}

Error writeError(std::string_view path, int error) {
  return Error{"cannot write '" + std::string(path) + "': " + std::strerror(error)};
}

} // namespace

Result<OutputFile> OutputFile::open(std::string_view path) {
  if (path.empty() || path == "-")
    return OutputFile("<stdout>", "", stdout);
  std::string target(path);
  struct stat existing;
  bool exists = ::stat(target.c_str(), &existing) == 0;
  if (exists && S_ISDIR(existing.st_mode))
    return writeError(path, EISDIR);
  if (exists && ::access(target.c_str(), W_OK) != 0)
    return writeError(path, errno);
  size_t slash = target.rfind('/');
  std::string folder = slash == std::string::npos ? "" : target.substr(0, slash + 1);
  std::string base = slash == std::string::npos ? target : target.substr(slash + 1);
  static std::atomic<unsigned> counter{0};
  installSignalHandlers();
  std::string temporary;
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {
    temporary = folder + "." + base + ".declone-" + std::to_string(::getpid()) + "-" +
                std::to_string(counter++) + ".tmp";
    // Named for the handler before it exists: a signal may come as soon as it does.
    if (temporary.size() < sizeof pendingTemporary)
      std::memcpy(pendingTemporary, temporary.c_str(), temporary.size() + 1);
    // 0666 less the umask, as fopen would create it; an existing file keeps its mode.
    fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) {
      int error = errno;
      pendingTemporary[0] = '\0';
      return writeError(path, error);
    }
  }
  if (fd < 0) {
    pendingTemporary[0] = '\0';
    return writeError(path, EEXIST);
  }
  if (exists && S_ISREG(existing.st_mode))
    (void)::fchmod(fd, existing.st_mode & 07777);
  std::FILE* stream = ::fdopen(fd, "wb");
  if (!stream) {
    int error = errno;
    ::close(fd);
    ::unlink(temporary.c_str());
    pendingTemporary[0] = '\0';
    return writeError(path, error);
  }
  return OutputFile(target, temporary, stream);
}

OutputFile::OutputFile(OutputFile&& other) noexcept
    : path_(std::move(other.path_)), temporary_(std::move(other.temporary_)),
      stream_(other.stream_) {
  other.stream_ = nullptr;
  other.temporary_.clear();
}

OutputFile::~OutputFile() {
  discard();
}

void OutputFile::discard() {
  if (!temporary_.empty()) {
    if (stream_)
      std::fclose(stream_);
    ::unlink(temporary_.c_str());
    if (temporary_ == pendingTemporary)
      pendingTemporary[0] = '\0';
    temporary_.clear();
  }
  stream_ = nullptr;
}

Status OutputFile::commit() {
  if (!stream_)
    return Error{"cannot write '" + path_ + "': already closed"};
  if (temporary_.empty()) { // standard output
    bool failed = std::ferror(stream_) || std::fflush(stream_) != 0;
    int error = errno;
    stream_ = nullptr;
    return failed ? writeError(path_, error ? error : EIO) : ok();
  }
  bool failed = std::ferror(stream_) != 0;
  int error = failed ? (errno ? errno : EIO) : 0;
  if (std::fclose(stream_) != 0 && !failed) {
    failed = true;
    error = errno;
  }
  stream_ = nullptr;
  if (!failed && ::rename(temporary_.c_str(), path_.c_str()) != 0) {
    failed = true;
    error = errno;
  }
  if (failed) {
    discard();
    return writeError(path_, error);
  }
  if (temporary_ == pendingTemporary)
    pendingTemporary[0] = '\0';
  temporary_.clear();
  return ok();
}

Status writeFileAtomically(std::string_view path, std::string_view text) {
  Result<OutputFile> file = OutputFile::open(path);
  if (!file.ok())
    return file.error();
  // A failed write is not committed: the file at `path` stays as it was.
  if (std::fwrite(text.data(), 1, text.size(), file->stream()) != text.size())
    return writeError(path.empty() || path == "-" ? "<stdout>" : path, errno ? errno : EIO);
  return file->commit();
}

} // namespace declone
