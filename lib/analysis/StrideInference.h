// Strides of values whose annotation prints none, by the rules of the kernels that make them.
#pragma once

#include "declone/analysis/LayoutAnalysis.h"

#include <optional>
#include <span>
#include <vector>

namespace declone::detail {

/// Where the rules read the layouts of a node's arguments.
class ArgumentLayouts {
public:
  virtual ~ArgumentLayouts() = default;
  /// nullptr when the value has no layout. Not const: the reader notes what the layouts it
  /// reads rest on.
  [[nodiscard]] virtual const Layout* layoutOf(const Node* node) = 0;
};

/// The layout of argument `index` (positional) when it is a tensor with known strides.
[[nodiscard]] const Layout* knownInput(const Node& node, size_t index, ArgumentLayouts& layouts);
/// The memory_format keyword argument; `fallback` when absent or None, nullopt when unreadable.
[[nodiscard]] std::optional<MemoryFormat> memoryFormatArgument(const Node& node,
                                                               MemoryFormat fallback);
/// PyTorch's is_contiguous for memory format `order` (innermost dimension first): sizes of 1
/// say nothing; nullopt when symbolic strides leave it open.
[[nodiscard]] std::optional<bool> denseInOrder(SymContext& sym, std::span<const SymExpr> sizes,
                                               std::span<const SymExpr> strides,
                                               std::span<const size_t> order);

/// The strides PyTorch gives the result of `node` (an aten call; `sizes` its annotated sizes):
/// by exact rules for views (permute, transpose, expand, view and reshape's stride
/// computation, ...), TensorIterator's output layout for pointwise ops, contiguous results of
/// reductions and the matmul family, convolution and cat by their memory formats, factories
/// and `*_like` by their memory_format. nullopt where no rule decides them.
[[nodiscard]] std::optional<std::vector<SymExpr>> inferStrides(SymContext& sym, const Node& node,
                                                               std::span<const SymExpr> sizes,
                                                               ArgumentLayouts& arguments);

/// The strides of element `index` of the tuple or list aten call `producer` returns (split,
/// chunk and unbind pieces are views of their input; reductions' and layer_norm's elements are
/// contiguous), or nullopt.
[[nodiscard]] std::optional<std::vector<SymExpr>>
inferElementStrides(SymContext& sym, const Node& producer, int64_t index,
                    std::span<const SymExpr> sizes, ArgumentLayouts& arguments);

/// The sign of `a - b` for every value its symbols can take (SymContext::lowerBound: a backed
/// size of a graph input is at least 2), or nullopt when that depends on the values.
[[nodiscard]] std::optional<int> compareSizes(SymContext& sym, SymExpr a, SymExpr b);

/// The order TensorIterator's reorder_dimensions puts dimensions in (innermost first) for
/// operands of these strides (each expanded to `shape`, 0 for broadcast dimensions): by stride,
/// broadcast dimensions aside, ties to the smaller size; the same sort infer_dense_strides and,
/// for symbolic sizes, compute_elementwise_output_strides do. nullopt when a comparison depends
/// on the values of symbolic sizes (PyTorch decides it by the sizes the trace saw).
[[nodiscard]] std::optional<std::vector<size_t>>
stridesOrder(SymContext& sym, std::span<const SymExpr> shape,
             std::span<const std::vector<SymExpr>> strides);

/// The order of a memory format's dimensions (innermost first) at rank `rank`: row-major for
/// Contiguous, C W H N for ChannelsLast (rank 4 only), C W H D N for ChannelsLast3d (rank 5
/// only); nullopt for Preserve or another rank.
[[nodiscard]] std::optional<std::vector<size_t>> formatOrder(MemoryFormat format, size_t rank);
/// The dense strides of `sizes` in a memory format (formatOrder), or nullopt.
[[nodiscard]] std::optional<std::vector<SymExpr>>
formatStrides(SymContext& sym, std::span<const SymExpr> sizes, MemoryFormat format);

/// Whether `value` is at least `bound` for every value its symbols can take
/// (SymContext::lowerBound): `atLeast(s0, 2)` holds for a graph input's size s0, `atLeast(u0, 1)`
/// does not for an unbacked size u0.
[[nodiscard]] bool atLeast(const SymContext& sym, SymExpr value, int64_t bound);
/// Whether `strides` are exactly the row-major strides of `sizes`.
[[nodiscard]] bool exactlyContiguous(SymContext& sym, std::span<const SymExpr> sizes,
                                     std::span<const SymExpr> strides);

/// Row-major strides (PyTorch's contiguous strides treat size 0 as 1).
[[nodiscard]] std::vector<SymExpr> contiguousStrides(SymContext& sym,
                                                     std::span<const SymExpr> sizes);
/// Strides of a dense layout whose dimensions are laid out in `order` (innermost first).
[[nodiscard]] std::vector<SymExpr> stridesInOrder(SymContext& sym, std::span<const SymExpr> sizes,
                                                  std::span<const size_t> order);
/// What PyTorch's computeStride gives for viewing `sizes`/`strides` as `newSizes`: the view's
/// strides, or `copies` when no view exists (view fails; reshape copies); neither when
/// symbolic sizes leave one of its comparisons open (PyTorch decides it by the sizes the trace
/// saw).
struct ViewStrides {
  std::optional<std::vector<SymExpr>> strides;
  bool copies = false;
};
[[nodiscard]] ViewStrides viewStrides(SymContext& sym, std::span<const SymExpr> sizes,
                                      std::span<const SymExpr> strides,
                                      std::span<const SymExpr> newSizes);

} // namespace declone::detail
