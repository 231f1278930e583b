// The element geometry of strided layouts, for the defunctionalization rules.
#include "CopyGeometry.h"

#include <algorithm>
#include <numeric>
#include <vector>

namespace declone::detail {
namespace {

/// A layout's offset and its dimensions of size other than one: sizes (nullopt where
/// symbolic) and strides, which must be static.
struct Extent {
  int64_t offset = 0;
  std::vector<std::pair<std::optional<int64_t>, int64_t>> dims;
  bool empty = false;
  [[nodiscard]] bool sizesStatic() const {
    return std::all_of(dims.begin(), dims.end(), [](const auto& dim) { return dim.first; });
  }
  /// The last element's address; all sizes static.
  [[nodiscard]] int64_t last() const {
    int64_t end = offset;
    for (auto [size, stride] : dims)
      end += (*size - 1) * stride;
    return end;
  }
};

std::optional<Extent> extentOf(std::span<const SymExpr> sizes, std::span<const SymExpr> strides,
                               SymExpr storageOffset) {
  Extent extent;
  std::optional<int64_t> offset = storageOffset.constantValue();
  if (!offset || sizes.size() != strides.size())
    return std::nullopt;
  extent.offset = *offset;
  for (size_t i = 0; i < sizes.size(); ++i) {
    std::optional<int64_t> size = sizes[i].constantValue();
    std::optional<int64_t> stride = strides[i].constantValue();
    if (!stride || *stride < 0 || (size && *size < 0))
      return std::nullopt;
    if (size == 0)
      extent.empty = true;
    if (size != 1)
      extent.dims.emplace_back(size, *stride);
  }
  return extent;
}

std::optional<Extent> extentOf(const Layout* layout) {
  if (!layout || !layout->strides || !layout->storageOffset || layout->changedInPlaceBy)
    return std::nullopt;
  return extentOf(layout->sizes, *layout->strides, *layout->storageOffset);
}

/// The byte range [first, end) of a non-overlapping, dense layout with static sizes.
std::optional<std::pair<int64_t, int64_t>> denseBytes(const Layout* layout) {
  std::optional<Extent> extent = extentOf(layout);
  if (!extent || extent->empty || !extent->sizesStatic())
    return std::nullopt;
  std::vector<std::pair<int64_t, int64_t>> dims;
  for (auto [size, stride] : extent->dims)
    dims.emplace_back(stride, *size);
  std::sort(dims.begin(), dims.end());
  int64_t expected = 1;
  for (auto [stride, size] : dims) {
    if (stride != expected)
      return std::nullopt;
    expected *= size;
  }
  int64_t item = elementSize(layout->dtype);
  return std::pair(extent->offset * item, (extent->offset + expected) * item);
}

} // namespace

std::optional<uint64_t> copyBytes(const Layout* layout) {
  if (!layout)
    return std::nullopt;
  std::optional<Extent> extent = extentOf(layout);
  if (extent && extent->empty)
    return 0;
  if (extent && extent->sizesStatic())
    return static_cast<uint64_t>(extent->last() + 1) * elementSize(layout->dtype);
  uint64_t elements = 1;
  for (SymExpr size : layout->sizes) {
    std::optional<int64_t> constant = size.constantValue();
    if (!constant || *constant < 0)
      return std::nullopt;
    elements *= static_cast<uint64_t>(*constant);
  }
  return elements * elementSize(layout->dtype);
}

bool provablyDisjoint(const Layout* a, const Layout* b) {
  std::optional<Extent> x = extentOf(a), y = extentOf(b);
  if (!x || !y || a->dtype != b->dtype)
    return false;
  if (x->empty || y->empty)
    return true;
  if (x->sizesStatic() && y->sizesStatic() && (x->last() < y->offset || y->last() < x->offset))
    return true;
  // Each address is a multiple of M plus a residue that only the innermost dimension (smallest
  // stride, static size) moves, when every other stride of both is a multiple of M: disjoint
  // runs of residues, below M, are disjoint addresses.
  auto inner = [](const Extent& e) {
    return std::min_element(e.dims.begin(), e.dims.end(),
                            [](const auto& p, const auto& q) { return p.second < q.second; });
  };
  auto xi = inner(*x), yi = inner(*y);
  int64_t modulus = 0;
  for (const auto& [extent, innermost] : {std::pair(&*x, xi), std::pair(&*y, yi)})
    for (auto it = extent->dims.begin(); it != extent->dims.end(); ++it)
      if (it != innermost)
        modulus = std::gcd(modulus, it->second);
  if (modulus <= 0)
    return false;
  auto residues = [&](const Extent& e, auto it) -> std::optional<std::pair<int64_t, int64_t>> {
    if (it != e.dims.end() && !it->first)
      return std::nullopt;
    int64_t start = e.offset % modulus;
    int64_t end = start + (it == e.dims.end() ? 0 : (*it->first - 1) * it->second);
    if (end >= modulus)
      return std::nullopt;
    return std::pair(start, end);
  };
  auto rx = residues(*x, xi), ry = residues(*y, yi);
  return rx && ry && (rx->second < ry->first || ry->second < rx->first);
}

bool withinBase(const Layout* base, std::span<const SymExpr> sizes,
                std::span<const SymExpr> strides, SymExpr offset) {
  std::optional<Extent> view = extentOf(sizes, strides, offset);
  if (!view)
    return false;
  if (view->empty)
    return true;
  // Dense and non-overlapping: the base's elements are every address of its range.
  std::optional<std::pair<int64_t, int64_t>> bytes = denseBytes(base);
  if (!bytes || !view->sizesStatic())
    return false;
  int64_t item = elementSize(base->dtype);
  return view->offset * item >= bytes->first && (view->last() + 1) * item <= bytes->second;
}

bool sameBytes(const Layout* a, const Layout* b) {
  std::optional<std::pair<int64_t, int64_t>> x = denseBytes(a), y = denseBytes(b);
  return x && y && *x == *y;
}

bool sameView(const Layout* a, const Layout* b) {
  std::optional<Extent> x = extentOf(a), y = extentOf(b);
  return x && y && a->dtype == b->dtype && x->offset == y->offset && x->dims == y->dims &&
         x->empty == y->empty;
}

namespace {

/// An integer argument of a call by position or name: its value, `fallback` when absent or
/// None, nullopt when it is not a literal.
std::optional<int64_t> literalArgument(const Node* node, size_t index, std::string_view name,
                                       std::optional<int64_t> fallback) {
  const Arg* arg = index < node->args().size() ? &node->args()[index] : node->kwarg(name);
  if (!arg || arg->kind == ArgKind::None)
    return fallback;
  if (arg->kind != ArgKind::Int)
    return std::nullopt;
  return arg->integer;
}

} // namespace

bool isScatteredRegion(const Node* step, const Layout* base, const Layout* view) {
  if (!base || !view || !base->strides || !view->strides || !base->storageOffset ||
      !view->storageOffset || base->changedInPlaceBy || view->changedInPlaceBy ||
      base->sizes.size() != view->sizes.size())
    return false;
  std::optional<int64_t> dim = literalArgument(step, 2, "dim", 0);
  std::optional<int64_t> start = literalArgument(step, 3, "start", 0);
  std::optional<int64_t> end = literalArgument(step, 4, "end", INT64_MAX);
  std::optional<int64_t> stride = literalArgument(step, 5, "step", 1);
  int64_t rank = static_cast<int64_t>(base->sizes.size());
  if (!dim || !start || !end || stride != 1 || *dim < -rank || *dim >= rank)
    return false;
  size_t d = static_cast<size_t>(*dim < 0 ? *dim + rank : *dim);
  std::optional<int64_t> size = base->sizes[d].constantValue();
  std::optional<int64_t> offset = base->storageOffset->constantValue();
  std::optional<int64_t> viewOffset = view->storageOffset->constantValue();
  std::optional<int64_t> dimStride = (*base->strides)[d].constantValue();
  if (!size || !offset || !viewOffset || !dimStride)
    return false;
  auto clamp = [&](int64_t index) {
    return std::clamp<int64_t>(index < 0 ? index + *size : index, 0, *size);
  };
  int64_t first = clamp(*start), last = std::max(first, clamp(*end));
  if (*viewOffset != *offset + first * *dimStride)
    return false;
  // Sizes equal (symbolic ones as expressions), strides equal where a dimension has more than
  // one element.
  for (size_t i = 0; i < base->sizes.size(); ++i) {
    SymExpr expected = i == d ? SymExpr::constant(last - first) : base->sizes[i];
    if (!(expected == view->sizes[i]))
      return false;
    if (view->sizes[i].constantValue() != 1 && (*base->strides)[i] != (*view->strides)[i])
      return false;
  }
  return true;
}

} // namespace declone::detail
