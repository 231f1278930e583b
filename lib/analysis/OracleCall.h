// The call a LayoutOracle runs for a node whose layout no rule gives.
#pragma once

#include "StrideInference.h"
#include "declone/analysis/LayoutOracle.h"

#include <optional>

namespace declone::detail {

/// The call `node` makes, with its tensor arguments renamed `t0`, `t1`, ... in the order they
/// occur, so that one op on equal layouts is one call. nullopt when `node` is not an op call
/// or an argument is something the oracle cannot rebuild: a tensor whose layout is unknown,
/// symbolic or not computed yet (then `arguments` has recorded it), a tensor not on the CPU
/// (see LayoutOracle), a symbolic int, an operator, or text kept verbatim.
[[nodiscard]] std::optional<OracleCall> oracleCall(const Context& context, const Node& node,
                                                   ArgumentLayouts& arguments);

/// `layout` as strides of `sizes`, when the oracle's result has those sizes.
[[nodiscard]] std::optional<std::vector<SymExpr>> oracleStrides(const StaticLayout& layout,
                                                                std::span<const SymExpr> sizes);

} // namespace declone::detail
