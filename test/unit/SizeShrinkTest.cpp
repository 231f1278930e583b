// SizeShrinker: which sizes a plan shrinks, with what, and the relations it keeps.
#include "declone/analysis/SizeShrink.h"

#include "TestSupport.h"

#include <gtest/gtest.h>
#include <map>

namespace declone {
namespace {

using test::parseOrFail;

/// A one-graph module whose forward takes `params` and runs `body` (lines of 8-space indent).
std::unique_ptr<GraphFile> graphOf(const std::string& params, const std::string& body) {
  return parseOrFail("class GraphModule(torch.nn.Module):\n    def forward(self, " + params +
                     "):\n" + body);
}

const Graph& graphIn(const GraphFile& file) {
  return file.modules.front()->graph;
}

std::vector<SizeChange> planFor(const GraphFile& file, ShrinkBudget budget = {0, 0, 16},
                                const std::set<int64_t>& pinned = {}) {
  std::vector<const Graph*> graphs{&graphIn(file)};
  return SizeShrinker(graphs).plan(budget, pinned);
}

std::map<int64_t, int64_t> asMap(std::span<const SizeChange> changes) {
  std::map<int64_t, int64_t> out;
  for (const SizeChange& change : changes)
    out[change.from] = change.to;
  return out;
}

TEST(SizeShrinkTest, NothingChangesWhenTheGraphFits) {
  auto file = graphOf("arg0_1: \"f32[4096, 64][64, 1]cpu\"",
                      "        relu: \"f32[4096, 64][64, 1]cpu\" = "
                      "torch.ops.aten.relu.default(arg0_1)\n        return (relu,)\n");
  EXPECT_TRUE(planFor(*file, ShrinkBudget{}).empty()); // 2 MiB: within 512 MiB and 5 s
  EXPECT_FALSE(planFor(*file).empty());                // budget 0: shrinks what it can
}

TEST(SizeShrinkTest, MultiplesShrinkWithTheirBaseAndStayDistinct) {
  // 12288 = 8 x 1536 in the view: both shrink by one factor, and no shrunk size meets another
  // value of the graph.
  auto file =
      graphOf("arg0_1: \"f32[8, 1536][1536, 1]cpu\"",
              "        view: \"f32[12288][1]cpu\" = torch.ops.aten.view.default(arg0_1, [12288])\n"
              "        add: \"f32[12288][1]cpu\" = torch.ops.aten.add.Tensor(view, 1)\n"
              "        return (add,)\n");
  std::map<int64_t, int64_t> plan = asMap(planFor(*file));
  ASSERT_TRUE(plan.count(1536)) << describeSizeChanges(planFor(*file));
  ASSERT_TRUE(plan.count(12288));
  EXPECT_EQ(plan[12288], 8 * plan[1536]);
  EXPECT_GE(plan[1536], 16);
  EXPECT_NE(plan[1536], 8);
  EXPECT_FALSE(plan.count(8)); // at the floor: no size at or below 16 shrinks
}

TEST(SizeShrinkTest, DivisibilityBy16And3IsKept) {
  auto file = graphOf("arg0_1: \"f32[3072, 4][4, 1]cpu\"",
                      "        relu: \"f32[3072, 4][4, 1]cpu\" = "
                      "torch.ops.aten.relu.default(arg0_1)\n        return (relu,)\n");
  std::map<int64_t, int64_t> plan = asMap(planFor(*file));
  ASSERT_TRUE(plan.count(3072));
  EXPECT_EQ(plan[3072] % 48, 0);
  EXPECT_LT(plan[3072], 3072);
}

TEST(SizeShrinkTest, SizeOneDimensionsAndDimensionArgumentsAreUntouched) {
  auto file = graphOf("arg0_1: \"f32[1, 4096][4096, 1]cpu\"",
                      "        sum_1: \"f32[1][1]cpu\" = torch.ops.aten.sum.dim_IntList(arg0_1, "
                      "[1])\n        return (sum_1,)\n");
  std::vector<SizeChange> plan = planFor(*file);
  std::map<int64_t, int64_t> map = asMap(plan);
  EXPECT_FALSE(map.count(1));
  EXPECT_TRUE(map.count(4096));
  EXPECT_TRUE(sizeEdits(graphIn(*file), plan).empty()); // [1] names a dimension, not a size
}

TEST(SizeShrinkTest, PinnedValuesAndSizesEqualToThemKeepTheirValues) {
  // 2048 is a convolution's stride here: it and every dimension of 2048 keep their value.
  auto file = graphOf(
      "arg0_1: \"f32[2, 2048, 4096][8388608, 4096, 1]cpu\", arg1_1: \"f32[4, 2048, "
      "2048][4194304, 2048, 1]cpu\"",
      "        convolution: \"f32[2, 4, 2][8, 2, 1]cpu\" = "
      "torch.ops.aten.convolution.default(arg0_1, arg1_1, None, [2048], [0], [1], False, [0], "
      "1)\n        return (convolution,)\n");
  std::map<int64_t, int64_t> plan = asMap(planFor(*file));
  EXPECT_FALSE(plan.count(2048));
  // The caller's pins too.
  auto other = graphOf("arg0_1: \"f32[4096, 64][64, 1]cpu\"",
                       "        relu: \"f32[4096, 64][64, 1]cpu\" = "
                       "torch.ops.aten.relu.default(arg0_1)\n        return (relu,)\n");
  std::map<int64_t, int64_t> pinned = asMap(planFor(*other, {0, 0, 16}, {4096}));
  EXPECT_FALSE(pinned.count(4096));
  EXPECT_TRUE(pinned.count(64));
}

TEST(SizeShrinkTest, AScalarThresholdStaysBelowTheSizeItMasks) {
  // lt(arange(4096), 3000) has a false part; a plan must keep 4096 above 3000.
  auto file =
      graphOf("arg0_1: \"f32[4096][1]cpu\"",
              "        arange: \"i64[4096][1]cpu\" = torch.ops.aten.arange.default(4096, device = "
              "device(type='cpu'), pin_memory = False)\n"
              "        lt: \"b8[4096][1]cpu\" = torch.ops.aten.lt.Scalar(arange, 3000)\n"
              "        mul: \"f32[4096][1]cpu\" = torch.ops.aten.mul.Tensor(arg0_1, lt)\n"
              "        return (mul,)\n");
  std::map<int64_t, int64_t> plan = asMap(planFor(*file));
  EXPECT_FALSE(plan.count(3000));
  if (plan.count(4096)) {
    EXPECT_GT(plan[4096], 3000);
  }
}

TEST(SizeShrinkTest, SliceBoundsKeepTheirOrderAgainstTheDimension) {
  // A partial slice stays partial: 64 < 4096 (and above the floor) is kept below the size.
  auto file = graphOf("arg0_1: \"f32[4096, 8][8, 1]cpu\"",
                      "        slice_1: \"f32[4000, 8][8, 1]cpu\" = "
                      "torch.ops.aten.slice.Tensor(arg0_1, 0, 96, 4096)\n"
                      "        clone: \"f32[4000, 8][8, 1]cpu\" = "
                      "torch.ops.aten.clone.default(slice_1)\n        return (clone,)\n");
  std::vector<SizeChange> plan = planFor(*file);
  std::map<int64_t, int64_t> map = asMap(plan);
  ASSERT_TRUE(map.count(4096)) << describeSizeChanges(plan);
  int64_t start = changedSize(96, plan);
  EXPECT_LT(start, map[4096]);
  EXPECT_GT(start, 0);
}

TEST(SizeShrinkTest, OverlappingSlicesStayOverlapping) {
  // narrow [0, 3000) and slice [-2000:] of 4096 overlap in [2096, 3000).
  auto file = graphOf(
      "arg0_1: \"f32[4096][1]cpu\"",
      "        narrow: \"f32[3000][1]cpu\" = torch.ops.aten.narrow.default(arg0_1, 0, 0, 3000)\n"
      "        slice_1: \"f32[2000][1]cpu\" = torch.ops.aten.slice.Tensor(arg0_1, 0, -2000)\n"
      "        add: \"f32[3000][1]cpu\" = torch.ops.aten.add.Tensor(narrow, 1)\n"
      "        add_1: \"f32[2000][1]cpu\" = torch.ops.aten.add.Tensor(slice_1, 1)\n"
      "        return (add, add_1)\n");
  std::vector<SizeChange> plan = planFor(*file);
  int64_t extent = changedSize(4096, plan), head = changedSize(3000, plan),
          tail = changedSize(2000, plan);
  EXPECT_GT(head, extent - tail) << describeSizeChanges(plan);
  EXPECT_LT(head, extent);
  EXPECT_LT(tail, extent);
}

TEST(SizeShrinkTest, TheLastRowStaysTheLast) {
  // select(4095) and select(-1) name one row of 4096; 4095 is also an unrelated size.
  auto file =
      graphOf("arg0_1: \"f32[4096, 4][4, 1]cpu\", arg1_1: \"f32[4095][1]cpu\"",
              "        select: \"f32[4][1]cpu\" = torch.ops.aten.select.int(arg0_1, 0, 4095)\n"
              "        select_1: \"f32[4][1]cpu\" = torch.ops.aten.select.int(arg0_1, 0, -1)\n"
              "        sub: \"f32[4][1]cpu\" = torch.ops.aten.sub.Tensor(select, select_1)\n"
              "        relu: \"f32[4095][1]cpu\" = torch.ops.aten.relu.default(arg1_1)\n"
              "        return (sub, relu)\n");
  std::vector<SizeChange> plan = planFor(*file);
  EXPECT_EQ(changedSize(4095, plan), changedSize(4096, plan) - 1) << describeSizeChanges(plan);
}

TEST(SizeShrinkTest, SplitSizesStillAddUpToTheDimension) {
  auto file = graphOf(
      "arg0_1: \"f32[8, 2560][2560, 1]cpu\"",
      "        split_with_sizes = torch.ops.aten.split_with_sizes.default(arg0_1, [2048, 256, "
      "256], 1)\n"
      "        getitem: \"f32[8, 2048][2560, 1]cpu\" = split_with_sizes[0]\n"
      "        getitem_1: \"f32[8, 256][2560, 1]cpu\" = split_with_sizes[1]\n"
      "        clone: \"f32[8, 2048][2048, 1]cpu\" = torch.ops.aten.clone.default(getitem)\n"
      "        clone_1: \"f32[8, 256][256, 1]cpu\" = torch.ops.aten.clone.default(getitem_1)\n"
      "        return (clone, clone_1)\n");
  std::vector<SizeChange> plan = planFor(*file);
  EXPECT_FALSE(plan.empty());
  EXPECT_EQ(changedSize(2048, plan) + 2 * changedSize(256, plan), changedSize(2560, plan))
      << describeSizeChanges(plan);
}

TEST(SizeShrinkTest, CostCountsMaterializedTensorsNotViews) {
  auto file = graphOf("arg0_1: \"f32[1024, 1024][1024, 1]cpu\"",
                      "        t: \"f32[1024, 1024][1, 1024]cpu\" = "
                      "torch.ops.aten.t.default(arg0_1)\n"
                      "        clone: \"f32[1024, 1024][1024, 1]cpu\" = "
                      "torch.ops.aten.clone.default(t)\n        return (clone,)\n");
  std::vector<const Graph*> graphs{&graphIn(*file)};
  SizeShrinker shrinker(graphs);
  EXPECT_EQ(shrinker.cost({}).bytes, uint64_t(2) * 1024 * 1024 * 4);
  std::vector<SizeChange> half{{1024, 512}};
  EXPECT_EQ(shrinker.cost(half).bytes, uint64_t(2) * 512 * 512 * 4);
  std::vector<std::pair<int64_t, uint64_t>> dominant = shrinker.dominantSizes(4);
  ASSERT_EQ(dominant.size(), 1u);
  EXPECT_EQ(dominant[0].first, 1024);
}

TEST(SizeShrinkTest, EditsNameTheSizeArgumentsAChangeRewrites) {
  auto file = graphOf("arg0_1: \"f32[8, 1536][1536, 1]cpu\"",
                      "        view: \"f32[12288][1]cpu\" = "
                      "torch.ops.aten.view.default(arg0_1, [12288])\n        return (view,)\n");
  std::vector<SizeChange> changes{{1536, 96}, {12288, 768}};
  std::vector<SizeEdit> edits = sizeEdits(graphIn(*file), changes);
  ASSERT_EQ(edits.size(), 1u);
  EXPECT_EQ(edits[0].position, 1);
  EXPECT_EQ(edits[0].element, 0);
  EXPECT_EQ(edits[0].value, 768);
  EXPECT_EQ(describeSizeChanges(changes), "1536 -> 96, 12288 -> 768");
  EXPECT_EQ(changedSize(-1536, changes), -96);
  EXPECT_EQ(changedSize(7, changes), 7);
}

TEST(SizeShrinkTest, ChangedStridesKeepDenseLayoutsAndGaps) {
  std::vector<SizeChange> changes{{4096, 64}};
  using V = std::vector<int64_t>;
  // Contiguous and transposed layouts stay dense in their order.
  EXPECT_EQ(changedStrides(V{4096, 8}, V{8, 1}, V{64, 8}, changes), V({8, 1}));
  EXPECT_EQ(changedStrides(V{8, 4096}, V{1, 8}, V{8, 64}, changes), V({1, 8}));
  // A size-1 dimension keeps dense strides where it was dense, and an expanded one its 0.
  EXPECT_EQ(changedStrides(V{1, 4096}, V{4096, 1}, V{1, 64}, changes), V({64, 1}));
  EXPECT_EQ(changedStrides(V{4096, 8}, V{0, 1}, V{64, 8}, changes), V({0, 1}));
  // x[:, :3] of a row of 5: the gap keeps its width (5 is no changed size).
  EXPECT_EQ(changedStrides(V{4096, 3}, V{5, 1}, V{64, 3}, changes), V({5, 1}));
  // A row of 4096 sliced to 3000 wide: the width changes with 4096.
  EXPECT_EQ(changedStrides(V{8, 3000}, V{4096, 1}, V{8, 40}, changes), V({64, 1}));
  // Overlapping rows, and a gap the new size would overrun: no layout.
  EXPECT_EQ(changedStrides(V{8, 4}, V{2, 1}, V{8, 4}, changes), std::nullopt);
  EXPECT_EQ(changedStrides(V{8, 4000}, V{4096, 1}, V{8, 100}, changes), std::nullopt);
}

TEST(SizeShrinkTest, ManyDistinctSizesAllShrinkToDistinctValues) {
  // 300 unrelated sizes: each finds a free value (the small ones go first), none meets another.
  std::string params, body, outputs;
  for (int i = 0; i < 300; ++i) {
    std::string size = std::to_string(1000 + 7 * i), name = std::to_string(i);
    params += (i ? ", arg" : "arg") + name + "_1: \"f32[" + size + ", 3][3, 1]cpu\"";
    body += "        relu_" + name + ": \"f32[" + size +
            ", 3][3, 1]cpu\" = "
            "torch.ops.aten.relu.default(arg" +
            name + "_1)\n";
    outputs += "relu_" + name + ", ";
  }
  auto file = graphOf(params, body + "        return (" + outputs + ")\n");
  std::vector<SizeChange> plan = planFor(*file);
  EXPECT_EQ(plan.size(), 300u);
  std::set<int64_t> targets;
  for (const SizeChange& change : plan) {
    EXPECT_GE(change.to, 16);
    EXPECT_NE(change.to, 3);
    targets.insert(change.to);
  }
  EXPECT_EQ(targets.size(), plan.size());
}

TEST(SizeShrinkTest, RealDumpsShrinkToTheBudget) {
  for (const char* name :
       {"qwen2__paral1_layer1__fw.g0.r0.py", "gpt__paral1_layer1__fw.g0.r0.py"}) {
    SCOPED_TRACE(name);
    std::string text = test::readFileOrDie(std::string(DECLONE_CORPUS_DIR) + "/entangle/" + name);
    auto file = parseOrFail(text);
    std::vector<const Graph*> graphs{&graphIn(*file)};
    SizeShrinker shrinker(graphs);
    ShrinkBudget budget;
    RunCost full = shrinker.cost({});
    EXPECT_GT(full.bytes, budget.bytes); // the dumps do not fit as printed
    std::vector<SizeChange> plan = shrinker.plan(budget);
    ASSERT_FALSE(plan.empty());
    RunCost cost = shrinker.cost(plan);
    EXPECT_LE(cost.bytes, budget.bytes);
    EXPECT_LE(cost.seconds, budget.seconds);
    for (const SizeChange& change : plan) {
      EXPECT_LT(change.to, change.from);
      EXPECT_GE(change.to, budget.floor);
    }
  }
}

} // namespace
} // namespace declone
