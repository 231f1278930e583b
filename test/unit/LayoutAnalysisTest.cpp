// Layout inference: storage offsets of view ops, clone strides per memory format, density.
#include "declone/analysis/LayoutAnalysis.h"

#include "TestSupport.h"
#include "analysis/StrideInference.h"

namespace declone::test {
namespace {

/// Parses a graph whose single input is `input` and whose nodes are `body` (one per line,
/// without indentation), and returns the inferred layout of node `name` as text.
class LayoutOf {
public:
  LayoutOf(std::string_view input, std::string_view body) {
    std::string text = "def forward(self, x: \"" + std::string(input) + "\", n: \"Sym(s0)\"):\n";
    size_t start = 0;
    std::string last;
    while (start < body.size()) {
      size_t end = body.find('\n', start);
      std::string line(body.substr(start, end - start));
      if (!line.empty()) {
        text += "    " + line + "\n";
        last = line.substr(0, line.find_first_of(": ="));
      }
      if (end == std::string_view::npos)
        break;
      start = end + 1;
    }
    text += "    return (" + last + ", n)\n";
    file_ = parseOrFail(text);
    if (!file_)
      return;
    effects_ = std::make_unique<EffectAnalysis>(firstGraph(*file_), SchemaRegistry::builtin());
    layouts_ = std::make_unique<LayoutAnalysis>(firstGraph(*file_), *effects_);
  }

  std::string operator()(std::string_view name) const {
    if (!file_)
      return "<parse error>";
    Node* node = findNode(firstGraph(*file_), name);
    if (!node)
      return "<no node>";
    const Layout* layout = layouts_->layout(node);
    return layout ? formatLayout(file_->context->sym(), *layout) : "<unknown>";
  }

private:
  std::unique_ptr<GraphFile> file_;
  std::unique_ptr<EffectAnalysis> effects_;
  std::unique_ptr<LayoutAnalysis> layouts_;
};

TEST(LayoutAnalysis, OffsetsOfViewOps) {
  LayoutOf layout(
      "f32[6, 5][5, 1]cpu",
      "slice_1: \"f32[4, 5][5, 1]cpu\" = torch.ops.aten.slice.Tensor(x, 0, 2, "
      "9223372036854775807)\n"
      "slice_2: \"f32[4, 3][5, 1]cpu\" = torch.ops.aten.slice.Tensor(slice_1, 1, -3)\n"
      "select: \"f32[3][1]cpu\" = torch.ops.aten.select.int(slice_2, 0, -1)\n"
      "narrow: \"f32[6, 2][5, 1]cpu\" = torch.ops.aten.narrow.default(x, 1, 3, 2)\n"
      "diagonal: \"f32[4][6]cpu\" = torch.ops.aten.diagonal.default(x, 1)\n"
      "diagonal_1: \"f32[4][6]cpu\" = torch.ops.aten.diagonal.default(x, -2)\n"
      "as_strided: \"f32[2, 2][1, 2]cpu\" = torch.ops.aten.as_strided.default(x, [2, 2], [1, 2], "
      "7)\n"
      "permute: \"f32[5, 6][1, 5]cpu\" = torch.ops.aten.permute.default(slice_1, [1, 0])\n"
      "t: \"f32[5, 6][1, 5]cpu\" = torch.ops.aten.t.default(slice_1)\n"
      "unsqueeze: \"f32[1, 4, 5][20, 5, 1]cpu\" = torch.ops.aten.unsqueeze.default(slice_1, 0)\n"
      "expand: \"f32[2, 4, 5][0, 5, 1]cpu\" = torch.ops.aten.expand.default(unsqueeze, [2, -1, "
      "-1])\n"
      "view: \"f32[20][1]cpu\" = torch.ops.aten.view.default(slice_1, [20])\n"
      "reshape: \"f32[20][1]cpu\" = torch.ops.aten.reshape.default(x, [30])\n"
      "add_: \"f32[4, 5][5, 1]cpu\" = torch.ops.aten.add_.Tensor(slice_1, 1)\n"
      "relu: \"f32[4, 5][5, 1]cpu\" = torch.ops.aten.relu.default(slice_1)\n"
      "slice_3: \"f32[s0, 5][5, 1]cpu\" = torch.ops.aten.slice.Tensor(x, 0, n, "
      "9223372036854775807)");
  EXPECT_EQ(layout("x"), "f32[6, 5][5, 1]cpu@0");
  EXPECT_EQ(layout("slice_1"), "f32[4, 5][5, 1]cpu@10");
  EXPECT_EQ(layout("slice_2"), "f32[4, 3][5, 1]cpu@12") << "a negative start counts from the end";
  EXPECT_EQ(layout("select"), "f32[3][1]cpu@27");
  EXPECT_EQ(layout("narrow"), "f32[6, 2][5, 1]cpu@3");
  EXPECT_EQ(layout("diagonal"), "f32[4][6]cpu@1");
  EXPECT_EQ(layout("diagonal_1"), "f32[4][6]cpu@10");
  EXPECT_EQ(layout("as_strided"), "f32[2, 2][1, 2]cpu@7");
  EXPECT_EQ(layout("permute"), "f32[5, 6][1, 5]cpu@10");
  EXPECT_EQ(layout("t"), "f32[5, 6][1, 5]cpu@10");
  EXPECT_EQ(layout("expand"), "f32[2, 4, 5][0, 5, 1]cpu@10");
  EXPECT_EQ(layout("view"), "f32[20][1]cpu@10");
  EXPECT_EQ(layout("reshape"), "f32[20][1]cpu@0") << "view or copy, both start at 0 here";
  EXPECT_EQ(layout("add_"), "f32[4, 5][5, 1]cpu@10") << "in-place ops return their input";
  EXPECT_EQ(layout("relu"), "f32[4, 5][5, 1]cpu@0") << "fresh results start at 0";
  EXPECT_EQ(layout("slice_3"), "f32[s0, 5][5, 1]cpu@?")
      << "the int argument s0 may be past the end of 6 rows, where slice clamps it";
}

TEST(LayoutAnalysis, OffsetsOfSplitElements) {
  LayoutOf layout("f32[10, 4][4, 1]cpu",
                  "split = torch.ops.aten.split.Tensor(x, 3)\n"
                  "getitem: \"f32[3, 4][4, 1]cpu\" = split[2]\n"
                  "chunk = torch.ops.aten.chunk.default(x, 3, 0)\n"
                  "getitem_1: \"f32[4, 4][4, 1]cpu\" = chunk[1]\n"
                  "unbind = torch.ops.aten.unbind.int(x, 1)\n"
                  "getitem_2: \"f32[10][4]cpu\" = unbind[2]\n"
                  "split_with_sizes = torch.ops.aten.split_with_sizes.default(x, [1, 2, 7])\n"
                  "getitem_3: \"f32[7, 4][4, 1]cpu\" = split_with_sizes[2]");
  EXPECT_EQ(layout("getitem"), "f32[3, 4][4, 1]cpu@24");
  EXPECT_EQ(layout("getitem_1"), "f32[4, 4][4, 1]cpu@16") << "chunk size is ceil(10 / 3)";
  EXPECT_EQ(layout("getitem_2"), "f32[10][4]cpu@2");
  EXPECT_EQ(layout("getitem_3"), "f32[7, 4][4, 1]cpu@12");
}

TEST(LayoutAnalysis, UnknownStaysUnknown) {
  LayoutOf layout("f32[6, 5]", "slice_1: \"f32[4, 5]\" = torch.ops.aten.slice.Tensor(x, 0, 2)\n"
                               "clone: \"f32[4, 5]\" = torch.ops.aten.clone.default(slice_1)\n"
                               "foo: \"f32[4, 5][5, 1]cpu\" = torch.ops.mylib.foo.default(x)\n"
                               "bar = torch.ops.aten.relu.default(x)");
  EXPECT_EQ(layout("x"), "f32[6, 5][?]@0");
  EXPECT_EQ(layout("slice_1"), "f32[4, 5][?]@?") << "the offset needs the input's strides";
  EXPECT_EQ(layout("clone"), "f32[4, 5][?]@0") << "preserve_format needs the input's strides";
  EXPECT_EQ(layout("foo"), "f32[4, 5][5, 1]cpu@? neg?")
      << "an op without schema may return a view, even a negative one";
  EXPECT_EQ(layout("bar"), "<unknown>");
}

TEST(LayoutAnalysis, CloneStridesPerMemoryFormat) {
  LayoutOf layout("f32[2, 3, 4, 5][60, 1, 15, 3]cpu",
                  "clone: \"f32[2, 3, 4, 5]cpu\" = torch.ops.aten.clone.default(x)\n"
                  "clone_1: \"f32[2, 3, 4, 5]cpu\" = torch.ops.aten.clone.default(x, memory_format "
                  "= torch.contiguous_format)\n"
                  "clone_2: \"f32[2, 3, 4, 5]cpu\" = torch.ops.aten.clone.default(clone_1, "
                  "memory_format = torch.channels_last)\n"
                  "permute: \"f32[5, 4, 3, 2][3, 15, 1, 60]cpu\" = "
                  "torch.ops.aten.permute.default(x, [3, 2, 1, 0])\n"
                  "slice_1: \"f32[5, 4, 3, 1][3, 15, 1, 60]cpu\" = "
                  "torch.ops.aten.slice.Tensor(permute, 3, 0, 1)\n"
                  "slice_2: \"f32[5, 2, 3, 1][3, 15, 1, 60]cpu\" = "
                  "torch.ops.aten.slice.Tensor(slice_1, 1, 0, 2)\n"
                  "clone_3: \"f32[5, 2, 3, 1]cpu\" = torch.ops.aten.clone.default(slice_2)\n"
                  "slice_3: \"f32[5, 4, 2, 1][3, 15, 1, 60]cpu\" = "
                  "torch.ops.aten.slice.Tensor(slice_1, 2, 0, 2)\n"
                  "clone_4: \"f32[5, 4, 2, 1]cpu\" = torch.ops.aten.clone.default(slice_3)");
  EXPECT_EQ(layout("clone"), "f32[2, 3, 4, 5][60, 1, 15, 3]cpu@0 (strides inferred)")
      << "dense: strides kept";
  EXPECT_EQ(layout("clone_1"), "f32[2, 3, 4, 5][60, 20, 5, 1]cpu@0 (strides inferred)");
  EXPECT_EQ(layout("clone_2"), "f32[2, 3, 4, 5][60, 1, 15, 3]cpu@0 (strides inferred)");
  // Expected values are what torch 1.13 computes for the same views.
  EXPECT_EQ(layout("clone_3"), "f32[5, 2, 3, 1][3, 15, 1, 60]cpu@0 (strides inferred)")
      << "slicing the outermost dimension keeps a permuted tensor dense";
  EXPECT_EQ(layout("clone_4"), "f32[5, 4, 2, 1][2, 10, 1, 40]cpu@0 (strides inferred)")
      << "not dense: dense strides in the input's stride order";
}

TEST(LayoutAnalysis, DensityAndSymbolicCloneStrides) {
  Context context;
  SymContext& sym = context.sym();
  test::declareInputSizes(sym);
  auto s = [&](std::string_view text) { return *sym.parse(text); };
  std::vector<SymExpr> sizes = {s("s0"), s("s1"), SymExpr::constant(8)};
  std::vector<SymExpr> contiguous = {s("8*s1"), SymExpr::constant(8), SymExpr::constant(1)};
  EXPECT_EQ(LayoutAnalysis::isNonOverlappingAndDense(sym, sizes, contiguous), true);
  std::vector<SymExpr> gappy = {s("16*s1"), SymExpr::constant(8), SymExpr::constant(1)};
  EXPECT_EQ(LayoutAnalysis::isNonOverlappingAndDense(sym, sizes, gappy), false)
      << "16*s1 is never the 8*s1 a dense layout needs";
  std::vector<SymExpr> open = {s("s2"), SymExpr::constant(8), SymExpr::constant(1)};
  EXPECT_EQ(LayoutAnalysis::isNonOverlappingAndDense(sym, sizes, open), std::nullopt)
      << "s2 may or may not be 8*s1";
  std::vector<SymExpr> unbackedSizes = {s("u0"), s("s1"), SymExpr::constant(8)};
  EXPECT_EQ(LayoutAnalysis::isNonOverlappingAndDense(sym, unbackedSizes, gappy), std::nullopt)
      << "u0 may be 1, and a size-1 dimension's stride does not matter";
  std::vector<SymExpr> unbackedContiguous = {s("8*s1"), SymExpr::constant(8), SymExpr::constant(1)};
  EXPECT_EQ(LayoutAnalysis::isNonOverlappingAndDense(sym, unbackedSizes, unbackedContiguous), true);
  std::vector<SymExpr> constantSizes = {SymExpr::constant(2), SymExpr::constant(3)};
  std::vector<SymExpr> overlapping = {SymExpr::constant(1), SymExpr::constant(1)};
  EXPECT_EQ(LayoutAnalysis::isNonOverlappingAndDense(sym, constantSizes, overlapping), false);
  std::vector<SymExpr> sizeOne = {SymExpr::constant(1), SymExpr::constant(3)};
  std::vector<SymExpr> anyStride = {SymExpr::constant(99), SymExpr::constant(1)};
  EXPECT_EQ(LayoutAnalysis::isNonOverlappingAndDense(sym, sizeOne, anyStride), true)
      << "size-1 dimensions do not matter for density";

  Layout input;
  input.sizes = sizes;
  input.strides = std::span<const SymExpr>(contiguous);
  auto strides = LayoutAnalysis::cloneStrides(sym, input, MemoryFormat::Contiguous);
  ASSERT_TRUE(strides);
  EXPECT_EQ((*strides)[0], s("s1*8")) << "provably equal spellings compare equal";
  EXPECT_EQ((*strides)[1], SymExpr::constant(8));
  EXPECT_FALSE(LayoutAnalysis::cloneStrides(sym, input, MemoryFormat::ChannelsLast))
      << "channels_last needs 4 dimensions";

  // Without elements eager and FakeTensor lay a preserving clone out differently.
  std::vector<SymExpr> emptySizes = {s("s0"), SymExpr::constant(0), SymExpr::constant(4)};
  std::vector<SymExpr> sliced = {SymExpr::constant(8), SymExpr::constant(4), SymExpr::constant(1)};
  Layout empty;
  empty.sizes = emptySizes;
  empty.strides = std::span<const SymExpr>(sliced);
  EXPECT_EQ(LayoutAnalysis::cloneStrides(sym, empty, MemoryFormat::Preserve), std::nullopt);
  std::vector<SymExpr> emptyContiguous = {SymExpr::constant(4), SymExpr::constant(4),
                                          SymExpr::constant(1)};
  empty.strides = std::span<const SymExpr>(emptyContiguous);
  EXPECT_TRUE(LayoutAnalysis::cloneStrides(sym, empty, MemoryFormat::Preserve));
}

} // namespace
} // namespace declone::test

namespace declone::test {
namespace {

// The pass hands EffectAnalysis the references it counted in a walk of its own: it must give
// what the walking constructor gives.
TEST(LayoutAnalysis, CountedReferencesGiveWhatTheWalkGives) {
  std::unique_ptr<GraphFile> file = parseOrFail(
      "def forward(self, x: \"f32[2, 3, 4, 5][60, 1, 15, 3]cpu\", n: \"Sym(s0)\"):\n"
      "    permute: \"f32[5, 4, 3, 2][3, 15, 1, 60]cpu\" = "
      "torch.ops.aten.permute.default(x, [3, 2, 1, 0])\n"
      "    slice_1: \"f32[5, 4, 3, 1]\" = torch.ops.aten.slice.Tensor(permute, 3, 0, 1)\n"
      "    clone: \"f32[5, 4, 3, 1]cpu\" = torch.ops.aten.clone.default(slice_1)\n"
      "    clone_1: \"f32[5, 4, 3, 1]cpu\" = torch.ops.aten.clone.default(clone, memory_format "
      "= torch.contiguous_format)\n"
      "    view: \"f32[60][1]cpu\" = torch.ops.aten.view.default(clone_1, [60])\n"
      "    clone_2: \"f32[60]cpu\" = torch.ops.aten.clone(view)\n"
      "    add: \"f32[60][1]cpu\" = torch.ops.aten.add.Tensor(clone_2, n)\n"
      "    clone_3: \"f32[2, 3, 4, 5]cpu\" = torch.ops.aten.clone.default(x, memory_format "
      "= torch.channels_last)\n"
      "    return (add, clone_3, n)\n");
  ASSERT_TRUE(file);
  const Graph& graph = firstGraph(*file);
  EffectAnalysis walked(graph, SchemaRegistry::builtin());
  EffectAnalysis counted(graph, SchemaRegistry::builtin(), EffectAnalysis::countReferences(graph));
  for (Node* node : graph)
    EXPECT_EQ(walked.accesses(node).size(), counted.accesses(node).size()) << node->name();
}

} // namespace
} // namespace declone::test

namespace declone::test {
namespace {

std::vector<SymExpr> ints(std::initializer_list<int64_t> values) {
  std::vector<SymExpr> out;
  for (int64_t value : values)
    out.push_back(SymExpr::constant(value));
  return out;
}

// PyTorch's computeStride, case by case (expected values from torch 2.13's view/reshape).
TEST(StrideInference, ViewStridesFollowComputeStride) {
  Context context;
  SymContext& sym = context.sym();
  auto view = [&](std::initializer_list<int64_t> sizes, std::initializer_list<int64_t> strides,
                  std::initializer_list<int64_t> newSizes) -> std::string {
    detail::ViewStrides out = detail::viewStrides(sym, ints(sizes), ints(strides), ints(newSizes));
    if (!out.strides)
      return out.copies ? "copy" : "undecided";
    std::string text;
    for (const SymExpr& value : *out.strides)
      text += (text.empty() ? "" : ",") + sym.print(value);
    return text;
  };
  EXPECT_EQ(view({4, 2, 3}, {1, 12, 4}, {4, 6}), "1,4") << "merging dims 1 and 2 of a permute";
  EXPECT_EQ(view({4, 2, 3}, {1, 12, 4}, {2, 12}), "copy") << "reshape copies";
  EXPECT_EQ(view({2, 3}, {3, 1}, {3, 1, 2}), "2,2,1") << "a size-1 dimension";
  EXPECT_EQ(view({0, 3}, {3, 1}, {3, 0}), "1,1") << "no elements: contiguous, size 0 as 1";
  EXPECT_EQ(view({0, 3}, {7, 1}, {0, 3}), "undecided")
      << "no elements: computeStride keeps the strides, FakeTensor makes them contiguous";
  EXPECT_EQ(view({2, 3}, {1, 2}, {2, 3, 1}), "undecided")
      << "a size-1 dimension's stride: computeStride and FakeTensor's split_dim differ";
  EXPECT_EQ(view({2, 1, 3}, {1, 9, 2}, {2, 1, 3}), "1,9,2") << "the same shape is view_of";
  EXPECT_EQ(view({}, {}, {1, 1}), "1,1") << "a 0-dim tensor";
  EXPECT_EQ(view({6}, {2}, {2, 3}), "6,2") << "a strided vector";
}

// computeStride over symbolic sizes: decided where every value of the symbols (backed sizes
// at least 2) gives one answer, as the guards of the trace would.
TEST(StrideInference, SymbolicViewStrides) {
  Context context;
  SymContext& sym = context.sym();
  test::declareInputSizes(sym);
  auto list = [&](std::initializer_list<std::string_view> texts) {
    std::vector<SymExpr> out;
    for (std::string_view text : texts)
      out.push_back(*sym.parse(text));
    return out;
  };
  auto view = [&](std::vector<SymExpr> sizes, std::vector<SymExpr> strides,
                  std::vector<SymExpr> newSizes) -> std::string {
    detail::ViewStrides out = detail::viewStrides(sym, sizes, strides, newSizes);
    if (!out.strides)
      return out.copies ? "copy" : "undecided";
    return formatSymList(sym, *out.strides);
  };
  EXPECT_EQ(
      view(list({"s0", "s1", "64"}), list({"192*s1", "192", "1"}), list({"s0", "s1", "4", "16"})),
      "[192*s1, 192, 16, 1]")
      << "a piece of split, viewed as heads";
  EXPECT_EQ(view(list({"s0", "64"}), list({"128", "1"}), list({"64*s0"})), "copy")
      << "64*s0 elements are never the 64 of one row";
  EXPECT_EQ(view(list({"s0", "s1"}), list({"s2", "1"}), list({"s0*s1"})), "undecided")
      << "s2 against s1 depends on the sizes";
  EXPECT_EQ(view(list({"s0", "u0"}), list({"u0", "1"}), list({"s0*u0"})), "undecided")
      << "an unbacked size may be 0 or 1";
}

TEST(StrideInference, SymbolicContiguousViewsAndPointwise) {
  LayoutOf layout("f32[s0, 4][4, 1]cpu",
                  "view: \"f32[2*s0, 2]cpu\" = torch.ops.aten.view.default(x, [-1, 2])\n"
                  "add: \"f32[2*s0, 2]cpu\" = torch.ops.aten.add.Tensor(view, view)\n"
                  "permute: \"f32[2, 2*s0]cpu\" = torch.ops.aten.permute.default(add, [1, 0])\n"
                  "mul: \"f32[2, 2*s0]cpu\" = torch.ops.aten.mul.Tensor(permute, permute)");
  EXPECT_EQ(layout("view"), "f32[2*s0, 2][2, 1]cpu@0 (strides inferred)");
  EXPECT_EQ(layout("add"), "f32[2*s0, 2][2, 1]cpu@0 (strides inferred)");
  EXPECT_EQ(layout("permute"), "f32[2, 2*s0][1, 2]cpu@0 (strides inferred)");
  EXPECT_EQ(layout("mul"), "f32[2, 2*s0][1, 2]cpu@0 (strides inferred)")
      << "symbolic and not contiguous: 1 < 2 orders the dimensions";
}

// With symbolic sizes FakeTensor orders dimensions by comparing strides as guards do, by the
// sizes the trace saw: only orders that hold for every size (backed sizes are at least 2) are
// inferred.
TEST(StrideInference, SymbolicStridesOrders) {
  LayoutOf layout("f32[s0, 64, s1][64*s1, 1, 64]cpu",
                  "relu: \"f32[s0, 64, s1]cpu\" = torch.ops.aten.relu.default(x)\n"
                  "slice: \"f32[s0, 32, s1]cpu\" = torch.ops.aten.slice.Tensor(x, 1, 0, 32)\n"
                  "add: \"f32[s0, 32, s1]cpu\" = torch.ops.aten.add.Tensor(slice, 1)");
  EXPECT_EQ(layout("relu"), "f32[s0, 64, s1][64*s1, 1, 64]cpu@0 (strides inferred)")
      << "1 < 64 < 64*s1 for every s1 >= 2";
  EXPECT_EQ(layout("add"), "f32[s0, 32, s1][32*s1, 1, 32]cpu@0 (strides inferred)");
  LayoutOf dependsOnSize("f32[4, 4][s1, 64]cpu",
                         "neg: \"f32[4, 4]cpu\" = torch.ops.aten.neg.default(x)");
  EXPECT_EQ(dependsOnSize("neg"), "f32[4, 4][?]cpu@0") << "s1 against 64 depends on s1";
  LayoutOf unbacked("f32[4, 4][64*u0, 64]cpu",
                    "exp: \"f32[4, 4]cpu\" = torch.ops.aten.exp.default(x)");
  EXPECT_EQ(unbacked("exp"), "f32[4, 4][?]cpu@0") << "an unbacked size may be 0";
}

TEST(StrideInference, InPlaceResultsAndLayoutChangers) {
  LayoutOf layout("f32[2, 3][1, 2]cpu",
                  "relu_: \"f32[2, 3]cpu\" = torch.ops.aten.relu_.default(x)\n"
                  "as_strided_: \"f32[3, 2]cpu\" = torch.ops.aten.as_strided_.default(relu_, [3, "
                  "2], [2, 1])\n"
                  "t_: \"f32[2, 3]cpu\" = torch.ops.aten.t_.default(as_strided_)");
  EXPECT_EQ(layout("relu_"), "f32[2, 3][1, 2]cpu@0 (strides inferred) changed in place by "
                             "as_strided_")
      << "an in-place result is its input's tensor";
  EXPECT_EQ(layout("as_strided_"),
            "f32[3, 2][2, 1]cpu@0 (strides inferred) changed in place by as_strided_");
  EXPECT_EQ(layout("t_"), "f32[2, 3][?]cpu@0 changed in place by as_strided_")
      << "t_ changes the layout: its input's strides are not its result's";
}

} // namespace
} // namespace declone::test
