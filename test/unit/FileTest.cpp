// Whole-file reads: regular files and pipes read to their end, and errors.
#include "declone/support/File.h"

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace declone {
namespace {

namespace fs = std::filesystem;

/// A file under the test's temporary directory, removed afterwards.
class TempFile {
public:
  explicit TempFile(std::string_view stem)
      : path_(fs::temp_directory_path() /
              (std::string(stem) + "." + std::to_string(::getpid()) + ".tmp")) {}
  ~TempFile() {
    std::error_code ignored;
    fs::remove(path_, ignored);
  }
  [[nodiscard]] std::string path() const { return path_.string(); }
  void write(const std::string& text) const { std::ofstream(path_, std::ios::binary) << text; }

private:
  fs::path path_;
};

/// Bytes that differ from place to place, so that a misplaced page shows.
std::string patterned(size_t size) {
  std::string text(size, '\0');
  for (size_t i = 0; i < size; ++i)
    text[i] = static_cast<char>('a' + (i * 31 + i / 4096) % 26);
  return text;
}

TEST(File, RegularFilesOfEverySizeReadWhole) {
  TempFile file("declone-file-test");
  // Empty, a byte, a page less one, and several MiB with a ragged end.
  for (size_t size :
       {size_t(0), size_t(1), size_t(4095), size_t(2) << 20, (size_t(5) << 20) + 12345}) {
    std::string text = patterned(size);
    file.write(text);
    Result<std::string> read = readFile(file.path());
    ASSERT_TRUE(read.ok()) << size;
    EXPECT_EQ(read->size(), size);
    EXPECT_TRUE(*read == text) << size;
  }
}

TEST(File, PipesAreReadToTheirEnd) {
  TempFile fifo("declone-file-fifo");
  ASSERT_EQ(::mkfifo(fifo.path().c_str(), 0600), 0);
  std::string text = patterned((size_t(1) << 20) + 99); // more than a pipe's buffer
  std::thread writer([&] { std::ofstream(fifo.path(), std::ios::binary) << text; });
  Result<std::string> read = readFile(fifo.path());
  writer.join();
  ASSERT_TRUE(read.ok());
  EXPECT_TRUE(*read == text);
}

TEST(File, FilesOverTheLimitAreRefusedBeforeTheyAreRead) {
  TempFile file("declone-file-limit");
  file.write(patterned(1000));
  Result<std::string> fits = readFile(file.path(), {1000});
  ASSERT_TRUE(fits.ok());
  EXPECT_EQ(fits->size(), 1000u);
  Result<std::string> over = readFile(file.path(), {999, "set by --max-input-size"});
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.error().message, "the file is 1000 B (1000 bytes), more than the input size "
                                  "limit of 999 B (999 bytes); set by --max-input-size");
  // A sparse file far larger than memory: its size alone refuses it, nothing is allocated.
  ASSERT_EQ(::truncate(file.path().c_str(), off_t(1) << 40), 0);
  Result<std::string> huge = readFile(file.path(), {uint64_t(1) << 30});
  ASSERT_FALSE(huge.ok());
  EXPECT_TRUE(huge.error().message.starts_with("the file is 1.0 TiB (1099511627776 bytes), more "
                                               "than the input size limit of 1.0 GiB"))
      << huge.error().message;
}

TEST(File, PipesStopBeingReadPastTheLimit) {
  TempFile fifo("declone-file-fifo-limit");
  ASSERT_EQ(::mkfifo(fifo.path().c_str(), 0600), 0);
  // The writer would write forever: reading must stop, and the writer then sees a closed pipe
  // (EPIPE, with SIGPIPE ignored for the test).
  auto previous = std::signal(SIGPIPE, SIG_IGN);
  std::thread writer([&] {
    std::FILE* out = std::fopen(fifo.path().c_str(), "wb");
    std::string block(1 << 16, 'x');
    while (out && std::fwrite(block.data(), 1, block.size(), out) == block.size()) {
    }
    if (out)
      std::fclose(out);
  });
  Result<std::string> read = readFile(fifo.path(), {size_t(1) << 20});
  writer.join();
  std::signal(SIGPIPE, previous);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().message,
            "the input is longer than the input size limit of 1.0 MiB (1048576 bytes)");
}

TEST(File, ErrorsNameTheSystemsReason) {
  Result<std::string> missing = readFile("/nonexistent/declone/file.fx");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, "cannot open: No such file or directory");
  Result<std::string> directory = readFile(fs::temp_directory_path().string());
  ASSERT_FALSE(directory.ok());
  EXPECT_EQ(directory.error().message, "cannot read: Is a directory");
}

} // namespace
} // namespace declone
