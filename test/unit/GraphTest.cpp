// Graph IR: use lists, replace-all-uses, erasure and creation.
#include "TestSupport.h"

namespace declone::test {
namespace {

constexpr std::string_view kChain = R"FX(def forward(self, x: "f32[4][1]cpu"):
    # File: a.py:1 in f, code: y = x.clone()
    clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(x);  x = None
    # File: a.py:2 in f, code: z = y + y
    add: "f32[4][1]cpu" = torch.ops.aten.add.Tensor(clone, clone)
    mul: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(add, clone);  add = clone = None
    return (mul,)
)FX";

TEST(Graph, UsesCountEverySlotUsersAreDistinct) {
  auto file = parseOrFail(kChain);
  Graph& graph = firstGraph(*file);
  Node* clone = findNode(graph, "clone");
  EXPECT_EQ(clone->numUses(), 3u);
  auto users = clone->users();
  ASSERT_EQ(users.size(), 2u);
  EXPECT_NE(std::find(users.begin(), users.end(), findNode(graph, "add")), users.end());
  EXPECT_NE(std::find(users.begin(), users.end(), findNode(graph, "mul")), users.end());
  std::vector<std::string_view> inputs;
  findNode(graph, "mul")->forEachInput([&](Node* node) { inputs.push_back(node->name()); });
  EXPECT_EQ(inputs, (std::vector<std::string_view>{"add", "clone"}));
}

TEST(Graph, ReplaceAllUsesThenEraseRewritesTextAndFreeLists) {
  auto file = parseOrFail(kChain);
  Graph& graph = firstGraph(*file);
  Node* clone = findNode(graph, "clone");
  Node* input = findNode(graph, "x");
  graph.replaceAllUsesWith(clone, input);
  EXPECT_FALSE(clone->hasUses());
  EXPECT_EQ(input->numUses(), 4u) << "three new uses plus the clone's own";
  graph.erase(clone);
  EXPECT_EQ(input->numUses(), 3u);
  EXPECT_EQ(graph.size(), 4u);
  // The clone's comment block has passed to the next node, whose own block it precedes.
  EXPECT_EQ(writeGraphFile(*file), R"FX(def forward(self, x: "f32[4][1]cpu"):
    # File: a.py:2 in f, code: z = y + y
    add: "f32[4][1]cpu" = torch.ops.aten.add.Tensor(x, x)
    mul: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(add, x);  add = x = None
    return (mul,)
)FX");
}

TEST(Graph, PlaceholdersStayFirstWhetherAppendedOrAddedLater) {
  auto file = parseOrFail(kChain);
  Graph& graph = firstGraph(*file);
  // Added after calls: goes after the existing placeholder, before the first call.
  Node* late = graph.createPlaceholder("late", nullptr);
  EXPECT_EQ(late->prev(), findNode(graph, "x"));
  EXPECT_EQ(late->next(), findNode(graph, "clone"));

  // Appended to a graph of placeholders only (how readers build them): in order, at the end.
  Context context;
  Graph fresh(context);
  Node* a = fresh.createPlaceholder("a", nullptr);
  Node* b = fresh.createPlaceholder("b", nullptr);
  EXPECT_EQ(fresh.front(), a);
  EXPECT_EQ(fresh.back(), b);
  EXPECT_EQ(fresh.placeholders(), (std::vector<Node*>{a, b}));
}

TEST(Graph, ErasedNodePassesItsCommentToAnUncommentedSuccessor) {
  auto file = parseOrFail(R"FX(def forward(self, x: "f32[4][1]cpu"):
    # File: a.py:1 in f, code: y = x.clone().relu()
    clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(x);  x = None
    relu: "f32[4][1]cpu" = torch.ops.aten.relu.default(clone);  clone = None
    return (relu,)
)FX");
  Graph& graph = firstGraph(*file);
  Node* clone = findNode(graph, "clone");
  graph.replaceAllUsesWith(clone, findNode(graph, "x"));
  graph.erase(clone);
  ASSERT_EQ(findNode(graph, "relu")->leadingTrivia().size(), 1u);
  EXPECT_EQ(writeGraphFile(*file), R"FX(def forward(self, x: "f32[4][1]cpu"):
    # File: a.py:1 in f, code: y = x.clone().relu()
    relu: "f32[4][1]cpu" = torch.ops.aten.relu.default(x);  x = None
    return (relu,)
)FX");
}

TEST(Graph, CreateCallLinksUsesAndPrints) {
  auto file = parseOrFail(kChain);
  Graph& graph = firstGraph(*file);
  Context& context = graph.context();
  Node* add = findNode(graph, "add");
  std::span<Arg> args = context.allocate<Arg>(1);
  args[0] = graph.nodeArg(add);
  Node* relu =
      graph.createCall("relu", context.target(Target::Kind::Op, "torch.ops.aten.relu.default"),
                       args, {}, nullptr, findNode(graph, "mul"));
  EXPECT_EQ(relu->prev(), add);
  EXPECT_EQ(add->numUses(), 2u);
  EXPECT_TRUE(relu->target()->isOp("aten", "relu"));
  std::string text = writeGraphFile(*file);
  EXPECT_NE(text.find("    relu = torch.ops.aten.relu.default(add);  relu = None\n"),
            std::string::npos)
      << text;
}

TEST(Graph, SetArgsRelinksUses) {
  auto file = parseOrFail(kChain);
  Graph& graph = firstGraph(*file);
  Node* mul = findNode(graph, "mul");
  Node* x = findNode(graph, "x");
  std::span<Arg> args = graph.context().allocate<Arg>(2);
  args[0] = graph.nodeArg(x);
  args[1] = graph.nodeArg(x);
  graph.setArgs(mul, args, {});
  EXPECT_EQ(findNode(graph, "add")->numUses(), 0u);
  EXPECT_EQ(findNode(graph, "clone")->numUses(), 2u);
  EXPECT_EQ(x->numUses(), 3u);
}

TEST(Graph, TargetsAreInternedAndSplit) {
  Context context;
  const Target* a = context.target(Target::Kind::Op, "torch.ops.aten.clone.default");
  const Target* b = context.target(Target::Kind::Op, "torch.ops.aten.clone.default");
  EXPECT_EQ(a, b);
  EXPECT_EQ(a->opNamespace, "aten");
  EXPECT_EQ(a->opName, "clone");
  EXPECT_EQ(a->overload, "default");
  const Target* hop =
      context.target(Target::Kind::Op, "torch.ops.higher_order.auto_functionalized");
  EXPECT_TRUE(hop->isHigherOrder());
  EXPECT_EQ(hop->overload, "");
  const Target* getitem = context.target(Target::Kind::Function, "operator.getitem");
  EXPECT_TRUE(getitem->isOperator("getitem"));
  EXPECT_FALSE(getitem->isOperator("item"));
}

TEST(Graph, NumberNodesFollowsProgramOrder) {
  auto file = parseOrFail(kChain);
  Graph& graph = firstGraph(*file);
  graph.numberNodes();
  uint32_t expected = 0;
  for (Node* node : graph)
    EXPECT_EQ(node->order(), expected++);
}

// What PyTorch guarantees of a dump's symbols, and no more: a dynamic int argument is named s<N>
// like a size but may be 0, 1 or negative, and a body's inputs need not be the trace's.
TEST(Graph, SizeRangesComeFromWhereSymbolsOccur) {
  auto file = parseOrFail(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, s0: "Sym(s0)", L_x_: "f32[s0, 4][4, 1]cpu", s1: "Sym(s1)", s2: "Sym(s2)"):
        zeros: "f32[s2][1]cpu" = torch.ops.aten.zeros.default([s2], device = device(type='cpu'), pin_memory = False)
        body = self.body
        invoke_subgraph = torch.ops.higher_order.invoke_subgraph(body, 'subgraph_0', zeros);  body = zeros = None
        getitem: "f32[s2][1]cpu" = invoke_subgraph[0];  invoke_subgraph = None
        return (getitem, s1)

    class body(torch.nn.Module):
        def forward(self, arg0_1: "f32[s2][1]cpu"):
            clone: "f32[s2][1]cpu" = torch.ops.aten.clone.default(arg0_1);  arg0_1 = None
            return (clone,)
)FX");
  ASSERT_TRUE(file);
  SymContext& sym = file->context->sym();
  EXPECT_EQ(sym.lowerBound(sym.symbol("s0")), 2) << "a size of an input: 0 and 1 specialized";
  EXPECT_EQ(sym.lowerBound(sym.symbol("s1")), std::nullopt) << "an int argument";
  EXPECT_EQ(sym.lowerBound(sym.symbol("s2")), 0) << "an int that sizes a tensor, not an input";
}

// A backward graph's inputs are saved values and tangents, which a dynamic int may size; and
// graphs of separate traces in one file may give one name to different symbols.
TEST(Graph, SizeRangesOfBackwardGraphsAndOfSeveralGraphs) {
  auto file = parseOrFail(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[s0, 4][4, 1]cpu", arg1_1: "f32[s1, 4][4, 1]cpu", arg2_1: "f32[s3][1]cpu"):
        return (arg0_1, arg1_1, arg2_1)
class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "Sym(s1)", ones: "f32[s2, 4][4, 1]cpu", tangents_1: "f32[4, s2][Max(1, s2), 1]cpu"):
        return (ones, tangents_1)
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[s3][1]cpu"):
        return (arg0_1,)
)FX");
  ASSERT_TRUE(file);
  SymContext& sym = file->context->sym();
  EXPECT_EQ(sym.lowerBound(sym.symbol("s0")), 2) << "shown by the first graph only";
  EXPECT_EQ(sym.lowerBound(sym.symbol("s1")), std::nullopt) << "an int in the second graph";
  EXPECT_EQ(sym.lowerBound(sym.symbol("s2")), 0) << "sizes a backward graph's input";
  EXPECT_EQ(sym.lowerBound(sym.symbol("s3")), 2) << "an input size in both graphs";
}

} // namespace
} // namespace declone::test
