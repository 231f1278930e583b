// Every tensor value's dtype, device, sizes, strides and storage offset, annotated or inferred.
#pragma once

#include "declone/analysis/Effects.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
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

/// Layouts are computed on first query and memoised: the passes need them only for clones,
/// their sources and the views behind those, so most values never get one. Queries fill the
/// memo, so one instance must not be used from several threads at once.
class LayoutAnalysis {
public:
  /// Computes the layouts of every clone and of its source up front, while the graph is as it
  /// was given: clone elimination rewrites uses as it goes, and layouts must not see that.
  LayoutAnalysis(const Graph& graph, const EffectAnalysis& effects);
  /// As above, for a caller that has found the graph's clones already (in program order; every
  /// `aten.clone` whose layout will be asked for, with or without an overload): only they and
  /// their sources are computed up front, without a walk of the whole graph.
  LayoutAnalysis(const Graph& graph, const EffectAnalysis& effects, std::span<Node* const> clones);

  /// nullptr when the value has no tensor annotation. Values queried only after the graph has
  /// changed (other than clones and their sources) are inferred from the graph as it is then.
  [[nodiscard]] const Layout* layout(const Node* node) const;

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
  /// memo_ entries: not computed yet, computed as "no layout", or index + kFirstLayout of a
  /// layout in the chunks.
  static constexpr uint32_t kNotComputed = 0;
  static constexpr uint32_t kNoLayout = 1;
  static constexpr uint32_t kFirstLayout = 2;

  [[nodiscard]] const Layout* memoised(const Node* node) const {
    uint32_t entry = memo_[node->order()];
    if (entry < kFirstLayout)
      return nullptr;
    uint32_t index = entry - kFirstLayout;
    return &chunks_[index / kChunkSize][index % kChunkSize];
  }
  /// Stores a computed layout; returns its index.
  uint32_t add(const Layout& layout) const;
  /// Computes and memoises `node`'s layout and, first, those it depends on.
  void computeWithInputs(const Node* node) const;
  /// One layout, assuming those it depends on are memoised; if one is not, records it in
  /// missing_ and the result is discarded.
  std::optional<Layout> compute(const Node* node) const;
  /// The layout of a value the layout being computed depends on.
  const Layout* input(const Node* node) const;
  std::optional<SymExpr> inferOffset(const Node* node) const;
  std::optional<SymExpr> viewOffset(const Node* node) const;
  /// How viewOffset treats an aten op, by its name.
  enum class ViewKind : uint8_t {
    SameOffset, ///< the result starts where the input starts
    MaybeView,  ///< a view or a copy: the input's offset if that is 0
    Other,      ///< decided by the name (as_strided, slice, ...) or unknown
  };
  ViewKind viewKind(const Target& target) const;
  std::optional<SymExpr> splitElementOffset(const Node* getitem) const;
  std::optional<SymExpr> functionalizedElementOffset(const Node* producer, int64_t index) const;
  std::optional<SymExpr> intArgument(const Node* node, size_t index, std::string_view name,
                                     std::optional<int64_t> fallback) const;
  std::span<const SymExpr> save(const std::vector<SymExpr>& values) const;
  /// Computes the layouts of a clone and of its source, if `node` is a clone of a node.
  void precomputeClone(const Node* node) const;

  const Graph& graph_;
  const EffectAnalysis& effects_;
  SymContext& sym_;
  mutable std::vector<uint32_t> memo_; ///< by Node::order()
  /// Layouts in chunks that never move, since handed-out pointers must stay valid. (A deque's
  /// 512-byte blocks hold five 88-byte layouts each, plus a malloc header: 20% more.)
  static constexpr uint32_t kChunkSize = 256;
  mutable std::vector<std::unique_ptr<Layout[]>> chunks_;
  mutable uint32_t numLayouts_ = 0;
  mutable std::unordered_map<const Target*, ViewKind> viewKinds_;
  mutable const Target* lastViewTarget_ = nullptr;
  mutable ViewKind lastViewKind_ = ViewKind::Other;
  mutable std::vector<const Node*> stack_; ///< computeWithInputs's, kept for its capacity
  mutable const Node* computing_ = nullptr;
  mutable const Node* missing_ = nullptr;
};

} // namespace declone
