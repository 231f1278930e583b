// Round-trip guarantees on real dumps: parse, print fixpoint, parse(print(g)) == g, identity.
#include "TestSupport.h"

#include <algorithm>
#include <filesystem>

namespace declone::test {
namespace {

namespace fs = std::filesystem;

/// Every graph file the round-trip guarantees are checked on: the shared corpus (by path, never
/// copied), the examples and the golden inputs of the io lit tests.
std::vector<std::string> roundTripFiles() {
  std::vector<std::string> files;
  for (const char* root : {DECLONE_CORPUS_DIR, DECLONE_SOURCE_DIR "/examples",
                           DECLONE_SOURCE_DIR "/test/lit/roundtrip"}) {
    if (!fs::exists(root))
      continue;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
      std::string extension = entry.path().extension().string();
      if (entry.is_regular_file() && (extension == ".py" || extension == ".fx"))
        files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

class CorpusRoundTrip : public ::testing::TestWithParam<std::string> {};

TEST_P(CorpusRoundTrip, ParsesAndPrintsBackByteIdentical) {
  std::string text = readFileOrDie(GetParam());
  auto file = readGraphFile(text);
  ASSERT_TRUE(file.ok()) << file.error().format(GetParam());
  std::string printed = writeGraphFile(**file);
  // Every dump in the corpus is canonical PyTorch output (or declone's own), so the writer must
  // reproduce it exactly; the missing trailing newline of some dumps is kept too.
  EXPECT_EQ(printed, text);

  auto reread = readGraphFile(printed);
  ASSERT_TRUE(reread.ok()) << reread.error().format("<printed " + GetParam() + ">");
  EXPECT_EQ(describeDifference(**file, **reread), "");
  EXPECT_EQ(writeGraphFile(**reread), printed) << "print is not a fixpoint";
}

TEST(CorpusRoundTrip, CorpusIsPresent) {
  // Guards against a silently empty parameter list (e.g. a moved shared/ folder).
  ASSERT_TRUE(fs::exists(DECLONE_CORPUS_DIR)) << DECLONE_CORPUS_DIR;
  EXPECT_GE(roundTripFiles().size(), 30u);
}

std::string testName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = fs::path(info.param).parent_path().filename().string() + "_" +
                     fs::path(info.param).stem().string();
  std::replace_if(
      name.begin(), name.end(), [](char c) { return !std::isalnum(c); }, '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Files, CorpusRoundTrip, ::testing::ValuesIn(roundTripFiles()), testName);

} // namespace
} // namespace declone::test
