// Clone elimination on every real dump: no errors, the result re-parses, no clone whose layout
// provably differs from its source's is removed, and a second run changes nothing.
#include "TestSupport.h"
#include "declone/analysis/LayoutAnalysis.h"
#include "declone/transforms/CloneElimination.h"

#include <algorithm>
#include <filesystem>
#include <set>

namespace declone::test {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> corpusFiles() {
  std::vector<std::string> files;
  if (!fs::exists(DECLONE_CORPUS_DIR))
    return files;
  for (const auto& entry : fs::recursive_directory_iterator(DECLONE_CORPUS_DIR)) {
    std::string extension = entry.path().extension().string();
    if (entry.is_regular_file() && (extension == ".py" || extension == ".fx"))
      files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

/// Names of the clones (in every graph of the file) whose layout provably differs from their
/// source's, whatever the pass decides.
std::set<std::string> clonesWithDifferentLayout(GraphModule& module) {
  std::set<std::string> names;
  Graph& graph = module.graph;
  EffectAnalysis effects(graph, SchemaRegistry::builtin());
  LayoutAnalysis layouts(graph, effects);
  for (const Node* node : graph) {
    if (!node->isCall() || !node->target()->isOp("aten", "clone") || !node->args()[0].isNode())
      continue;
    const Layout* clone = layouts.layout(node);
    const Layout* source = layouts.layout(node->args()[0].node());
    if (!clone || !source)
      continue;
    bool differs =
        clone->dtype != source->dtype || !std::equal(clone->sizes.begin(), clone->sizes.end(),
                                                     source->sizes.begin(), source->sizes.end());
    if (clone->strides && source->strides)
      differs = differs || !std::equal(clone->strides->begin(), clone->strides->end(),
                                       source->strides->begin(), source->strides->end());
    if (clone->storageOffset && source->storageOffset)
      differs = differs || *clone->storageOffset != *source->storageOffset;
    if (differs)
      names.insert(std::string(node->name()));
  }
  for (auto& child : module.children)
    for (const std::string& name : clonesWithDifferentLayout(*child))
      names.insert(name);
  return names;
}

class CorpusOpt : public ::testing::TestWithParam<std::tuple<std::string, CloneEliminationMode>> {};

TEST_P(CorpusOpt, RemovesOnlyClonesWithTheSameLayoutAndIsIdempotent) {
  auto [path, mode] = GetParam();
  auto file = parseOrFail(readFileOrDie(path));
  ASSERT_TRUE(file);
  CloneEliminationOptions options;
  options.mode = mode;
  for (auto& module : file->modules) {
    std::set<std::string> mustStay = clonesWithDifferentLayout(*module);
    CloneEliminationResult result = eliminateClones(*module, options);
    EXPECT_EQ(result.remarks.size(), result.stats.clones);
    for (const Remark& remark : result.remarks) {
      if (remark.decision == Remark::Decision::Removed) {
        EXPECT_EQ(mustStay.count(remark.node), 0u)
            << remark.node << " was removed although its layout differs from its source's";
      }
    }
  }
  std::string once = writeGraphFile(*file);
  auto reread = readGraphFile(once);
  ASSERT_TRUE(reread.ok()) << reread.error().format("<optimized " + path + ">");
  for (auto& module : (*reread)->modules) {
    CloneEliminationResult again = eliminateClones(*module, options);
    EXPECT_EQ(again.stats.removed, 0u) << "a second run removed more clones";
  }
  EXPECT_EQ(writeGraphFile(**reread), once);
}

/// Runs the pass on two parses of `path`, with `a` on one and `b` on the other; hands each
/// module's two results to `compare` and expects the two rewritten texts to be equal.
template <class Compare>
void expectSameRewrite(const std::string& path, const CloneEliminationOptions& a,
                       const CloneEliminationOptions& b, Compare compare) {
  std::string text = readFileOrDie(path);
  auto first = parseOrFail(text);
  auto second = parseOrFail(text);
  ASSERT_TRUE(first && second);
  for (size_t i = 0; i < first->modules.size(); ++i)
    compare(eliminateClones(*first->modules[i], a), eliminateClones(*second->modules[i], b));
  EXPECT_EQ(writeGraphFile(*first), writeGraphFile(*second));
}

// Without remarks the pass must decide, count and rewrite exactly as with them.
TEST_P(CorpusOpt, StatisticsAndRewriteDoNotDependOnCollectingRemarks) {
  auto [path, mode] = GetParam();
  CloneEliminationOptions options;
  options.mode = mode;
  CloneEliminationOptions quiet = options;
  quiet.collectRemarks = false;
  expectSameRewrite(path, options, quiet,
                    [](const CloneEliminationResult& a, const CloneEliminationResult& b) {
                      EXPECT_TRUE(b.remarks.empty());
                      EXPECT_EQ(a.changed, b.changed);
                      EXPECT_EQ(a.stats.clones, b.stats.clones);
                      EXPECT_EQ(a.stats.removed, b.stats.removed);
                      EXPECT_EQ(a.stats.kept, b.stats.kept);
                      EXPECT_EQ(a.stats.bytesRemoved, b.stats.bytesRemoved);
                    });
}

INSTANTIATE_TEST_SUITE_P(Files, CorpusOpt,
                         ::testing::Combine(::testing::ValuesIn(corpusFiles()),
                                            ::testing::Values(CloneEliminationMode::Safe,
                                                              CloneEliminationMode::Vllm)),
                         fileAndModeTestName);

} // namespace
} // namespace declone::test
