// Whole-file reads: regular files and pipes read to their end, and errors.
#include "declone/support/File.h"

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
