// Private to the analysis: the layout of Python's basic indexing of a tensor, `x[1, :, None]`.
#pragma once

#include "declone/analysis/LayoutAnalysis.h"

namespace declone::detail {

/// An int argument, index or bound: a literal, or a node annotated as a symbolic int.
[[nodiscard]] std::optional<SymExpr> intValue(const Arg& arg);

/// What basic indexing gives: strides (nullopt when they cannot be worked out) and storage
/// offset (nullopt likewise).
struct IndexedLayout {
  std::optional<std::vector<SymExpr>> strides;
  std::optional<SymExpr> storageOffset;
};

/// The layout of `input[index]` as PyTorch's applySlicing makes it, where `index` is an int, a
/// slice, None, a symbolic int node, or a tuple of them (basic indexing: a view). `resultSizes`
/// are the result's annotated sizes, which give the length of each sliced dimension. nullopt
/// for anything else (tensor, list, bool or Ellipsis indices; negative or out-of-range indices
/// that cannot be settled).
[[nodiscard]] std::optional<IndexedLayout> indexedLayout(SymContext& sym, const Layout& input,
                                                         const Arg& index,
                                                         std::span<const SymExpr> resultSizes);

} // namespace declone::detail
