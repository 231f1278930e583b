// Private to the analysis: reading a call's int arguments, and the layout of Python's basic
// indexing of a tensor, `x[1, :, None]`.
#pragma once

#include "declone/analysis/LayoutAnalysis.h"

namespace declone::detail {

/// An int argument, index or bound: a literal, or a node annotated as a symbolic int.
[[nodiscard]] std::optional<SymExpr> intValue(const Arg& arg);
/// Argument `index` if given positionally, else the keyword argument `name`; null if neither.
[[nodiscard]] const Arg* argument(const Node& node, size_t index, std::string_view name);
/// An int argument (intValue); `fallback` when it is absent or None, nullopt when unreadable.
[[nodiscard]] std::optional<SymExpr>
intArgument(const Node& node, size_t index, std::string_view name, std::optional<int64_t> fallback);
/// A list or tuple of ints (intValue each), or nullopt.
[[nodiscard]] std::optional<std::vector<SymExpr>> intListArgument(const Node& node, size_t index,
                                                                  std::string_view name);
/// A constant dimension index with Python's negative indexing, checked against the rank.
[[nodiscard]] std::optional<size_t> dimension(std::optional<SymExpr> dim, size_t rank);

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
