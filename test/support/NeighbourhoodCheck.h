// Tests' check that clone elimination decides on a clone neighbourhood as on the whole graph.
#pragma once

#include "GraphNeighbourhood.h"
#include "declone/analysis/LayoutAnalysis.h"
#include "declone/transforms/CloneElimination.h"
#include "declone/transforms/CloneNeighbourhood.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace declone::test {

/// Writes into the annotations of the clones and their sources the storage offsets that
/// LayoutAnalysis infers. A live graph states them (FakeTensors know their offset), while the
/// text leaves offset 0 unprinted; the neighbourhood is exact only where they are stated.
inline void stateCloneOffsets(Graph& graph) {
  EffectAnalysis effects(graph, SchemaRegistry::builtin());
  LayoutAnalysis layouts(graph, effects);
  std::vector<std::pair<Node*, SymExpr>> offsets;
  auto state = [&](Node* node) {
    if (node->type().kind != TypeAnnotation::Kind::Tensor || node->type().tensor->storageOffset)
      return;
    if (const Layout* layout = layouts.layout(node); layout && layout->storageOffset)
      offsets.emplace_back(node, *layout->storageOffset);
  };
  forEachCloneAndSource(graph, state);
  Context& context = graph.context();
  for (auto [node, offset] : offsets) {
    TensorType tensor = *node->type().tensor;
    tensor.storageOffset = offset;
    TypeAnnotation type = node->type();
    type.tensor = context.create<TensorType>(tensor);
    node->setType(context.create<TypeAnnotation>(type));
  }
}

struct NeighbourhoodCheck {
  bool checked = false; ///< the layouts of the clones and sources could be stated
  size_t nodes = 0;     ///< of the whole graph
  size_t kept = 0;      ///< nodes imported or standing in
  /// The first remark that differs, whole graph then neighbourhood; empty if none does.
  std::string difference;
};

/// The neighbourhood property: once the clones' and sources' offsets are stated (in `module`,
/// which is otherwise left as it is), the pass in `mode` decides on the nodes
/// selectCloneNeighbourhood keeps (the graph the Python importer builds) exactly as on the
/// whole graph: same remarks, lines and details.
inline NeighbourhoodCheck checkNeighbourhood(GraphModule& module, CloneEliminationMode mode,
                                             const std::vector<bool>& donated = {}) {
  NeighbourhoodCheck check;
  stateCloneOffsets(module.graph);
  if (!cloneLayoutsAreStated(module.graph))
    return check;
  check.checked = true;
  check.nodes = module.graph.size();
  GraphNeighbourhoodSource source(module.graph);
  std::vector<NeighbourhoodRole> roles =
      selectCloneNeighbourhood(source, SchemaRegistry::builtin(), mode);
  check.kept = static_cast<size_t>(std::count_if(
      roles.begin(), roles.end(), [](auto role) { return role != NeighbourhoodRole::Absent; }));
  // The pass rewrites what it runs on: both runs get copies.
  std::vector<NeighbourhoodRole> everything(roles.size(), NeighbourhoodRole::Imported);
  std::unique_ptr<GraphModule> whole = copyCloneNeighbourhood(module, everything);
  std::unique_ptr<GraphModule> part = copyCloneNeighbourhood(module, roles);
  CloneEliminationOptions options;
  options.mode = mode;
  options.donated = donated;
  std::vector<Remark> expected = eliminateClones(*whole, options).remarks;
  std::vector<Remark> actual = eliminateClones(*part, options).remarks;
  for (size_t i = 0; i < std::max(expected.size(), actual.size()); ++i) {
    std::string want = i < expected.size() ? expected[i].formatText("<graph>") : "(none)";
    std::string got = i < actual.size() ? actual[i].formatText("<graph>") : "(none)";
    if (want != got) {
      check.difference = "whole graph: " + want + "\n  neighbourhood: " + got;
      break;
    }
  }
  return check;
}

} // namespace declone::test
