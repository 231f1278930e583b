// selectCloneNeighbourhood: the pass decides on the neighbourhood as on the whole graph (every
// corpus dump and lit graph, both modes, and the corner cases of the closure), and the
// neighbourhood leaves out what no decision depends on.
#include "../support/NeighbourhoodCheck.h"
#include "TestSupport.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <ostream>

namespace declone::test {
namespace {

/// What an unknown-effects remark says after the op's name.
#define kSchemaHint                                                                                \
  " (give its schema with --schemas FILE; `python -m declone schemas MODULE` writes one from "     \
  "the module that registers the op)"

namespace fs = std::filesystem;

/// Every real dump and every lit graph that parses (the error tests' do not).
std::vector<std::string> graphFiles() {
  std::vector<std::string> files;
  auto add = [&](const char* root, bool pythonToo) {
    if (!fs::exists(root))
      return;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
      std::string extension = entry.path().extension().string();
      if (entry.is_regular_file() && (extension == ".fx" || (pythonToo && extension == ".py")) &&
          readGraphFile(readFileOrDie(entry.path().string())).ok())
        files.push_back(entry.path().string());
    }
  };
  add(DECLONE_CORPUS_DIR, true);
  add(DECLONE_SOURCE_DIR "/test/lit", false);
  std::sort(files.begin(), files.end());
  return files;
}

class NeighbourhoodOfFile
    : public ::testing::TestWithParam<std::tuple<std::string, CloneEliminationMode>> {};

TEST_P(NeighbourhoodOfFile, DecidesAsTheWholeGraph) {
  auto [path, mode] = GetParam();
  auto file = readGraphFile(readFileOrDie(path));
  ASSERT_TRUE(file.ok()) << file.error().format(path);
  for (auto& module : (*file)->modules) {
    if (!module->children.empty())
      continue; // the copy the check makes holds one graph
    NeighbourhoodCheck check = checkNeighbourhood(*module, mode);
    EXPECT_EQ(check.difference, "") << path;
  }
}

INSTANTIATE_TEST_SUITE_P(Files, NeighbourhoodOfFile,
                         ::testing::Combine(::testing::ValuesIn(graphFiles()),
                                            ::testing::Values(CloneEliminationMode::Safe,
                                                              CloneEliminationMode::Vllm032)),
                         fileAndModeTestName);

/// The roles of the named nodes of `text`'s graph in `mode`'s neighbourhood.
std::map<std::string, NeighbourhoodRole> rolesOf(GraphFile& file, CloneEliminationMode mode) {
  const Graph& graph = firstGraph(file);
  GraphNeighbourhoodSource source(graph);
  std::vector<NeighbourhoodRole> roles =
      selectCloneNeighbourhood(source, SchemaRegistry::builtin(), mode);
  std::map<std::string, NeighbourhoodRole> named;
  for (uint32_t position = 0; position < roles.size(); ++position)
    named[std::string(source.node(position)->name())] = roles[position];
  return named;
}

TEST(CloneNeighbourhood, LeavesOutWhatNoDecisionDependsOn) {
  auto file = parseOrFail(R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu", arg1_1: "f32[4][1]cpu"):
        sin: "f32[4][1]cpu" = torch.ops.aten.sin.default(arg1_1)
        cos: "f32[4][1]cpu" = torch.ops.aten.cos.default(sin)
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(arg0_1)
        add: "f32[4][1]cpu" = torch.ops.aten.add.Tensor(clone, cos)
        relu: "f32[4][1]cpu" = torch.ops.aten.relu.default(sin)
        return (add, relu)
)");
  ASSERT_TRUE(file);
  for (CloneEliminationMode mode : {CloneEliminationMode::Safe, CloneEliminationMode::Vllm032}) {
    std::map<std::string, NeighbourhoodRole> roles = rolesOf(*file, mode);
    EXPECT_EQ(roles["clone"], NeighbourhoodRole::Imported);
    EXPECT_EQ(roles["arg0_1"], NeighbourhoodRole::Imported); // the source
    EXPECT_EQ(roles["add"], NeighbourhoodRole::Imported);    // reads the clone
    EXPECT_EQ(roles["output"], NeighbourhoodRole::Imported);
    EXPECT_EQ(roles["cos"], NeighbourhoodRole::StandIn);    // add refers to it
    EXPECT_EQ(roles["relu"], NeighbourhoodRole::StandIn);   // the output refers to it
    EXPECT_EQ(roles["arg1_1"], NeighbourhoodRole::StandIn); // placeholders are counted
    EXPECT_EQ(roles["sin"], NeighbourhoodRole::Absent);
  }
}

TEST(CloneNeighbourhood, FreshTupleElementNeedsItsContainerButNotItsSiblings) {
  // A source taken from a tuple of fresh values (batch norm's output, here max.dim's): the op
  // must be imported for its element's effects, but its other elements share nothing.
  auto file = parseOrFail(R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu"):
        max_1 = torch.ops.aten.max.dim(arg0_1, 0)
        getitem: "f32[4][1]cpu" = max_1[0]
        getitem_1: "i64[4][1]cpu" = max_1[1];  max_1 = None
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(getitem)
        add_: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(getitem, 1);  getitem = None
        mul: "i64[4][1]cpu" = torch.ops.aten.mul.Tensor(getitem_1, 2);  getitem_1 = None
        return (clone, add_, mul)
)");
  ASSERT_TRUE(file);
  std::map<std::string, NeighbourhoodRole> roles = rolesOf(*file, CloneEliminationMode::Safe);
  EXPECT_EQ(roles["max_1"], NeighbourhoodRole::Imported);
  EXPECT_EQ(roles["add_"], NeighbourhoodRole::Imported);
  EXPECT_EQ(roles["getitem_1"], NeighbourhoodRole::Absent);
  EXPECT_EQ(roles["mul"], NeighbourhoodRole::StandIn);
}

TEST(CloneNeighbourhood, NegativeIndexCountsFromTheEnd) {
  // max_1[-2] is max_1[0], the clone's source, as Python counts: the write through it must be
  // in the neighbourhood, and max_1[-1] (the other element) needs nothing more than its
  // container.
  auto text = R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu"):
        max_1 = torch.ops.aten.max.dim(arg0_1, 0)
        getitem: "f32[4][1]cpu" = max_1[0]
        getitem_1: "f32[4][1]cpu" = max_1[-2]
        getitem_2: "i64[4][1]cpu" = max_1[1]
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(getitem)
        add_: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(getitem_1, 1)
        mul: "i64[4][1]cpu" = torch.ops.aten.mul.Tensor(getitem_2, 2)
        return (clone, add_, mul)
)";
  auto file = parseOrFail(text);
  ASSERT_TRUE(file);
  std::map<std::string, NeighbourhoodRole> roles = rolesOf(*file, CloneEliminationMode::Safe);
  EXPECT_EQ(roles["getitem_1"], NeighbourhoodRole::Imported);
  EXPECT_EQ(roles["add_"], NeighbourhoodRole::Imported);
  EXPECT_EQ(roles["getitem_2"], NeighbourhoodRole::Absent);
  for (CloneEliminationMode mode : {CloneEliminationMode::Safe, CloneEliminationMode::Vllm032}) {
    auto fresh = parseOrFail(text);
    ASSERT_TRUE(fresh);
    NeighbourhoodCheck check = checkNeighbourhood(*fresh->modules.front(), mode);
    ASSERT_TRUE(check.checked);
    EXPECT_EQ(check.difference, "");
  }
}

/// A graph whose neighbourhood the closure must get right, and the safe mode's remark on it.
struct ClosureCase {
  const char* name;
  const char* why;
  const char* text;
  const char* safeRemark;
};

// The ElementStorage cases (found by review): an element of a container lives in a storage of
// the container's, keyed by its index, which getitems of the same index share and every other
// use of the container touches.
const ClosureCase kClosureCases[] = {
    {"ElementOutOfATuplesRangeIsTiedToTheOpsArguments",
     "AliasAnalysis ties max_1[5] (max.dim returns two values) to every argument of max.dim, so "
     "add_ writes the clone's source after the clone, which is returned.",
     R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu"):
        mul: "f32[4, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2)
        clone: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(mul)
        max_1 = torch.ops.aten.max.dim(mul, 0)
        getitem: "f32[4][1]cpu" = max_1[5]
        add_: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(getitem, 1)
        return (clone, add_)
)",
     "<graph>:4: remark: clone 'clone' kept [clone-read-after-source-write]: add_ (line 7) writes "
     "getitem after the clone, then clone is returned"},
    {"TupleElementThatAliasesAnArgumentReachesIt",
     "max.dim_max returns its out= arguments: max_1[0] is buf, which add_ writes after the clone. "
     "The element aliases buf rather than max_1, so it is found through max_1 but judged by buf.",
     R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu"):
        buf: "f32[4][1]cpu" = torch.ops.aten.sum.dim_IntList(arg0_1, [0])
        idx: "i64[4][1]cpu" = torch.ops.aten.argmax.default(arg0_1, 0)
        max_1 = torch.ops.aten.max.dim_max(arg0_1, 0, False, max = buf, max_values = idx)
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(buf)
        getitem: "f32[4][1]cpu" = max_1[0]
        add_: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(getitem, 1)
        return (clone, add_)
)",
     "<graph>:6: remark: clone 'clone' kept [clone-read-after-source-write]: add_ (line 8) writes "
     "getitem after the clone, then clone is returned"},
    {"WaitTensorReturnsItsInput",
     "wait_tensor's schema declares a fresh result, but it returns its input: writing it after the "
     "clone writes mul.",
     R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu"):
        mul: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2)
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(mul)
        wait: "f32[4][1]cpu" = torch.ops._c10d_functional.wait_tensor.default(mul)
        add_: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(wait, 1)
        return (clone, add_)
)",
     "<graph>:4: remark: clone 'clone' kept [clone-read-after-source-write]: add_ (line 6) writes "
     "wait after the clone, then clone is returned"},
    {"UnknownOpTiesEveryArgument",
     "foo has no schema: its result may alias mul or other, so the write to foo reaches mul.",
     R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu", arg1_1: "f32[4][1]cpu"):
        mul: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2)
        other: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(arg1_1, 3)
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(mul)
        foo: "f32[4][1]cpu" = torch.ops.mylib.foo.default(other, mul)
        add_: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(foo, 1)
        return (clone, add_)
)",
     "<graph>:5: remark: clone 'clone' kept [unknown-effects]: foo (line 6) touches mul: no schema "
     "for mylib::foo.default" kSchemaHint},
    {"ViewsOfAListElementReachTheirBase",
     "The write to a piece of split(mul) after the clone writes mul.",
     R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu"):
        mul: "f32[4, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2)
        clone: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(mul)
        split = torch.ops.aten.split.Tensor(mul, 2)
        getitem: "f32[2, 4][4, 1]cpu" = split[1]
        t: "f32[4, 2][1, 4]cpu" = torch.ops.aten.t.default(getitem)
        mul_: "f32[4, 2][1, 4]cpu" = torch.ops.aten.mul_.Tensor(t, 3)
        return (clone, mul_)
)",
     "<graph>:4: remark: clone 'clone' kept [clone-read-after-source-write]: mul_ (line 8) writes "
     "t after the clone, then clone is returned"},
    {"ElementStorageSameElementTwice",
     "Two getitems of the same element: add_ writes the source after the clone.",
     R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu"):
        max_1 = torch.ops.aten.max.dim(arg0_1, 0)
        getitem: "f32[4][1]cpu" = max_1[0]
        getitem_2: "f32[4][1]cpu" = max_1[0]
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(getitem)
        add_: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(getitem_2, 1)
        return (clone,)
)",
     "<graph>:6: remark: clone 'clone' kept [clone-read-after-source-write]: add_ (line 7) writes "
     "getitem_2 after the clone, then clone is returned"},
    {"ElementStorageSameCopyOfAutoFunctionalizedTwice",
     "The same with the copies auto_functionalized returns.",
     R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu"):
        mul: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2)
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.rms_norm.default, result = mul, input = arg0_1, weight = arg0_1, epsilon = 1e-06)
        getitem_1: "f32[4][1]cpu" = auto_functionalized[1]
        getitem_2: "f32[4][1]cpu" = auto_functionalized[1]
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(getitem_1)
        add_: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(getitem_2, 1)
        return (clone,)
)",
     "<graph>:7: remark: clone 'clone' kept [clone-read-after-source-write]: add_ (line 8) writes "
     "getitem_2 after the clone, then clone is returned"},
    {"ElementStorageNegativeTupleIndex",
     "max_1[-2] is max_1[0] (max.dim returns two values): add_ writes the source after the "
     "clone.",
     R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu"):
        max_1 = torch.ops.aten.max.dim(arg0_1, 0)
        getitem: "f32[4][1]cpu" = max_1[0]
        getitem_2: "f32[4][1]cpu" = max_1[-2]
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(getitem)
        add_: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(getitem_2, 1)
        return (clone,)
)",
     "<graph>:6: remark: clone 'clone' kept [clone-read-after-source-write]: add_ (line 7) writes "
     "getitem_2 after the clone, then clone is returned"},
    {"ElementStorageNegativeIndexOutOfATuplesRange",
     "max_1[-3] names no element of max.dim's two: tied to every argument of max.dim.",
     R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu"):
        mul: "f32[4, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2)
        clone: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(mul)
        max_1 = torch.ops.aten.max.dim(mul, 0)
        getitem: "f32[4][1]cpu" = max_1[-3]
        add_: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(getitem, 1)
        return (clone, add_)
)",
     "<graph>:4: remark: clone 'clone' kept [clone-read-after-source-write]: add_ (line 7) writes "
     "getitem after the clone, then clone is returned"},
    {"ElementStorageNegativeListIndex",
     "A negative index into a list (auto_functionalized's copies) may be any element: "
     "auto_functionalized[-1] is [1] here.",
     R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu"):
        mul: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2)
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.rms_norm.default, result = mul, input = arg0_1, weight = arg0_1, epsilon = 1e-06)
        getitem_1: "f32[4][1]cpu" = auto_functionalized[1]
        getitem_2: "f32[4][1]cpu" = auto_functionalized[-1]
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(getitem_2)
        add_: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(getitem_1, 1)
        return (clone,)
)",
     "<graph>:7: remark: clone 'clone' kept [clone-read-after-source-write]: add_ (line 8) writes "
     "getitem_1 after the clone, then clone is returned"},
    {"ElementStorageOpWithoutSchemaTakesTheContainer",
     "An op without a schema takes the whole container, so it touches the source.",
     R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu"):
        max_1 = torch.ops.aten.max.dim(arg0_1, 0)
        getitem: "f32[4][1]cpu" = max_1[0]
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(getitem)
        foo = torch.ops.mylib.foo.default(max_1)
        return (clone, foo)
)",
     "<graph>:5: remark: clone 'clone' kept [unknown-effects]: foo (line 6) touches getitem: no "
     "schema for mylib::foo.default" kSchemaHint},
    {"ElementStorageNonConstantIndex",
     "A getitem whose index is not a constant touches every element.",
     R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu", arg1_1: "i64[][]cpu"):
        max_1 = torch.ops.aten.max.dim(arg0_1, 0)
        getitem: "f32[4][1]cpu" = max_1[0]
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(getitem)
        getitem_3 = max_1[arg1_1]
        return (clone, getitem_3)
)",
     "<graph>:5: remark: clone 'clone' kept [unknown-effects]: getitem_3 (line 6) touches getitem: "
     "getitem with a non-constant index"},
    {"ElementStorageContainerTiedByAnOpWithoutSchema",
     "foo ties max_1's elements together, so bar is the first op without a schema touching the "
     "clone's source. (The clone's source is an element, not foo's result, whose conjugate and "
     "negative bits are unknown.)",
     R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu"):
        max_1 = torch.ops.aten.max.dim(arg0_1, 0)
        getitem: "f32[4][1]cpu" = max_1[0]
        getitem_1: "i64[4][1]cpu" = max_1[1]
        bar: "f32[4][1]cpu" = torch.ops.mylib.bar.default(getitem)
        foo: "f32[4][1]cpu@0" = torch.ops.mylib.foo.default(max_1)
        clone: "i64[4][1]cpu" = torch.ops.aten.clone.default(getitem_1)
        return (clone,)
)",
     "<graph>:8: remark: clone 'clone' kept [unknown-effects]: bar (line 6) touches getitem_1: no "
     "schema for mylib::bar.default" kSchemaHint},
    {"ElementOutOfRangeWithAKeyword",
     "The analyses take getitem's two positional arguments apart and ignore its keywords.",
     R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu"):
        mul: "f32[4, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2)
        clone: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(mul)
        max_1 = torch.ops.aten.max.dim(mul, 0)
        getitem: "f32[4][1]cpu" = operator.getitem(max_1, 5, extra = 1)
        add_: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(getitem, 1)
        return (clone, add_)
)",
     "<graph>:4: remark: clone 'clone' kept [clone-read-after-source-write]: add_ (line 7) "
     "writes getitem after the clone, then clone is returned"},
    // The LayoutInputs cases (found by declone_property_test, seeds 2615 and 4238): what
    // LayoutAnalysis works a clone's or source's layout out from must be imported, not stand in
    // without an annotation.
    {"FunctionalizedCopyTakesTheStridesOfItsArgument",
     "auto_functionalized's copy of `out` keeps arg0_1's strides; getitem's annotation states "
     "none, so its layout is arg0_1's, which the neighbourhood must import.",
     R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu", arg1_1: "f32[2, 1, 1, 5][5, 5, 5, 1]cpu"):
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.silu_and_mul.default, out = arg0_1, input = arg1_1)
        getitem: "f32[4]cpu" = auto_functionalized[-1]
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(getitem, memory_format = torch.preserve_format)
        return (clone,)
)",
     "<graph>:5: remark: clone 'clone' removed: strides inferred"},
    {"FunctionalizedV2CopyTakesTheStridesOfItsBaseTwoStepsAway",
     "auto_functionalized_v2 copies its bases: getitem_1's strides are getitem's, which are "
     "arg0_1's (getitem's annotation states none either), two steps away from the clone.",
     R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 4][1, 8]cpu", arg1_1: "f32[8, 8][8, 1]cpu"):
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.silu_and_mul.default, out = arg0_1, input = arg1_1)
        getitem: "f32[8, 4]cpu" = auto_functionalized[1]
        auto_functionalized_v2 = torch.ops.higher_order.auto_functionalized_v2(torch.ops._C.silu_and_mul.default, input = arg1_1, _out_base_index = 0, _all_bases = [getitem])
        getitem_1: "f32[8, 4]cpu" = auto_functionalized_v2[1]
        clone: "f32[8, 4][1, 8]cpu" = torch.ops.aten.clone.default(getitem_1, memory_format = torch.preserve_format)
        return (clone,)
)",
     "<graph>:7: remark: clone 'clone' removed: strides inferred"},
    {"FunctionalizedCopyKeepsACloneInVllmMode",
     "vLLM's rule compares the layouts too: getitem is a copy of arg0_1, strided [4, 1], so the "
     "contiguous clone changes the layout and is kept; a neighbourhood without arg0_1's "
     "annotation would remove it in vllm mode.",
     R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3, 2][4, 1]cpu", arg1_1: "f32[3, 2][2, 1]cpu"):
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.silu_and_mul.default, out = arg0_1, input = arg1_1)
        getitem: "f32[3, 2]cpu" = auto_functionalized[1]
        clone: "f32[3, 2][2, 1]cpu" = torch.ops.aten.clone.default(getitem, memory_format = torch.contiguous_format)
        return (clone, getitem)
)",
     "<graph>:5: remark: clone 'clone' kept [layout-changed]: strides [2, 1] != [4, 1] (strides "
     "inferred)"},
    {"LayoutChangedInPlaceLaterIsSeen",
     "t_ changes arg0_1's layout in place after the copy: the copy's layout (and so getitem's) "
     "can no longer be trusted, which only an import of t_ tells.",
     R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu", arg1_1: "f32[4, 4][4, 1]cpu"):
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.silu_and_mul.default, out = arg0_1, input = arg1_1)
        getitem: "f32[4, 4]cpu" = auto_functionalized[1]
        clone: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(getitem, memory_format = torch.preserve_format)
        t_: "f32[4, 4][1, 4]cpu" = torch.ops.aten.t_.default(arg0_1)
        return (clone, t_)
)",
     "<graph>:5: remark: clone 'clone' kept [layout-unknown]: the layout of getitem derives from "
     "arg0_1, whose layout t_ (line 6) changes in place"},
};

void PrintTo(const ClosureCase& closure, std::ostream* out) {
  *out << closure.name;
}

class NeighbourhoodClosure : public ::testing::TestWithParam<ClosureCase> {};

// Decided alike in both modes, and the safe mode's decision is the one the case is about.
TEST_P(NeighbourhoodClosure, DecidesAsTheWholeGraph) {
  const ClosureCase& closure = GetParam();
  SCOPED_TRACE(closure.why);
  for (CloneEliminationMode mode : {CloneEliminationMode::Safe, CloneEliminationMode::Vllm032}) {
    auto file = parseOrFail(closure.text);
    ASSERT_TRUE(file);
    NeighbourhoodCheck check = checkNeighbourhood(*file->modules.front(), mode);
    ASSERT_TRUE(check.checked);
    EXPECT_EQ(check.difference, "");
  }
  auto file = parseOrFail(closure.text);
  ASSERT_TRUE(file);
  CloneEliminationResult result = eliminateClones(*file->modules.front(), {});
  ASSERT_FALSE(result.remarks.empty());
  EXPECT_EQ(result.remarks.front().formatText("<graph>"), closure.safeRemark);
}

INSTANTIATE_TEST_SUITE_P(Cases, NeighbourhoodClosure, ::testing::ValuesIn(kClosureCases),
                         [](const ::testing::TestParamInfo<ClosureCase>& info) {
                           return std::string(info.param.name);
                         });

} // namespace
} // namespace declone::test
