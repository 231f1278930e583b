// Smaller sizes to run a graph at: which literal sizes may shrink together, to what, what a run
// would cost, and which arguments change. Read-only; the runtime applies and checks the plan.
#pragma once

#include "declone/ir/Graph.h"

#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace declone {

/// Every occurrence of the size `from` (in annotations and size arguments) becomes `to`.
struct SizeChange {
  int64_t from = 0;
  int64_t to = 0;
  friend bool operator==(const SizeChange&, const SizeChange&) = default;
};

/// `32768 -> 64, 151936 -> 80`, as verdicts name the sizes a run used.
[[nodiscard]] std::string describeSizeChanges(std::span<const SizeChange> changes);

/// What a run may cost before shrinking stops: its estimated bytes (every tensor value made once,
/// inputs included) and seconds (a rough rate of arithmetic on this kind of machine).
struct ShrinkBudget {
  uint64_t bytes = uint64_t(512) << 20;
  double seconds = 5;
  /// No size shrinks below this, and only sizes above it shrink.
  int64_t floor = 16;
};

struct RunCost {
  uint64_t bytes = 0;
  double seconds = 0;
};

/// One integer of a call's arguments that a size change rewrites: args()[position] (or the
/// keyword argument `keyword`), element `element` of it when it is a list (-1: the value itself).
struct SizeEdit {
  const Node* node = nullptr;
  int position = -1;
  std::string_view keyword;
  int element = -1;
  int64_t value = 0; ///< the new value
};

/// The sizes of a graph (and of its nested bodies, which share one plan) and how they relate.
/// A size is a value of 2 or more in a tensor annotation's sizes or in a size argument (the
/// int and SymInt arguments of an op's schema that are not dimensions: view's and expand's
/// sizes, factories', slice bounds, split sizes, arange's bounds). The same value is taken to
/// be the same dimension wherever it stands; a plan keeps:
/// - equalities and distinctness: sizes stay distinct from each other and from every other
///   value the graph holds (no two dimensions become equal by accident);
/// - multiples: a multiple of a shrunk size shrinks with it (12288 = 8 x 1536 -> 8 x 96);
/// - size-1 (and 0) dimensions, which no plan touches;
/// - where a slice, narrow, select or split falls: the places bounds index along a dimension
///   (negative ones from its end, narrow's end at start + length, split_with_sizes' running sums)
///   keep their order against each other, 0 and the dimension's size, for every dimension of
///   that size (a partial slice stays partial, overlapping ones overlap, the last row stays the
///   last);
/// - values it cannot place: integers in other arguments (kernel sizes, strides, pads, chunk
///   counts, Python arithmetic, getitem slices) are pinned, and so is every size equal to them;
///   a pinned value stays below every size it was below (a band `tril(x, 3000)` over a
///   dimension of 4096 keeps its upper part);
/// - thresholds: an integer Scalar operand shrinks with a size it equals and keeps its order
///   against every size (a mask `lt(arange(n), 3000)` over n = 4096 keeps its false part);
/// - products: the groups of dimensions a view or reshape maps onto each other keep equal
///   products ([8, 1536] -> [12288] shrinks 1536 and 12288 by one factor, or neither).
/// Divisibility by 16 and 3 (which splits rely on) is kept where the size had it. What the
/// plan cannot see (a view's product of two shrunk sizes, an op's own size rule), running the
/// shrunk graph checks: see runtime::verify.
class SizeShrinker {
public:
  /// Only the first `costed` graphs count towards a run's cost (all of them by default); the
  /// others' values constrain the plan (a rewrite's).
  explicit SizeShrinker(std::span<const Graph* const> graphs, size_t costed = SIZE_MAX);
  SizeShrinker(SizeShrinker&&) = default; // moves keep the indices' pointers valid; copies not
  SizeShrinker& operator=(SizeShrinker&&) = default;

  /// Changes, largest contribution first, until the estimated cost fits `budget` or nothing
  /// more can shrink; none when it fits already. `pinned` sizes keep their values.
  [[nodiscard]] std::vector<SizeChange> plan(const ShrinkBudget& budget,
                                             const std::set<int64_t>& pinned = {}) const;
  /// The estimated cost of a run with `changes`.
  [[nodiscard]] RunCost cost(std::span<const SizeChange> changes) const;
  /// The sizes that account for most of the bytes, with their bytes, largest first.
  [[nodiscard]] std::vector<std::pair<int64_t, uint64_t>> dominantSizes(size_t count) const;
  /// The sizes in `node`'s annotation, its size arguments and its tensor arguments'
  /// annotations: what a mismatch at `node` may be blamed on.
  [[nodiscard]] std::set<int64_t> sizesAt(const Node& node) const;

private:
  /// A value a run makes, its sizes as indices into sizes_ (in order) and what the other
  /// dimensions (0, 1) multiply by.
  struct Tensor {
    std::vector<uint32_t> dims;     ///< a size's index for each dimension that is one
    std::vector<uint32_t> distinct; ///< the same, each once
    double fixed = 1;
    uint64_t elementBytes = 0;
    bool view = false;
    bool computed = false; ///< made by a call (inputs and attributes cost memory, not time)
  };
  /// A matrix product: the tensor it makes and the size of the dimension it sums over.
  struct Work {
    size_t tensor;
    int64_t reduced;
  };
  /// Every size's value under `sigma`, by its index.
  [[nodiscard]] std::vector<double> scaled(const std::map<int64_t, int64_t>& sigma) const;
  /// A place along a dimension of size `extent`: the sum of `terms` (sizes, signed), counted
  /// from the end when `fromEnd` (a negative index).
  struct Position {
    bool fromEnd = false;
    std::vector<int64_t> terms;
    [[nodiscard]] int64_t at(int64_t extent, const std::map<int64_t, int64_t>& sigma) const;
    friend auto operator<=>(const Position&, const Position&) = default;
  };
  void addProducts(std::span<const int64_t> in, std::span<const int64_t> out);
  void addPositions(int64_t extent, std::span<const std::pair<std::string_view, int64_t>> bounds);
  using Product = std::pair<std::vector<int64_t>, std::vector<int64_t>>;
  /// Whether `sigma` keeps the relations, given that it keeps those not involving `changed`.
  [[nodiscard]] bool keepsRelations(const std::map<int64_t, int64_t>& sigma,
                                    std::span<const int64_t> changed) const;
  [[nodiscard]] RunCost costOf(const std::map<int64_t, int64_t>& sigma) const;
  /// The bytes of the tensors each size occurs in, at the sizes `sigma` gives, largest first.
  [[nodiscard]] std::vector<std::pair<int64_t, uint64_t>>
  contributions(const std::map<int64_t, int64_t>& sigma) const;

  std::vector<Tensor> tensors_;
  std::vector<Work> work_;
  std::set<int64_t> sizes_;       ///< every size of the graphs
  std::vector<int64_t> sizeList_; ///< the same, by index
  std::set<int64_t> values_;      ///< every integer of the graphs
  std::set<int64_t> pinned_;
  std::set<int64_t> thresholds_; ///< Scalar operands of comparisons and arithmetic
  /// Groups of dimensions a reshape maps onto each other: their products stay equal.
  std::set<Product> products_;
  std::map<int64_t, std::vector<const Product*>> productsOf_; ///< by the sizes they involve
  /// Per dimension size, the places slices, narrows, selects and splits index along it: their
  /// order is kept (a partial slice stays partial, two overlapping ones overlap).
  std::map<int64_t, std::set<Position>> positions_;
  std::map<int64_t, std::set<int64_t>> extentsOf_; ///< the extents whose places involve a value
};

/// The size arguments of `graph`'s calls that `changes` rewrite.
[[nodiscard]] std::vector<SizeEdit> sizeEdits(const Graph& graph,
                                              std::span<const SizeChange> changes);

/// A size after `changes` (itself when none applies; a negative one by its magnitude).
[[nodiscard]] int64_t changedSize(int64_t value, std::span<const SizeChange> changes);

/// The strides a tensor of `sizes` and `strides` has at `newSizes`: dense layouts stay dense in
/// the same order, a gap (a slice of a wider row) keeps its width, changed where it is itself a
/// size of `changes`. nullopt when the layout is neither (overlapping, or a gap the new sizes
/// would overrun).
[[nodiscard]] std::optional<std::vector<int64_t>>
changedStrides(std::span<const int64_t> sizes, std::span<const int64_t> strides,
               std::span<const int64_t> newSizes, std::span<const SizeChange> changes);

} // namespace declone
