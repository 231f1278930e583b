// SizeShrinker: which sizes a plan shrinks, with what, and the relations it keeps.
#include "TestSupport.h"
#include "declone/analysis/SizeShrink.h"

#include <gtest/gtest.h>

namespace declone {
namespace {

using test::parseOrFail;

[[maybe_unused]] std::vector<SizeChange> planFor(const GraphFile& file, ShrinkBudget budget = {},
                                const std::set<int64_t>& pinned = {}) {
  std::vector<const Graph*> graphs{&file.modules.front()->graph};
  return SizeShrinker(graphs).plan(budget, pinned);
}

TEST(SizeShrinkTest, CorpusDumpsDebug) {
  for (const char* name : {"qwen2__paral1_layer1__fw.g0.r0.py", "gpt__paral1_layer1__fw.g0.r0.py"}) {
    std::string text = test::readFileOrDie(std::string(DECLONE_CORPUS_DIR) + "/entangle/" + name);
    auto file = parseOrFail(text);
    std::vector<const Graph*> graphs{&file->modules.front()->graph};
    SizeShrinker shrinker(graphs);
    RunCost full = shrinker.cost({});
    std::cout << name << " full " << full.bytes << " " << full.seconds << "\n";
    for (auto [v, b] : shrinker.dominantSizes(8))
      std::cout << "  dom " << v << " " << b << "\n";
    auto plan = shrinker.plan({});
    RunCost cost = shrinker.cost(plan);
    std::cout << "  plan " << describeSizeChanges(plan) << " -> " << cost.bytes << " " << cost.seconds << "\n";
  }
}

} // namespace
} // namespace declone
