// Graphviz output: decisions, edge styles, escaping, and the neighbourhood of clones in big graphs.
#include "declone/report/DotWriter.h"

#include "TestSupport.h"
#include "declone/transforms/CloneElimination.h"

namespace declone::test {
namespace {

/// Runs the pass on one parse of `text` and draws another, as the CLI does.
std::string dotOf(std::string_view text, DotOptions options = {}) {
  std::unique_ptr<GraphFile> optimized = parseOrFail(text);
  std::unique_ptr<GraphFile> original = parseOrFail(text);
  if (!optimized || !original)
    return {};
  std::vector<Remark> remarks;
  for (auto& module : optimized->modules) {
    CloneEliminationResult result = eliminateClones(*module, {});
    remarks.insert(remarks.end(), result.remarks.begin(), result.remarks.end());
  }
  options.sourceText = text;
  return writeCloneDot(*original, remarks, options);
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

constexpr std::string_view kGraph = R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu"):
        # File: model.py:3 in forward, code: y = x.clone(); y.add_(1)
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(arg0_1)
        add_: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(clone, 1);  clone = None
        view: "f32[2, 2][2, 1]cpu" = torch.ops.aten.view.default(arg0_1, [2, 2]);  arg0_1 = None
        clone_1: "f32[2, 2][2, 1]cpu" = torch.ops.aten.clone.default(view);  view = None
        return (add_, clone_1)
)";

TEST(DotWriter, ClonesColouredAndEdgesStyledByEffect) {
  DotOptions options;
  options.fileName = "g.fx";
  std::string dot = dotOf(kGraph, options);
  EXPECT_TRUE(dot.starts_with("digraph \"g.fx\" {\n")) << dot;
  EXPECT_TRUE(dot.ends_with("}\n"));
  // clone is kept: add_ writes it and arg0_1 is a graph input the caller sees.
  EXPECT_TRUE(contains(dot, "m0_1 [label=\"clone\\naten.clone.default\\nkept [input-mutation]"))
      << dot;
  EXPECT_TRUE(contains(dot, "fillcolor=\"#f4a6a6\""));
  EXPECT_TRUE(contains(dot, "m0_1 -> m0_2 [color=\"#c0392b\", penwidth=2.2, label=\"writes\""));
  EXPECT_TRUE(contains(dot, "m0_0 -> m0_3 [color=\"#2471a3\", style=dashed, label=\"view\""));
  EXPECT_TRUE(contains(dot, "m0_0 -> m0_1;\n"));
  // The tooltip: where, the stack-trace comment, the source line (quotes escaped).
  EXPECT_TRUE(contains(dot, "tooltip=\"g.fx:4\\n# File: model.py:3 in forward, code: y = "
                            "x.clone(); y.add_(1)\\nclone: \\\"f32[4][1]cpu\\\" = "))
      << dot;
  EXPECT_TRUE(contains(dot, "label=\"g.fx: 2 clones,"));
  EXPECT_TRUE(contains(dot, "subgraph cluster_legend"));
  options.legend = false;
  EXPECT_FALSE(contains(dotOf(kGraph, options), "cluster_legend"));
}

TEST(DotWriter, ClonesWithoutADecisionAreGrey) {
  std::unique_ptr<GraphFile> file = parseOrFail(kGraph);
  ASSERT_TRUE(file);
  std::string dot = writeCloneDot(*file, {}, {});
  EXPECT_TRUE(contains(dot, "no decision")) << dot;
  EXPECT_TRUE(contains(dot, "fillcolor=\"#dddddd\""));
  EXPECT_TRUE(contains(dot, "label=\"2 clones, 0 removed, 0 kept\""));
}

TEST(DotWriter, EscapesEverythingThatCouldBreakTheSyntax) {
  std::string text = "class GraphModule(torch.nn.Module):\n"
                     "    def forward(self, x: \"f32[2][1]cpu\"):\n"
                     "        # a \"quoted\" \\ comment\n"
                     "        y = torch.ops.aten.clone.default(x)\n"
                     "        return (y,)\n";
  DotOptions options;
  options.fileName = "dir\\we\"ird.fx";
  std::string dot = dotOf(text, options);
  EXPECT_TRUE(dot.starts_with("digraph \"dir\\\\we\\\"ird.fx\" {")) << dot;
  EXPECT_TRUE(contains(dot, "# a \\\"quoted\\\" \\\\ comment")) << dot;
}

TEST(DotWriter, LargeGraphsShowTheNeighbourhoodOfClonesAndTheWrites) {
  // A long chain with one clone in the middle, written through a view far below, and its source
  // returned: the chain is cut, the write (two steps from the clone) stays.
  std::string text = "class GraphModule(torch.nn.Module):\n"
                     "    def forward(self, x: \"f32[4][1]cpu\"):\n"
                     "        a0: \"f32[4][1]cpu\" = torch.ops.aten.relu.default(x)\n";
  for (int i = 1; i < 40; ++i)
    text += "        a" + std::to_string(i) + ": \"f32[4][1]cpu\" = torch.ops.aten.relu.default(a" +
            std::to_string(i - 1) + ")\n";
  text += "        c: \"f32[4][1]cpu\" = torch.ops.aten.clone.default(a39)\n"
          "        v: \"f32[2, 2][2, 1]cpu\" = torch.ops.aten.view.default(c, [2, 2])\n";
  for (int i = 40; i < 80; ++i)
    text += "        a" + std::to_string(i) + ": \"f32[4][1]cpu\" = torch.ops.aten.relu.default(a" +
            std::to_string(i - 1) + ")\n";
  text += "        w: \"f32[2, 2][2, 1]cpu\" = torch.ops.aten.add_.Tensor(v, 1)\n"
          "        return (w, a39, a79)\n";
  DotOptions options;
  options.maxNodes = 20;
  options.radius = 1;
  std::string dot = dotOf(text, options);
  EXPECT_TRUE(contains(dot, "[label=\"c\\naten.clone.default\\nkept")) << dot;
  EXPECT_TRUE(contains(dot, "[label=\"a39\\n"));
  EXPECT_FALSE(contains(dot, "[label=\"a40\\n")); // two steps from the clone
  EXPECT_FALSE(contains(dot, "[label=\"a38\\n"));
  EXPECT_FALSE(contains(dot, "[label=\"a50\\n"));
  EXPECT_TRUE(contains(dot, "[label=\"w\\naten.add_.Tensor")); // the write, far from the clone
  EXPECT_TRUE(contains(dot, "m0_42 -> m0_83 [color=\"#c0392b\", penwidth=2.2, label=\"writes\""));
  EXPECT_TRUE(contains(dot, "m0_40 -> m0_41;\n"));
  EXPECT_TRUE(
      contains(dot, "a39\\naten.relu.default\\nf32[4][1]cpu\\n(+1 inputs, +1 users not shown)"));
  EXPECT_TRUE(contains(dot, "neighbourhood of each clone (1 steps) and writes to its storage: "
                            "5 of 85 nodes"))
      << dot;
}

TEST(DotWriter, NestedModulesAreNestedClusters) {
  std::string text = "class Outer(torch.nn.Module):\n"
                     "    def forward(self, x: \"f32[2][1]cpu\"):\n"
                     "        y: \"f32[2][1]cpu\" = torch.ops.aten.clone.default(x);  x = None\n"
                     "        return (y,)\n"
                     "\n"
                     "    class inner(torch.nn.Module):\n"
                     "        def forward(self, z: \"f32[2][1]cpu\"):\n"
                     "            return (z,)\n";
  std::string dot = dotOf(text);
  size_t outer = dot.find("subgraph \"cluster_m0_\" {\n    label=\"Outer\"");
  size_t inner = dot.find("    subgraph \"cluster_m1_\" {\n      label=\"inner\"");
  ASSERT_NE(outer, std::string::npos) << dot;
  ASSERT_NE(inner, std::string::npos) << dot;
  EXPECT_LT(outer, inner);
}

} // namespace
} // namespace declone::test
