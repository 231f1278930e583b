// Reader: structure of what it builds, and located errors for malformed text.
#include "TestSupport.h"

#include <cmath>
#include <cstring>

namespace declone::test {
namespace {

constexpr std::string_view kSliceClone = R"FX(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "Sym(s0)", arg1_1: "f32[s0, 8][8, 1]cpu"):
        # File: model.py:12 in forward, code: y = x[:, :4].contiguous()
        slice_1: "f32[s0, 4][8, 1]cpu" = torch.ops.aten.slice.Tensor(arg1_1, 1, 0, 4);  arg1_1 = None
        clone: "f32[s0, 4][4, 1]cpu" = torch.ops.aten.clone.default(slice_1, memory_format = torch.contiguous_format);  slice_1 = None
        return (clone,)
)FX";

TEST(Reader, BuildsNodesTargetsAndUses) {
  auto file = parseOrFail(kSliceClone);
  ASSERT_TRUE(file);
  Graph& graph = firstGraph(*file);
  EXPECT_EQ(file->modules[0]->className, "GraphModule");
  EXPECT_EQ(graph.size(), 5u);
  ASSERT_EQ(graph.placeholders().size(), 2u);

  Node* slice = findNode(graph, "slice_1");
  ASSERT_TRUE(slice);
  EXPECT_EQ(slice->line(), 4u);
  EXPECT_TRUE(slice->target()->isOp("aten", "slice"));
  EXPECT_EQ(slice->target()->overload, "Tensor");
  ASSERT_EQ(slice->args().size(), 4u);
  EXPECT_EQ(slice->args()[0].node()->name(), "arg1_1");
  EXPECT_EQ(slice->args()[1].kind, ArgKind::Int);
  EXPECT_EQ(slice->args()[3].integer, 4);
  ASSERT_EQ(slice->leadingTrivia().size(), 1u);
  EXPECT_TRUE(slice->leadingTrivia()[0].ends_with("code: y = x[:, :4].contiguous()"));

  Node* clone = findNode(graph, "clone");
  ASSERT_TRUE(clone);
  const Arg* format = clone->kwarg("memory_format");
  ASSERT_TRUE(format);
  EXPECT_EQ(format->kind, ArgKind::MemoryFormat);
  EXPECT_EQ(format->memoryFormat(), MemoryFormat::Contiguous);
  EXPECT_EQ(slice->users(), std::vector<Node*>{clone});
  EXPECT_EQ(clone->users(), std::vector<Node*>{graph.output()});
  EXPECT_EQ(graph.output()->args()[0].kind, ArgKind::Tuple);
}

TEST(Reader, ParsesTensorAndSymAnnotations) {
  auto file = parseOrFail(kSliceClone);
  ASSERT_TRUE(file);
  Graph& graph = firstGraph(*file);
  SymContext& sym = file->context->sym();
  const TypeAnnotation& size = findNode(graph, "arg0_1")->type();
  EXPECT_EQ(size.kind, TypeAnnotation::Kind::Sym);
  EXPECT_EQ(size.sym, sym.symbol("s0"));

  const TypeAnnotation& sliced = findNode(graph, "slice_1")->type();
  ASSERT_EQ(sliced.kind, TypeAnnotation::Kind::Tensor);
  const TensorType& tensor = *sliced.tensor;
  EXPECT_EQ(tensor.dtype, DType::Float32);
  ASSERT_EQ(tensor.sizes.size(), 2u);
  EXPECT_EQ(tensor.sizes[0], sym.symbol("s0"));
  EXPECT_EQ(tensor.sizes[1], SymExpr::constant(4));
  ASSERT_TRUE(tensor.strides);
  EXPECT_EQ((*tensor.strides)[0], SymExpr::constant(8));
  EXPECT_EQ(tensor.device, "cpu");
  EXPECT_FALSE(tensor.storageOffset) << "absent offsets are inferred later, not assumed 0";
}

// Regression (reader fuzzer): a bare annotation on the last parameter ran past the ')' that
// closes the signature, so `def forward(self, a: torch.Tensor):` was an error; and printing
// `a: Z"x", )` dropped the comma into text that no longer parsed.
TEST(Reader, BareAnnotationOnTheLastParameter) {
  for (std::string_view text : {
           "def forward(self, a: torch.Tensor):\n    return (a,)\n",
           "def forward(self, a: torch.Tensor, b: Optional[torch.Tensor]):\n    return (a,)\n",
           "def forward(self, a: Z\"x\"):\n    return ()\n",
           "def forward(self, arg0_1:Z\"Sym(s77)\", ):\n        # No\n       return ()\n",
       }) {
    auto file = readGraphFile(text);
    ASSERT_TRUE(file.ok()) << text << "\n" << file.error().format("f");
    std::string printed = writeGraphFile(**file);
    auto reread = readGraphFile(printed);
    ASSERT_TRUE(reread.ok()) << printed << "\n" << reread.error().format("printed");
    EXPECT_EQ(writeGraphFile(**reread), printed);
  }
}

TEST(Reader, AnnotationForms) {
  Context context;
  auto parse = [&](std::string_view text) { return parseTypeAnnotation(context, text); };
  auto offset = parse("f32[3, 5][5, 1]cpu@5");
  ASSERT_TRUE(offset.ok());
  EXPECT_EQ(offset->tensor->storageOffset, SymExpr::constant(5));
  auto symbolic = parse("bf16[(s27//2), 64][64, 1]cuda:0@(64*s27)");
  ASSERT_TRUE(symbolic.ok()) << symbolic.error().message;
  EXPECT_EQ(symbolic->tensor->device, "cuda:0");
  EXPECT_EQ(symbolic->tensor->storageOffset, *context.sym().parse("64*s27"));
  auto scalar = parse("f32[][]cpu");
  ASSERT_TRUE(scalar.ok());
  EXPECT_TRUE(scalar->tensor->sizes.empty());
  EXPECT_TRUE(scalar->tensor->strides->empty());
  auto noStrides = parse("i64[32768]");
  ASSERT_TRUE(noStrides.ok());
  EXPECT_FALSE(noStrides->tensor->strides);
  EXPECT_TRUE(noStrides->tensor->device.empty());
  auto maxMin = parse("Sym(Min(16384, ((s72 + 1)//2)))");
  ASSERT_TRUE(maxMin.ok());
  EXPECT_EQ(maxMin->kind, TypeAnnotation::Kind::Sym);
  auto symFloat = parse("Sym(2.0*s0)");
  ASSERT_TRUE(symFloat.ok());
  EXPECT_EQ(symFloat->kind, TypeAnnotation::Kind::Other) << "SymFloat stays verbatim";
  EXPECT_EQ(parse("torch.Tensor")->kind, TypeAnnotation::Kind::Other);

  for (std::string_view bad : {"f32[3, 4", "q32[3]", "f32[3][1, 1]", "f32[3]cpu@", "f32[(3]",
                               "f32[3,]", "f32[3]cpu junk"}) {
    auto result = parse(bad);
    EXPECT_FALSE(result.ok()) << bad;
    if (!result.ok()) {
      EXPECT_GT(result.error().column, 0u) << bad;
    }
  }
}

TEST(Reader, InfixGetitemMethodAndGetAttr) {
  auto file = parseOrFail(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "Sym(s0)", arg1_1: "f32[s0][1]cpu"):
        mul: "Sym(2*s0)" = arg0_1 * 2
        neg: "Sym(-s0)" = -arg0_1
        floordiv: "Sym((s0//2))" = arg0_1 // 2;  arg0_1 = None
        _tensor_constant0: "f32[][]cpu" = self._tensor_constant0
        split = torch.ops.aten.split.Tensor(arg1_1, 2)
        getitem: "f32[2][1]cpu" = split[0];  split = None
        getitem_1: "f32[1][1]cpu" = getitem[(slice(None, 1, None),)];  getitem = None
        view = arg1_1.view(-1);  arg1_1 = None
        sym_min = torch.sym_min(16384, floordiv);  floordiv = None
        return (mul, neg, getitem_1, view, sym_min, _tensor_constant0)
)FX");
  ASSERT_TRUE(file);
  Graph& graph = firstGraph(*file);
  EXPECT_TRUE(findNode(graph, "mul")->target()->isOperator("mul"));
  EXPECT_TRUE(findNode(graph, "neg")->target()->isOperator("neg"));
  EXPECT_TRUE(findNode(graph, "floordiv")->target()->isOperator("floordiv"));
  Node* constant = findNode(graph, "_tensor_constant0");
  EXPECT_EQ(constant->kind(), Node::Kind::GetAttr);
  EXPECT_EQ(constant->attribute(), "_tensor_constant0");
  Node* getitem = findNode(graph, "getitem");
  EXPECT_TRUE(getitem->target()->isOperator("getitem"));
  EXPECT_EQ(getitem->args()[1].integer, 0);
  Node* sliced = findNode(graph, "getitem_1");
  ASSERT_EQ(sliced->args()[1].kind, ArgKind::Tuple);
  EXPECT_EQ(sliced->args()[1].elements[0].kind, ArgKind::Slice);
  Node* view = findNode(graph, "view");
  EXPECT_EQ(view->target()->kind, Target::Kind::Method);
  EXPECT_EQ(view->target()->qualifiedName, "view");
  EXPECT_EQ(view->args()[0].node()->name(), "arg1_1");
  EXPECT_EQ(view->args()[1].integer, -1);
  EXPECT_EQ(findNode(graph, "sym_min")->target()->qualifiedName, "torch.sym_min");
}

TEST(Reader, ArgumentValueKinds) {
  auto file = parseOrFail(R"FX(def forward(self, arg0_1: "f32[4][1]cpu"):
    full: "f32[4][1]cpu" = torch.ops.aten.full.default([4], -inf, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0), pin_memory = False)
    auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.rms_norm.default, result = full, input = arg0_1, weight = None, epsilon = 1e-06, name = "x", big = 9223372036854775807, neg = -9223372036854775808, flags = {'a': 1})
    getitem_1: "f32[4][1]cpu" = auto_functionalized[1];  auto_functionalized = None
    return (getitem_1,)
)FX");
  ASSERT_TRUE(file);
  Graph& graph = firstGraph(*file);
  EXPECT_EQ(graph.format().defIndent, "");
  EXPECT_EQ(graph.format().bodyIndent, "    ");
  Node* full = findNode(graph, "full");
  EXPECT_EQ(full->args()[1].kind, ArgKind::Float);
  EXPECT_TRUE(std::isinf(full->args()[1].real) && full->args()[1].real < 0);
  EXPECT_EQ(full->kwarg("dtype")->dtype, DType::Float32);
  EXPECT_EQ(full->kwarg("layout")->kind, ArgKind::Layout);
  EXPECT_EQ(full->kwarg("device")->kind, ArgKind::Device);
  EXPECT_EQ(full->kwarg("device")->text(), "device(type='cuda', index=0)");
  EXPECT_EQ(full->kwarg("pin_memory")->kind, ArgKind::Bool);
  Node* af = findNode(graph, "auto_functionalized");
  EXPECT_TRUE(af->target()->isHigherOrder());
  EXPECT_EQ(af->args()[0].kind, ArgKind::OpRef);
  EXPECT_TRUE(af->args()[0].op->isOp("_C", "rms_norm"));
  EXPECT_EQ(af->kwarg("result")->node(), full);
  EXPECT_EQ(af->kwarg("weight")->kind, ArgKind::None);
  EXPECT_EQ(af->kwarg("epsilon")->real, 1e-06);
  EXPECT_EQ(af->kwarg("epsilon")->text(), "1e-06");
  EXPECT_EQ(af->kwarg("name")->kind, ArgKind::String);
  EXPECT_EQ(af->kwarg("big")->integer, INT64_MAX);
  EXPECT_EQ(af->kwarg("neg")->integer, INT64_MIN);
  EXPECT_EQ(af->kwarg("flags")->kind, ArgKind::Dict);
}

TEST(Reader, PytreeSignatureAndReturn) {
  auto file = parseOrFail(R"FX(def forward(self, primals, tangents):
    primals_1: "f32[4]"; tangents_1: "f32[4]"; 

    primals_1, tangents_1, = fx_pytree.tree_flatten_spec([primals, tangents], self._in_spec)
    mul: "f32[4]" = torch.ops.aten.mul.Tensor(primals_1, tangents_1);  primals_1 = tangents_1 = None
    return pytree.tree_unflatten([mul], self._out_spec)
)FX");
  ASSERT_TRUE(file);
  Graph& graph = firstGraph(*file);
  EXPECT_TRUE(graph.format().pytreeInputs);
  EXPECT_EQ(graph.format().pytreeParameters, "primals, tangents");
  EXPECT_EQ(graph.format().pytreeInSpec, "[primals, tangents], self._in_spec");
  EXPECT_TRUE(graph.format().pytreeOutputs);
  EXPECT_EQ(graph.format().pytreeOutSpec, "self._out_spec");
  auto placeholders = graph.placeholders();
  ASSERT_EQ(placeholders.size(), 2u);
  EXPECT_EQ(placeholders[1]->name(), "tangents_1");
  EXPECT_EQ(placeholders[1]->type().kind, TypeAnnotation::Kind::Tensor);
}

TEST(Reader, NestedClassesAreChildModules) {
  auto file = parseOrFail(R"FX(class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[2][1]cpu"):
        repeated_subgraph0 = self.repeated_subgraph0
        invoke_subgraph = torch.ops.higher_order.invoke_subgraph(repeated_subgraph0, 'subgraph_0', arg0_1);  repeated_subgraph0 = arg0_1 = None
        getitem: "f32[2][1]cpu" = invoke_subgraph[0];  invoke_subgraph = None
        return (getitem,)

    class repeated_subgraph0(torch.nn.Module):
        def forward(self, arg0_1: "f32[2][1]cpu"):
            sin: "f32[2][1]cpu" = torch.ops.aten.sin.default(arg0_1);  arg0_1 = None
            return (sin,)
)FX");
  ASSERT_TRUE(file);
  ASSERT_EQ(file->modules.size(), 1u);
  EXPECT_EQ(file->modules[0]->className, "<lambda>");
  ASSERT_EQ(file->modules[0]->children.size(), 1u);
  GraphModule& child = *file->modules[0]->children[0];
  EXPECT_EQ(child.className, "repeated_subgraph0");
  EXPECT_EQ(child.classIndent, "    ");
  EXPECT_EQ(child.graph.size(), 3u);
  EXPECT_EQ(child.leadingTrivia.size(), 1u) << "the blank line before the nested class";
}

struct BadInput {
  const char* name;
  std::string text;
  uint32_t line;
  uint32_t column;
  const char* message;
};

std::string deeplyNested(size_t depth) {
  return "def forward(self, x):\n    y = torch.ops.aten.f.default(" + std::string(depth, '[') +
         "1" + std::string(depth, ']') + ")\n    return (y,)\n";
}

class ReaderErrors : public ::testing::TestWithParam<BadInput> {};

// Regression: an empty view's data() may be null, and the NUL and line scans passed it to
// memchr (undefined behaviour the fuzzers' UBSan caught).
TEST(Reader, EmptyViewWithoutData) {
  Result<std::unique_ptr<GraphFile>> file = readGraphFile(std::string_view());
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error().line, 1u);
  EXPECT_NE(file.error().message.find("no graph found"), std::string::npos) << file.error().message;
}

// Lengths in the IR are 32-bit: a text of 4 GiB or more is refused before anything is read
// (the view below is never dereferenced).
TEST(Reader, RefusesTextsOf4GiBOrMore) {
  const char small[] = "def forward(self):\n    return ()\n";
  std::string_view huge(small, size_t(UINT32_MAX) + 1);
  Result<std::unique_ptr<GraphFile>> file = readGraphFile(huge);
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error().line, 1u);
  EXPECT_EQ(file.error().column, 1u);
  EXPECT_NE(file.error().message.find("4 GiB"), std::string::npos) << file.error().message;
}

// An Arg stores its element count in 24 bits; a longer list must be an error, not a wrap.
TEST(Reader, RejectsListsAnArgCannotCount) {
  std::string list;
  list.reserve(2 * size_t(Arg::kMaxElements) + 2);
  for (uint32_t i = 0; i <= Arg::kMaxElements; ++i)
    list += "0,";
  constexpr std::string_view call = "    y = torch.ops.aten.f.default([";
  std::string text = "def forward(self, x):\n" + std::string(call) + list + "])\n    return (y,)\n";
  Result<std::unique_ptr<GraphFile>> file = readGraphFile(text);
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error().line, 2u);
  // At the comma after the first element that does not fit.
  EXPECT_EQ(file.error().column, call.size() + 2 * size_t(Arg::kMaxElements) + 2);
  EXPECT_NE(file.error().message.find("more than 16777215 elements in one list"), std::string::npos)
      << file.error().message;
}

TEST_P(ReaderErrors, ReportsLineAndColumn) {
  const BadInput& input = GetParam();
  auto file = readGraphFile(input.text);
  ASSERT_FALSE(file.ok()) << "accepted malformed input";
  EXPECT_EQ(file.error().line, input.line) << file.error().format("f");
  EXPECT_EQ(file.error().column, input.column) << file.error().format("f");
  EXPECT_NE(file.error().message.find(input.message), std::string::npos)
      << file.error().format("f");
}

const std::string kHeader = "def forward(self, x: \"f32[4][1]cpu\"):\n";

INSTANTIATE_TEST_SUITE_P(
    Cases, ReaderErrors,
    ::testing::Values(
        BadInput{"UndefinedName",
                 kHeader + "    y = torch.ops.aten.relu.default(z)\n    return (y,)\n", 2, 37,
                 "undefined name 'z'"},
        BadInput{
            "UseBeforeDefinition",
            kHeader +
                "    y = torch.ops.aten.relu.default(w)\n    w = torch.ops.aten.relu.default(x)\n"
                "    return (y,)\n",
            2, 37, "'w' is used before it is defined (line 3)"},
        BadInput{
            "DuplicateName",
            kHeader +
                "    y = torch.ops.aten.relu.default(x)\n    y = torch.ops.aten.relu.default(x)\n"
                "    return (y,)\n",
            3, 5, "redefinition of 'y'"},
        BadInput{"UnterminatedAnnotation",
                 kHeader +
                     "    y: \"f32[4][1]cpu = torch.ops.aten.relu.default(x)\n    return (y,)\n",
                 2, 8, "unterminated string"},
        BadInput{"MalformedAnnotation",
                 kHeader +
                     "    y: \"f32[4][1\" = torch.ops.aten.relu.default(x)\n    return (y,)\n",
                 2, 15, "unterminated '['"},
        BadInput{"UnterminatedCall", kHeader + "    y = torch.ops.aten.relu.default(x\n", 2, 36,
                 "unterminated bracket"},
        BadInput{"TruncatedAfterAssign", kHeader + "    y = ", 2, 9, "expected a value"},
        BadInput{"MissingReturn", kHeader + "    y = torch.ops.aten.relu.default(x)\n", 1, 1,
                 "no return statement"},
        BadInput{"BinaryGarbage", std::string("\x7f\x45\x4c\x46\x02\x01\x01\x00", 8), 1, 8,
                 "NUL byte"},
        BadInput{"HighBytes", std::string("\xff\xfe\x80 garbage"), 1, 1, "expected 'class'"},
        BadInput{"DeeplyNested", deeplyNested(100000), 2, 289, "nested too deeply"},
        BadInput{"EmptyFile", "", 1, 1, "no graph found"},
        // In-place operator statements: `a += b;  c = a` names the operator's target again.
        BadInput{"InplaceOperatorOtherTarget", kHeader + "    x += 1;  y = z\n    return (y,)\n", 2,
                 18, "expected 'x', the in-place operator's target"},
        BadInput{"InplaceOperatorWithoutResult", kHeader + "    x += 1\n    return (x,)\n", 2, 11,
                 "expected ';' and the name of the in-place operator's result"},
        BadInput{"InplaceOperatorUndefinedTarget",
                 kHeader + "    w += 1;  y = w\n    return (y,)\n", 2, 5, "undefined name 'w'"},
        BadInput{"InplaceOperatorNotPrintedByFx", kHeader + "    x ~= 1;  y = x\n    return (y,)\n",
                 2, 7, "'~=' is not an in-place operator"},
        // One annotation stub per line belongs to the pytree convention (`primals, tangents`).
        BadInput{"LineStubWithoutFlatten",
                 "def forward(self, primals):\n    a: \"f32[4][1]cpu\"  # PlainAOTInput(idx=0)\n"
                 "    y = torch.ops.aten.relu.default(a)\n    return (y,)\n",
                 3, 5, "expected the fx_pytree.tree_flatten_spec line after the annotation stubs"},
        BadInput{"LineStubThenReturn",
                 "def forward(self, primals):\n    a: \"f32[4][1]cpu\"  # c\n"
                 "    return (primals,)\n",
                 3, 5, "expected the fx_pytree.tree_flatten_spec line after the annotation stubs"},
        BadInput{"PytreeParameterAnnotated",
                 "def forward(\n    self,\n    primals: \"f32[3, 4]\",\n):\n"
                 "    a: \"f32[4][1]cpu\"; \n"
                 "    a, = fx_pytree.tree_flatten_spec([primals], self._in_spec)\n"
                 "    return (a,)\n",
                 3, 5, "a pytree forward's parameter 'primals' has an annotation"},
        BadInput{
            "LineStubTwice",
            "def forward(self, primals):\n    a: \"f32[4][1]cpu\"\n    a: \"f32[4][1]cpu\"\n"
            "    a, = fx_pytree.tree_flatten_spec([primals], self._in_spec)\n    return (a,)\n",
            3, 5, "a second annotation stub for 'a'"},
        BadInput{"UnknownDType",
                 kHeader + "    y: \"q32[4]\" = torch.ops.aten.relu.default(x)\n    return (y,)\n",
                 2, 9, "unknown dtype 'q32'"},
        BadInput{"FreeListUndefined",
                 kHeader + "    y = torch.ops.aten.relu.default(x);  q = None\n    return (y,)\n",
                 2, 42, "undefined name 'q'"},
        BadInput{"StatementAfterReturn",
                 "class M(torch.nn.Module):\n    def forward(self, x):\n        return (x,)\n"
                 "        y = torch.ops.aten.relu.default(x)\n",
                 4, 9, "statement after 'return'"},
        BadInput{"NoSelf", "def forward(x):\n    return (x,)\n", 1, 13, "expected 'self'"},
        BadInput{"UnbalancedClose", kHeader + "    y = torch.ops.aten.relu.default(x))\n", 2, 39,
                 "unbalanced closing bracket"},
        BadInput{"IntegerOverflow",
                 kHeader +
                     "    y = torch.ops.aten.f.default(x, 99999999999999999999)\n    return (y,)\n",
                 2, 37, "out of range"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(Reader, BindsPlaceholdersOnlyBeforeTheFirstNode) {
  // `y = x` first in the body names x's placeholder y (Dynamo's `l_x_ = L_x_`); the
  // signature keeps x. After a node it is no statement FX writes.
  auto first = readGraphFile("def forward(self, x: \"f32[4][1]cpu\"):\n"
                             "    y = x\n"
                             "    w = torch.ops.aten.relu.default(y);  y = None\n"
                             "    return (w,)\n");
  ASSERT_TRUE(first.ok()) << first.error().format("");
  Graph& graph = (*first)->modules.front()->graph;
  Node* y = findNode(graph, "y");
  ASSERT_NE(y, nullptr);
  EXPECT_TRUE(y->isPlaceholder());
  EXPECT_EQ(y->parameterName(), "x");
  EXPECT_EQ(findNode(graph, "x"), nullptr);
  auto later = readGraphFile("def forward(self, x: \"f32[4][1]cpu\"):\n"
                             "    w = torch.ops.aten.relu.default(x)\n"
                             "    y = x\n"
                             "    return (w,)\n");
  ASSERT_FALSE(later.ok());
  EXPECT_EQ(later.error().format(""),
            ":3:10: error: expected a call or an operator, found end of line");
}

TEST(Reader, NeverCrashesOnTruncations) {
  // Every prefix of a valid file either parses or fails with a position.
  std::string text(kSliceClone);
  for (size_t length = 0; length < text.size(); ++length) {
    auto file = readGraphFile(std::string_view(text).substr(0, length));
    if (!file.ok()) {
      EXPECT_GT(file.error().line, 0u) << "prefix " << length;
    }
  }
}

} // namespace
} // namespace declone::test
