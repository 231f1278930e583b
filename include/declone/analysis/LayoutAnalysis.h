// Every tensor value's dtype, device, sizes, strides and storage offset, annotated or inferred.
#pragma once

#include "declone/analysis/Effects.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace declone {

/// What is known of a tensor's layout. Sizes come from the annotation; strides from the
/// annotation or, for clones, from the memory_format rules; the storage offset from the
/// `@OFFSET` suffix or from the view op that made the value. Unknown stays unknown.
struct Layout {
  DType dtype = DType::Float32;
  std::string_view device;
  std::span<const SymExpr> sizes;
  std::optional<std::span<const SymExpr>> strides;
  std::optional<SymExpr> storageOffset;
};

/// `f32[4, 3][3, 1]cpu@0`, with `?` for what is unknown.
[[nodiscard]] std::string formatLayout(const SymContext& sym, const Layout& layout);

/// Read-only after construction.
class LayoutAnalysis {
public:
  LayoutAnalysis(const Graph& graph, const EffectAnalysis& effects);

  /// nullptr when the value has no tensor annotation.
  [[nodiscard]] const Layout* layout(const Node* node) const {
    const std::optional<Layout>& layout = layouts_[node->order()];
    return layout ? &*layout : nullptr;
  }

  /// The strides `clone(input, memory_format=format)` produces, or nullopt when they cannot be
  /// decided (unknown or symbolic non-dense input strides). Exposed for tests.
  [[nodiscard]] static std::optional<std::vector<SymExpr>>
  cloneStrides(SymContext& sym, const Layout& input, MemoryFormat format);
  /// Whether a layout is provably non-overlapping and dense (PyTorch's
  /// is_non_overlapping_and_dense); nullopt when it cannot be decided.
  [[nodiscard]] static std::optional<bool>
  isNonOverlappingAndDense(SymContext& sym, std::span<const SymExpr> sizes,
                           std::span<const SymExpr> strides);

private:
  std::optional<SymExpr> inferOffset(const Node* node, const Layout& layout) const;
  std::optional<SymExpr> viewOffset(const Node* node) const;
  std::optional<SymExpr> splitElementOffset(const Node* getitem) const;
  std::optional<SymExpr> functionalizedElementOffset(const Node* producer, int64_t index) const;
  std::optional<SymExpr> intArgument(const Node* node, size_t index, std::string_view name,
                                     std::optional<int64_t> fallback) const;
  std::span<const SymExpr> save(const std::vector<SymExpr>& values);

  const Graph& graph_;
  const EffectAnalysis& effects_;
  SymContext& sym_;
  std::vector<std::optional<Layout>> layouts_;
};

} // namespace declone
