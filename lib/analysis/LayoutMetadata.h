// What LayoutAnalysis learns beyond sizes, strides and offsets: which values an in-place op may
// give a new layout, and the conjugate and negative bits.
#pragma once

#include "declone/analysis/Effects.h"
#include "declone/analysis/LayoutAnalysis.h"

#include <cstdint>
#include <unordered_map>

namespace declone::detail {

/// The value an in-place or out= call (or an element of one, taken apart by getitem) returns:
/// the very argument it wrote, so that both nodes name one tensor. Null for any other node.
[[nodiscard]] const Node* sameTensorAs(const EffectAnalysis& effects, const Node* node);

/// Every value whose layout an in-place op changes somewhere in the graph: the tensor the op
/// changes, under every node that names it (the op's result, other in-place results of it), as
/// EffectAnalysis::layoutChanges lists them. An out= argument counts only when the op resizes
/// it, that is when its sizes are not the result's: PyTorch's out= kernels leave an out
/// tensor of the right sizes as it is (resize_output), and sizes are in every annotation.
class InPlaceLayoutChanges {
public:
  explicit InPlaceLayoutChanges(const EffectAnalysis& effects);
  /// The change that touches `node`'s tensor first in program order, or null.
  [[nodiscard]] const LayoutChange* find(const Node* node) const {
    if (byOrder_.empty())
      return nullptr;
    auto found = byOrder_.find(node->order());
    return found == byOrder_.end() ? nullptr : &found->second;
  }

private:
  std::unordered_map<uint32_t, LayoutChange> byOrder_;
};

struct ViewBits {
  ViewBit conj = ViewBit::Clear;
  ViewBit neg = ViewBit::Clear;
};

/// The bits of a call's value whose result aliases `input` (a view, an in-place result, a
/// value that may be a view or a copy), from the bits of `input`'s layout. `alwaysView` says
/// the op always returns a view, which keeps its input's bits; other aliasing ops may copy.
[[nodiscard]] ViewBits aliasViewBits(const EffectAnalysis& effects, const Node* node,
                                     const Node* input, const Layout& inputLayout, bool alwaysView);

/// The bits of a value whose producer's result is not an alias of one input: a graph input or
/// a fresh result has neither; a result that may alias anything may have either.
[[nodiscard]] ViewBits nonAliasViewBits(OutputAlias::Kind kind, DType dtype);

} // namespace declone::detail
