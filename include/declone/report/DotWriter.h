// Graphviz pictures of graphs with every clone coloured by the pass's decision.
#pragma once

#include "declone/ir/Graph.h"
#include "declone/schema/SchemaRegistry.h"
#include "declone/support/Remark.h"

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace declone {

struct DotOptions {
  /// Named in tooltips (`FILE:LINE`).
  std::string_view fileName;
  /// The text the graph was read from: tooltips show each node's source line. May be empty.
  std::string_view sourceText;
  /// Schemas for the effects behind edge styles; the built-in registry when null.
  const SchemaRegistry* schemas = nullptr;
  /// A graph with more nodes is drawn as the neighbourhood of its clones: the nodes within
  /// `radius` uses or definitions of a clone, and every node that writes the storage of a clone
  /// or of its source after the clone (the writes the decision is about).
  size_t maxNodes = 120;
  unsigned radius = 2;
  bool legend = true;
};

/// Writes `file` (as read, before the pass changed it) as a Graphviz digraph. `remarks` are the
/// decisions a run of the pass made on it; a clone is matched to its remark by line and name.
/// Removed clones are green, kept ones red and labelled with their reason code and detail.
/// Edges: solid for reads, dashed blue for views (the user's result aliases the value), bold
/// red for writes, dotted purple for ops without a usable schema (which may write anything).
/// Nested subgraphs are clusters. `dot -Tsvg` renders it; tooltips carry the source lines.
[[nodiscard]] std::string writeCloneDot(const GraphFile& file, std::span<const Remark> remarks,
                                        const DotOptions& options);

} // namespace declone
