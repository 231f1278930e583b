// Private to the random-graph generator: its model of the values it has made (sizes, layouts,
// storages, which tensor object each is) and the op families, one file per family group.
#pragma once

#include "RandomGraph.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace declone::fuzz::detail {

using Shape = std::vector<int64_t>;

constexpr int64_t kMaxIndex = std::numeric_limits<int64_t>::max();

inline int64_t numel(const Shape& sizes) {
  return std::accumulate(sizes.begin(), sizes.end(), int64_t{1}, std::multiplies<>());
}

inline Shape rowMajor(const Shape& sizes) {
  Shape strides(sizes.size());
  int64_t stride = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= std::max<int64_t>(sizes[i], 1);
  }
  return strides;
}

/// PyTorch's is_contiguous: row-major, strides of size-1 dims ignored.
bool isContiguous(const Shape& sizes, const Shape& strides);
/// PyTorch's is_non_overlapping_and_dense.
bool isDense(const Shape& sizes, const Shape& strides);
/// Whether `from` broadcasts to exactly `to` (what an in-place operand or copy_ source needs).
bool broadcastsTo(const Shape& from, const Shape& to);
std::optional<Shape> broadcastShape(const Shape& a, const Shape& b);
std::string listText(const Shape& values);

struct Layout {
  Shape strides;
  int64_t offset = 0;
};

struct Value {
  std::string name;
  Shape sizes;
  /// Strides and storage offset, when the generator can tell them without running. The strides
  /// of size-1 dims are exact only when `exact` is set (a view's may differ, harmlessly).
  std::optional<Layout> layout;
  bool exact = false;
  size_t storage = 0;
  /// The tensor object (TensorImpl): in-place results and ops that return `self` are the same
  /// object under another name, so an in-place metadata op (t_, resize_, set_) changes them all.
  size_t impl = 0;
  bool complex = false; ///< c64 rather than f32
  /// The conjugate and negative bits (_conj, _neg_view, and views of such tensors).
  bool conj = false, neg = false;
  /// Some element is reachable through two indices (expand): never a write destination.
  bool overlapping = false;
  /// For a clone: the value it copies.
  std::optional<size_t> cloneOf;
  /// The clone this value is, views or aliases (in-place results) of.
  std::optional<size_t> cloneRoot;
  bool placeholder = false;
  bool clonedFrom = false; ///< some clone copies this value
  bool viewOfClone = false;
  bool used = false; ///< some statement reads or writes it
  /// No later statement may pick it: its storage was written by a functionalized call whose
  /// results stand for it from then on (RandomFunctional.cpp).
  bool retired = false;
  /// The value holds what a functionalized call wrote into placeholder N (or into an earlier
  /// such value): what an AOTAutograd-style `copy_(argN, value)` writes back.
  std::optional<size_t> inputVersionOf;
  /// What the value looked like when its node ran (what annotateFromExecution records), before
  /// any in-place metadata op changed it.
  Shape producedSizes;
  std::optional<Layout> producedLayout;
  bool producedExact = false;
};

struct Storage {
  /// Elements of a storage this graph allocated densely; unknown for graph inputs.
  std::optional<int64_t> elements;
  bool complex = false; ///< elements are c64 (what as_strided counts in)
};

class Generator {
public:
  Generator(uint64_t seed, const RandomGraphOptions& options) : rng_(seed), options_(options) {}

  std::string run();
  /// Every tensor value with the sizes and (where known) layout the generator predicts.
  [[nodiscard]] const std::vector<Value>& values() const { return values_; }

private:
  // Names as FX gives them: the op's name, then `_1`, `_2`, ...; builtins start at `_1`.
  std::string fresh(const std::string& base) {
    size_t count = names_[base]++;
    if (base == "slice" && count == 0)
      count = names_[base]++;
    return count == 0 ? base : base + "_" + std::to_string(count);
  }
  void emit(const std::string& name, const std::string& rhs);
  size_t addValue(Value value);
  size_t newStorage(std::optional<int64_t> elements, bool complex = false) {
    storages_.push_back({elements, complex});
    return storages_.size() - 1;
  }
  /// A value computed into fresh memory; its strides are known (row-major) when all tensor
  /// operands are canonical().
  Value freshValue(const std::string& name, const Shape& sizes, bool rowMajorResult,
                   bool complex = false);
  /// PyTorch's is_contiguous: what `view` needs.
  bool contiguous(size_t v) const {
    const Value& value = values_[v];
    return value.layout && isContiguous(value.sizes, value.layout->strides);
  }
  /// Exactly the strides of torch.empty(sizes), size-1 dims included. Elementwise results of
  /// such operands (broadcast or not) have them too; merely contiguous operands whose size-1
  /// dims have other strides can give permuted results.
  bool canonical(size_t v) const {
    const Value& value = values_[v];
    return value.layout && value.exact && value.layout->strides == rowMajor(value.sizes) &&
           !value.conj && !value.neg;
  }
  /// A view of `base` with the given sizes and (when known) layout.
  size_t addView(size_t base, const std::string& name, Shape sizes, std::optional<Layout> layout,
                 bool overlapping = false);
  /// An in-place or out= result, or an op returning `self`: the same tensor as `destination`,
  /// under a new name.
  size_t addAlias(size_t destination, const std::string& name);
  /// Corrects whether a value just made has exact strides (also as its node made it).
  void setExact(size_t v, bool exact) { values_[v].exact = values_[v].producedExact = exact; }
  /// An in-place metadata op changed tensor `v` (and so every name of its TensorImpl).
  void relayout(size_t v, const Shape& sizes, std::optional<Layout> layout, bool exact);

  /// A value satisfying `accept`, drawn with `weight`; nullopt when none qualifies.
  template <class Accept, class Weight>
  std::optional<size_t> pick(Accept&& accept, Weight&& weight) {
    std::vector<std::pair<size_t, unsigned>> candidates;
    unsigned total = 0;
    for (size_t v = 0; v < values_.size(); ++v) {
      if (values_[v].retired || !accept(v))
        continue;
      unsigned w = weight(v);
      if (w == 0)
        continue;
      candidates.emplace_back(v, w);
      total += w;
    }
    if (total == 0)
      return std::nullopt;
    size_t draw = rng_.below(total);
    for (auto [v, w] : candidates) {
      if (draw < w)
        return v;
      draw -= w;
    }
    return std::nullopt;
  }
  /// Reads favour clones, their sources, views of both, and recent values.
  unsigned readWeight(size_t v) const;
  /// Writes favour clones and their views, then sources of clones.
  unsigned writeWeight(size_t v) const;
  std::optional<size_t> pickRead() {
    return pick([](size_t) { return true; }, [&](size_t v) { return readWeight(v); });
  }
  std::optional<size_t> pickRealRead() {
    return pick([&](size_t v) { return !values_[v].complex; },
                [&](size_t v) { return readWeight(v); });
  }
  std::optional<size_t> pickWritable() {
    return pick([&](size_t v) { return !values_[v].overlapping; },
                [&](size_t v) { return writeWeight(v); });
  }
  /// An operand that broadcasts to `shape` and lives in another storage than `avoid` (PyTorch
  /// rejects partial overlap between what an op writes and what it reads); real unless `avoid`
  /// is complex (a complex value cannot be written into a real one).
  std::optional<size_t> pickOperandFor(const Shape& shape, size_t avoid) {
    return pick(
        [&](size_t v) {
          return values_[v].storage != values_[avoid].storage &&
                 broadcastsTo(values_[v].sizes, shape) &&
                 (!values_[v].complex || values_[avoid].complex);
        },
        [&](size_t v) { return readWeight(v) + (values_[v].sizes == shape ? 4 : 0); });
  }
  std::string scalarText() {
    static const char* const kScalars[] = {"1", "2", "-1", "0.5", "3", "-2"};
    return kScalars[rng_.below(std::size(kScalars))];
  }
  /// A dim as printed: mostly as is, sometimes counted from the end (`-1`), as PyTorch allows.
  std::string dimText(size_t dim, size_t rank) {
    return std::to_string(rng_.chance(0.25) ? static_cast<int64_t>(dim) - static_cast<int64_t>(rank)
                                            : static_cast<int64_t>(dim));
  }

  void addPlaceholders();
  void addAttributes();
  Shape variantOfMain();
  bool genClone(std::optional<size_t> forced = std::nullopt);
  bool genUnary();
  bool genBinary();
  // RandomWrites.cpp
  bool genInPlace();
  bool genCopy();
  bool genOut();
  bool genAutoFunctionalized();
  bool genFunctionalizedMultiReturn();
  bool genMetadataInPlace();
  bool genUndeclaredWrite();
  // RandomFunctional.cpp
  bool genDefunctionalizationCase();
  std::optional<size_t> pickFunctionalTarget(bool allowView);
  std::optional<size_t> functionalView(size_t base);
  void afterFunctionalCall(size_t target, std::optional<size_t> result);
  std::string genWriteBacks();
  // RandomViews.cpp
  bool genView();
  bool genSplit(bool unsafe = false);
  bool genTensorIndex();
  bool genSizeQuery();
  bool genAliasingOp();
  bool genMathBit();
  std::string genReturn();

  Random rng_;
  RandomGraphOptions options_;
  Shape main_;
  std::vector<Value> values_;
  std::vector<Storage> storages_;
  std::vector<std::string> parameters_;
  std::map<std::string, size_t> names_;
  std::map<std::string, size_t> byName_;
  std::string body_;
  size_t statements_ = 0;
  size_t impls_ = 0;
  std::vector<size_t> clones_;
  std::vector<size_t> writes_; ///< in-place and out= results
  /// The defunctionalization family's outputs, in the return after the others (duplicates
  /// allowed: a result returned twice).
  std::vector<size_t> forcedOutputs_;
  /// Placeholder index -> its latest functionalized version, written back at the end.
  std::map<size_t, size_t> writeBacks_;
  /// Results of functionalized calls, for chains of calls on each other's results.
  std::vector<size_t> functionalResults_;
};

} // namespace declone::fuzz::detail
