// The layout of basic indexing, `x[(slice(None, 3, None), 0, None)]`, as applySlicing makes it.
#include "LayoutIndexing.h"

#include "StrideInference.h"

namespace declone::detail {

std::optional<SymExpr> intValue(const Arg& arg) {
  if (arg.kind == ArgKind::Int)
    return SymExpr::constant(arg.integer);
  if (arg.isNode() && arg.node()->type().kind == TypeAnnotation::Kind::Sym)
    return arg.node()->type().sym;
  return std::nullopt;
}

const Arg* argument(const Node& node, size_t index, std::string_view name) {
  return index < node.args().size() ? &node.args()[index] : node.kwarg(name);
}

std::optional<SymExpr> intArgument(const Node& node, size_t index, std::string_view name,
                                   std::optional<int64_t> fallback) {
  const Arg* arg = argument(node, index, name);
  if (!arg || arg->kind == ArgKind::None)
    return fallback ? std::optional<SymExpr>(SymExpr::constant(*fallback)) : std::nullopt;
  return intValue(*arg);
}

std::optional<std::vector<SymExpr>> intListArgument(const Node& node, size_t index,
                                                    std::string_view name) {
  const Arg* arg = argument(node, index, name);
  if (!arg || (arg->kind != ArgKind::List && arg->kind != ArgKind::Tuple))
    return std::nullopt;
  std::vector<SymExpr> out;
  for (const Arg& element : arg->children()) {
    std::optional<SymExpr> value = intValue(element);
    if (!value)
      return std::nullopt;
    out.push_back(*value);
  }
  return out;
}

std::optional<size_t> dimension(std::optional<SymExpr> dim, size_t rank) {
  std::optional<int64_t> d = dim ? dim->constantValue() : std::nullopt;
  if (!d)
    return std::nullopt;
  // PyTorch also wraps dim 0 and -1 of a 0-dim tensor, but there is no stride to work with.
  int64_t r = static_cast<int64_t>(rank);
  int64_t wrapped = *d < 0 ? *d + r : *d;
  if (wrapped < 0 || wrapped >= r)
    return std::nullopt;
  return static_cast<size_t>(wrapped);
}

namespace {

bool selectsOrSlices(const Arg& element) {
  return element.kind == ArgKind::Slice || intValue(element).has_value();
}

/// Where `select` starts in a dimension of `size` elements: Python's negative index counts from
/// the end. nullopt when it cannot be settled or is out of range (PyTorch raises).
std::optional<SymExpr> selectStart(SymContext& sym, SymExpr index, SymExpr size) {
  std::optional<int64_t> i = index.constantValue();
  std::optional<int64_t> n = size.constantValue();
  if (!i) // a dynamic int may be negative
    return atLeast(sym, index, 0) ? std::optional<SymExpr>(index) : std::nullopt;
  if (*i < 0) {
    if (!n || *i + *n < 0)
      return std::nullopt;
    return SymExpr::constant(*i + *n);
  }
  if (n && *i >= *n)
    return std::nullopt;
  return index;
}

/// Where `slice` starts: None is 0, a negative start counts from the end, and a start past
/// the end is clamped to it, as aten::slice does.
std::optional<SymExpr> sliceStart(SymContext& sym, const Arg& start, SymExpr size) {
  if (start.kind == ArgKind::None)
    return SymExpr::constant(0);
  std::optional<SymExpr> value = intValue(start);
  std::optional<int64_t> s = value ? value->constantValue() : std::nullopt;
  if (!s)
    return std::nullopt;
  std::optional<int64_t> n = size.constantValue();
  if (n)
    return SymExpr::constant(*s < 0 ? std::max<int64_t>(*s + *n, 0) : std::min(*s, *n));
  if (*s == 0)
    return SymExpr::constant(0);
  if (*s > 0 && atLeast(sym, size, *s)) // never clamped
    return SymExpr::constant(*s);
  return std::nullopt;
}

} // namespace

std::optional<IndexedLayout> indexedLayout(SymContext& sym, const Layout& input, const Arg& index,
                                           std::span<const SymExpr> resultSizes) {
  std::span<const Arg> elements =
      index.kind == ArgKind::Tuple ? index.children() : std::span<const Arg>(&index, 1);
  std::span<const SymExpr> sizes = input.sizes;
  size_t rank = sizes.size();
  size_t consumed = 0, selected = 0, inserted = 0; // input dims indexed, dropped; dims added
  for (const Arg& element : elements) {
    if (element.kind != ArgKind::None && !selectsOrSlices(element))
      return std::nullopt; // advanced indexing (a copy), a bool, Ellipsis: not modelled
    consumed += element.kind != ArgKind::None;
    selected += element.kind != ArgKind::None && element.kind != ArgKind::Slice;
    inserted += element.kind == ArgKind::None;
  }
  if (consumed > rank || resultSizes.size() != rank - selected + inserted)
    return std::nullopt;

  const std::optional<std::span<const SymExpr>>& inputStrides = input.strides;
  std::vector<SymExpr> strides;
  bool stridesKnown = inputStrides.has_value();
  std::optional<SymExpr> offset = input.storageOffset;
  // Moves the offset `start` elements into input dimension `d`.
  auto advance = [&](SymExpr start, size_t d) {
    if (start == SymExpr::constant(0) || !offset)
      return;
    if (!stridesKnown) {
      offset.reset();
      return;
    }
    offset = sym.add(*offset, sym.mul(start, (*inputStrides)[d]));
  };
  size_t d = 0; // the next input dimension; the result so far is `strides`, then d...rank-1
  for (const Arg& element : elements) {
    if (element.kind == ArgKind::None) {
      // unsqueeze at the current position, with at::unsqueeze's stride: the next dimension's
      // extent, or 1 at the end.
      if (stridesKnown)
        strides.push_back(d < rank ? sym.mul(sizes[d], (*inputStrides)[d]) : SymExpr::constant(1));
      continue;
    }
    if (element.kind == ArgKind::Slice) {
      std::span<const Arg> parts = element.children();
      std::optional<int64_t> step = parts[2].kind == ArgKind::None ? std::optional<int64_t>(1)
                                    : parts[2].kind == ArgKind::Int
                                        ? std::optional(parts[2].integer)
                                        : std::nullopt;
      if (!step || *step <= 0)
        return std::nullopt; // PyTorch raises for a step below 1
      std::optional<SymExpr> start = sliceStart(sym, parts[0], sizes[d]);
      if (!start)
        return std::nullopt;
      if (parts[1].kind != ArgKind::None && !intValue(parts[1]))
        return std::nullopt;
      advance(*start, d);
      if (stridesKnown)
        strides.push_back(sym.mul((*inputStrides)[d], SymExpr::constant(*step)));
      ++d;
      continue;
    }
    std::optional<SymExpr> start = selectStart(sym, *intValue(element), sizes[d]);
    if (!start)
      return std::nullopt;
    advance(*start, d);
    ++d;
  }
  IndexedLayout out;
  if (stridesKnown) {
    strides.insert(strides.end(), inputStrides->begin() + static_cast<std::ptrdiff_t>(d),
                   inputStrides->end());
    out.strides = std::move(strides);
  }
  out.storageOffset = offset;
  return out;
}

} // namespace declone::detail
