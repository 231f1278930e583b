// print --annotate and analyze --check-annotations: inferred layouts against printed ones.
#include "declone/transforms/AnnotateLayouts.h"

#include "declone/analysis/Effects.h"
#include "declone/analysis/LayoutAnalysis.h"

#include <algorithm>

namespace declone {
namespace {

const SchemaRegistry& registry(const AnnotateLayoutsOptions& options) {
  return options.schemas ? *options.schemas : SchemaRegistry::builtin();
}

void annotateGraph(Graph& graph, const AnnotateLayoutsOptions& options,
                   AnnotateLayoutsResult& result) {
  EffectAnalysis effects(graph, registry(options));
  LayoutAnalysis layouts(graph, effects, options.layout);
  // Every layout first, from the graph as printed; then the annotations change.
  std::vector<std::pair<Node*, const Layout*>> todo;
  for (Node* node : graph) {
    const TypeAnnotation& type = node->type();
    if (type.kind != TypeAnnotation::Kind::Tensor ||
        (type.tensor->strides && type.tensor->storageOffset))
      continue;
    todo.emplace_back(node, layouts.layout(node));
  }
  Context& context = graph.context();
  for (auto [node, layout] : todo) {
    const TensorType& old = *node->type().tensor;
    bool strides = !old.strides && layout && layout->strides;
    bool offset = !old.storageOffset && layout && layout->storageOffset &&
                  *layout->storageOffset != SymExpr::constant(0);
    if (!old.strides && !strides)
      ++result.unknown;
    if (!strides && !offset)
      continue;
    TensorType* tensor = context.create<TensorType>(old);
    if (strides) {
      std::span<SymExpr> copy = context.allocate<SymExpr>(layout->strides->size());
      std::copy(layout->strides->begin(), layout->strides->end(), copy.begin());
      tensor->strides = copy;
    }
    if (offset)
      tensor->storageOffset = layout->storageOffset;
    TypeAnnotation* type = context.create<TypeAnnotation>(node->type());
    type->spelling = {}; // written canonically from the fields
    type->tensor = tensor;
    node->setType(type);
    ++result.annotated;
  }
}

void checkGraph(const Graph& graph, const AnnotateLayoutsOptions& options,
                std::vector<AnnotationConflict>& out) {
  EffectAnalysis effects(graph, registry(options));
  LayoutAnalysis layouts(graph, effects, options.layout);
  const SymContext& sym = graph.context().sym();
  for (const Node* node : graph) {
    const TypeAnnotation& type = node->type();
    if (type.kind != TypeAnnotation::Kind::Tensor || !type.tensor->strides)
      continue;
    std::optional<std::vector<SymExpr>> inferred = layouts.stridesFromInputs(node);
    const Layout* printed = layouts.layout(node);
    if (!inferred || !printed || !printed->strides)
      continue;
    if (std::equal(inferred->begin(), inferred->end(), printed->strides->begin(),
                   printed->strides->end()))
      continue;
    out.push_back({node, formatSymList(sym, *printed->strides), formatSymList(sym, *inferred)});
  }
}

void annotateModule(GraphModule& module, const AnnotateLayoutsOptions& options,
                    AnnotateLayoutsResult& result) {
  annotateGraph(module.graph, options, result);
  for (auto& child : module.children)
    annotateModule(*child, options, result);
}

void checkModule(const GraphModule& module, const AnnotateLayoutsOptions& options,
                 std::vector<AnnotationConflict>& out) {
  checkGraph(module.graph, options, out);
  for (const auto& child : module.children)
    checkModule(*child, options, out);
}

} // namespace

AnnotateLayoutsResult annotateLayouts(GraphModule& module, const AnnotateLayoutsOptions& options) {
  AnnotateLayoutsResult result;
  annotateModule(module, options, result);
  return result;
}

std::vector<AnnotationConflict> checkAnnotations(const GraphModule& module,
                                                 const AnnotateLayoutsOptions& options) {
  std::vector<AnnotationConflict> out;
  checkModule(module, options, out);
  return out;
}

} // namespace declone
