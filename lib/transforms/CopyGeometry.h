// Which elements a tensor's layout covers, for the defunctionalization rules: the bytes a copy
// moves, whether two views meet, whether a scatter writes back exactly a view.
#pragma once

#include "declone/analysis/LayoutAnalysis.h"
#include "declone/ir/Graph.h"

#include <cstdint>
#include <optional>

namespace declone::detail {

/// Bytes clone_preserve_strides copies of a tensor: its storage up to its last element (or its
/// elements, when only the sizes are known); nullopt for symbolic sizes.
[[nodiscard]] std::optional<uint64_t> copyBytes(const Layout* layout);

/// Whether two tensors of one storage provably share no element. Sizes of all but each one's
/// innermost dimension may be symbolic (a token count).
[[nodiscard]] bool provablyDisjoint(const Layout* a, const Layout* b);

/// Whether every element of `view` is an element of `base` (both of one storage): `base` is
/// non-overlapping and dense, and the view's addresses lie within its range.
[[nodiscard]] bool withinBase(const Layout* base, std::span<const SymExpr> sizes,
                              std::span<const SymExpr> strides, SymExpr offset);

/// Whether two layouts cover the same bytes of their storage, each without gaps or overlap
/// (a tensor and its view as another dtype of the same size in bytes).
[[nodiscard]] bool sameBytes(const Layout* a, const Layout* b);

/// Whether two layouts are the same view: dtype, sizes, strides (where a dimension has more
/// than one element) and offset, all static.
[[nodiscard]] bool sameView(const Layout* a, const Layout* b);

/// Whether `view` is exactly the elements `slice_scatter(base, _, dim, start, end, step)` (the
/// call `step`) writes back: the slice of `base` it describes, by static layouts.
[[nodiscard]] bool isScatteredRegion(const Node* step, const Layout* base, const Layout* view);

} // namespace declone::detail
