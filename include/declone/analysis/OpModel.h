// What declone knows of ops beyond their schemas, kept in one place: which calls are the clones
// the passes decide about, and which ops change a tensor's layout in place. (Effects come from
// the schema and the audited override table, TargetEffects; each view op's layout rule from the
// one table of view rules, lib/analysis/ViewRules.cpp.)
#pragma once

#include "declone/ir/Graph.h"

#include <span>
#include <string_view>

namespace declone {

/// A clone the passes decide about: `aten.clone` or `aten.clone.default`, a call that allocates
/// a copy (clone.out returns its out tensor).
[[nodiscard]] bool isClone(const Node* node);
/// Whether a call of `target` is such a clone.
[[nodiscard]] bool isCloneTarget(const Target& target);

struct OpName {
  std::string_view opNamespace;
  std::string_view name;
};

/// In-place ops whose kernels change `self`'s sizes, strides, storage offset or storage rather
/// than (or besides) its data (t_, as_strided_, resize_, set_, ...), from PyTorch's
/// native_functions.yaml and prims. The Python package reads this list through the binding.
[[nodiscard]] std::span<const OpName> inPlaceLayoutChangers();

} // namespace declone
