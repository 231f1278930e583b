// Writing inferred strides into annotations, and checking printed strides against inference.
#pragma once

#include "declone/analysis/LayoutAnalysis.h"
#include "declone/ir/Graph.h"
#include "declone/schema/SchemaRegistry.h"

#include <cstddef>
#include <string>
#include <vector>

namespace declone {

struct AnnotateLayoutsOptions {
  /// Schemas to resolve ops with; the built-in registry when null.
  const SchemaRegistry* schemas = nullptr;
  /// How layouts no annotation prints are found (LayoutAnalysis).
  LayoutOptions layout;
};

struct AnnotateLayoutsResult {
  size_t annotated = 0; ///< annotations that got strides (or an offset) they did not print
  size_t unknown = 0;   ///< tensor annotations without strides that inference could not fill
};

/// Upgrades a dump to today's format: every tensor annotation without strides gets the
/// strides LayoutAnalysis infers, and the storage offset where it is not 0, in this module and
/// its subgraphs. Annotations inference cannot fill are left as they are.
[[nodiscard]] AnnotateLayoutsResult annotateLayouts(GraphModule& module,
                                                    const AnnotateLayoutsOptions& options);

/// A node whose printed strides differ from what the rules infer from its inputs.
struct AnnotationConflict {
  const Node* node = nullptr;
  std::string printed;  ///< `[3, 1]`
  std::string inferred; ///< `[1, 4]`
};

/// The nodes of this module and its subgraphs whose printed strides contradict inference (stale
/// metadata, hand-edited dumps), in program order.
[[nodiscard]] std::vector<AnnotationConflict>
checkAnnotations(const GraphModule& module, const AnnotateLayoutsOptions& options);

} // namespace declone
