// The reader's fast path and its general path agree on every corpus, lit and fuzz input file.
#include "../support/ReadPathOracle.h"
#include "TestSupport.h"

#include <algorithm>
#include <filesystem>

namespace declone::test {
namespace {

namespace fs = std::filesystem;

/// Every file the two paths are compared on: the whole shared corpus, the lit inputs, the fuzz
/// regressions and the fuzzers' seed folders (examples among them). Errors count as results, so
/// files that are not graph text are kept too.
std::vector<std::string> readPathFiles() {
  std::vector<std::string> files;
  auto add = [&](const fs::path& root, bool fxOnly) {
    if (!fs::exists(root))
      return;
    for (const auto& entry : fs::recursive_directory_iterator(root))
      if (entry.is_regular_file() && (!fxOnly || entry.path().extension() == ".fx"))
        files.push_back(entry.path().string());
  };
  add(DECLONE_CORPUS_DIR, false);
  add(DECLONE_SOURCE_DIR "/test/lit", true);
  add(DECLONE_SOURCE_DIR "/test/fuzz/regressions", false);
  add(DECLONE_SOURCE_DIR "/examples", false);
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  return files;
}

class ReadPaths : public ::testing::TestWithParam<std::string> {};

TEST_P(ReadPaths, FastAndGeneralPathsAgree) {
  std::string text = readFileOrDie(GetParam());
  EXPECT_EQ(compareReadPaths(text), "");
}

TEST(ReadPaths, FilesArePresent) {
  // Guards against a silently empty parameter list (e.g. a moved shared/ folder).
  EXPECT_GE(readPathFiles().size(), 80u);
}

std::string testName(const ::testing::TestParamInfo<std::string>& info) {
  fs::path path = info.param;
  std::string name = path.parent_path().filename().string() + "_" + path.filename().string();
  std::replace_if(
      name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); },
      '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Files, ReadPaths, ::testing::ValuesIn(readPathFiles()), testName);

} // namespace
} // namespace declone::test
