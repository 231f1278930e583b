// Private to the analysis: the one table of view ops and their layout rules.
#pragma once

#include "StrideInference.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace declone::detail {

/// Where a view op's result starts in its input's storage.
enum class ViewStart : uint8_t {
  Same,       ///< where the input starts
  Computed,   ///< worked out from the arguments by ViewRule::offset
  SameIfZero, ///< a view or a copy: the input's offset when that is 0 (a copy starts at 0)
  Unknown,    ///< not a view of its input, or not one whose offset declone works out
};

/// What a rule is given: the call, its annotated sizes, and where the layouts of its arguments
/// are read.
struct ViewCall {
  SymContext& sym;
  const Node& node;
  std::span<const SymExpr> sizes;
  ArgumentLayouts& layouts;
};

/// One op's layout rule: its result's strides from its arguments (null: no rule) and where it
/// starts. The ops are aten's (prims.as_strided shares as_strided's offset rule); as_strided_
/// and empty_strided are here for their stride argument.
struct ViewRule {
  std::string_view name;
  ViewStart start;
  std::optional<std::vector<SymExpr>> (*strides)(const ViewCall& call);
  /// For ViewStart::Computed: the offset, given the input's (`base`).
  std::optional<SymExpr> (*offset)(const ViewCall& call, const Layout& input);
};

/// The rule of an aten op (or prims.as_strided), by name; null for any other op.
[[nodiscard]] const ViewRule* viewRule(const Target& target);

/// The view's storage offset (input: the layout of its first argument, with a known offset),
/// by the rule's ViewStart; nullopt when it cannot be worked out.
[[nodiscard]] std::optional<SymExpr> viewOffset(const ViewRule& rule, const ViewCall& call,
                                                const Layout& input);

} // namespace declone::detail
