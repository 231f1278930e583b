// The one table of view ops: for each, the strides of its result and where it starts, as
// PyTorch's view kernels (and FakeTensor's meta functions) make them.
#include "ViewRules.h"

#include "LayoutIndexing.h"

#include <algorithm>

namespace declone::detail {
namespace {

using Strides = std::vector<SymExpr>;

/// The first argument's layout, when its strides are known.
const Layout* viewed(const ViewCall& call) {
  return knownInput(call.node, 0, call.layouts);
}

std::optional<Strides> strideArgument(const ViewCall& call, size_t index) {
  return intListArgument(call.node, index, "stride");
}

/// as_strided, as_strided_ and _reshape_alias: the strides they are given.
std::optional<Strides> givenStrides(const ViewCall& call) {
  return strideArgument(call, 2);
}

std::optional<Strides> emptyStridedStrides(const ViewCall& call) {
  return strideArgument(call, 1);
}

/// alias, detach, lift_fresh, narrow: the input's.
std::optional<Strides> sameStrides(const ViewCall& call) {
  const Layout* input = viewed(call);
  if (!input)
    return std::nullopt;
  return Strides(input->strides->begin(), input->strides->end());
}

std::optional<Strides> permuteStrides(const ViewCall& call) {
  const Layout* input = viewed(call);
  if (!input)
    return std::nullopt;
  std::span<const SymExpr> in = *input->strides;
  const size_t rank = input->sizes.size();
  std::optional<Strides> dims = intListArgument(call.node, 1, "dims");
  if (!dims || dims->size() != rank)
    return std::nullopt;
  Strides out;
  for (const SymExpr& dim : *dims) {
    std::optional<size_t> d = dimension(dim, rank);
    if (!d)
      return std::nullopt;
    out.push_back(in[*d]);
  }
  return out;
}

/// transpose, swapaxes, swapdims, t.
std::optional<Strides> transposeStrides(const ViewCall& call) {
  const Layout* input = viewed(call);
  if (!input)
    return std::nullopt;
  std::span<const SymExpr> in = *input->strides;
  const size_t rank = input->sizes.size();
  bool t = call.node.target()->opName == "t";
  Strides out(in.begin(), in.end());
  if (t && rank < 2)
    return out;
  std::optional<size_t> a = t ? 0 : dimension(intArgument(call.node, 1, "dim0", {}), rank);
  std::optional<size_t> b = t ? 1 : dimension(intArgument(call.node, 2, "dim1", {}), rank);
  if (!a || !b)
    return std::nullopt;
  std::swap(out[*a], out[*b]);
  return out;
}

/// expand, expand_as.
std::optional<Strides> expandStrides(const ViewCall& call) {
  const Layout* input = viewed(call);
  if (!input)
    return std::nullopt;
  std::span<const SymExpr> in = *input->strides;
  std::span<const SymExpr> sizes = call.sizes;
  const size_t rank = input->sizes.size();
  if (sizes.size() < rank)
    return std::nullopt;
  size_t offset = sizes.size() - rank;
  Strides out(sizes.size());
  for (size_t i = 0; i < rank; ++i) {
    if (input->sizes[i] == sizes[offset + i])
      out[offset + i] = in[i];
    else if (input->sizes[i] == SymExpr::constant(1))
      out[offset + i] = SymExpr::constant(0);
    else
      return std::nullopt;
  }
  // inferExpandGeometry: a new leading dimension of size 1 gets the stride a contiguous
  // dimension there would have; of any other size, 0.
  for (size_t i = offset; i-- > 0;) {
    if (sizes[i] != SymExpr::constant(1))
      out[i] = SymExpr::constant(0);
    else
      out[i] = i + 1 < sizes.size() ? call.sym.mul(sizes[i + 1], out[i + 1]) : SymExpr::constant(1);
  }
  return out;
}

std::optional<Strides> unsqueezeStrides(const ViewCall& call) {
  const Layout* input = viewed(call);
  if (!input)
    return std::nullopt;
  std::span<const SymExpr> in = *input->strides;
  const size_t rank = input->sizes.size();
  std::optional<size_t> d = dimension(intArgument(call.node, 1, "dim", {}), rank + 1);
  if (!d)
    return std::nullopt;
  Strides out(in.begin(), in.end());
  SymExpr stride = *d >= rank ? SymExpr::constant(1) : call.sym.mul(input->sizes[*d], in[*d]);
  out.insert(out.begin() + static_cast<std::ptrdiff_t>(*d), stride);
  return out;
}

std::optional<Strides> selectStrides(const ViewCall& call) {
  const Layout* input = viewed(call);
  if (!input)
    return std::nullopt;
  std::span<const SymExpr> in = *input->strides;
  const size_t rank = input->sizes.size();
  std::optional<size_t> d = dimension(intArgument(call.node, 1, "dim", {}), rank);
  if (!d || rank == 0)
    return std::nullopt;
  Strides out(in.begin(), in.end());
  out.erase(out.begin() + static_cast<std::ptrdiff_t>(*d));
  return out;
}

std::optional<Strides> sliceStrides(const ViewCall& call) {
  const Layout* input = viewed(call);
  if (!input)
    return std::nullopt;
  std::span<const SymExpr> in = *input->strides;
  std::optional<size_t> d = dimension(intArgument(call.node, 1, "dim", 0), input->sizes.size());
  std::optional<SymExpr> step = intArgument(call.node, 4, "step", 1);
  if (!d || !step)
    return std::nullopt;
  Strides out(in.begin(), in.end());
  out[*d] = call.sym.mul(out[*d], *step);
  return out;
}

std::optional<Strides> squeezeStrides(const ViewCall& call) {
  const Layout* input = viewed(call);
  if (!input)
    return std::nullopt;
  std::span<const SymExpr> in = *input->strides;
  const size_t rank = input->sizes.size();
  const Target& target = *call.node.target();
  // The dimensions named (all for squeeze.default) go where their size is 1; a symbolic size
  // might be 1, so it leaves the result unknown.
  std::vector<bool> named(rank, target.overload.empty() || target.overload == "default");
  if (!named.empty() && !named[0]) {
    std::optional<Strides> dims;
    if (target.overload == "dims")
      dims = intListArgument(call.node, 1, "dim");
    else if (std::optional<SymExpr> dim = intArgument(call.node, 1, "dim", {}))
      dims = Strides{*dim};
    if (!dims)
      return std::nullopt;
    for (const SymExpr& dim : *dims) {
      std::optional<size_t> d = dimension(dim, rank);
      if (!d)
        return std::nullopt;
      named[*d] = true;
    }
  }
  Strides out;
  for (size_t i = 0; i < rank; ++i) {
    // A backed symbolic size is at least 2: never squeezed.
    bool one = input->sizes[i] == SymExpr::constant(1);
    if (named[i] && !one && !atLeast(call.sym, input->sizes[i], 2))
      return std::nullopt;
    if (!named[i] || !one)
      out.push_back(in[i]);
  }
  return out;
}

/// view, _unsafe_view, view_as, unflatten: computeStride's strides (view fails without them).
std::optional<Strides> viewStridesRule(const ViewCall& call) {
  const Layout* input = viewed(call);
  if (!input)
    return std::nullopt;
  return viewStrides(call.sym, input->sizes, *input->strides, call.sizes).strides;
}

/// reshape, flatten: a view where one exists, else a contiguous copy.
std::optional<Strides> reshapeStrides(const ViewCall& call) {
  const Layout* input = viewed(call);
  if (!input)
    return std::nullopt;
  ViewStrides view = viewStrides(call.sym, input->sizes, *input->strides, call.sizes);
  if (view.strides)
    return std::move(view.strides);
  if (view.copies)
    return contiguousStrides(call.sym, call.sizes);
  return std::nullopt;
}

std::optional<Strides> contiguousRule(const ViewCall& call) {
  const Layout* input = viewed(call);
  if (!input)
    return std::nullopt;
  std::span<const SymExpr> in = *input->strides;
  const size_t rank = input->sizes.size();
  std::optional<MemoryFormat> format = memoryFormatArgument(call.node, MemoryFormat::Contiguous);
  if (!format || *format == MemoryFormat::Preserve)
    return std::nullopt;
  std::optional<std::vector<size_t>> order = formatOrder(*format, rank);
  if (!order || call.sizes.size() != rank)
    return std::nullopt;
  std::optional<bool> already = denseInOrder(call.sym, input->sizes, in, *order);
  if (!already)
    return std::nullopt;
  return *already ? Strides(in.begin(), in.end()) : stridesInOrder(call.sym, call.sizes, *order);
}

/// An absent or None storage_offset keeps the input's; one that cannot be read is unknown.
std::optional<SymExpr> asStridedOffset(const ViewCall& call, const Layout& input) {
  const Arg* offset = argument(call.node, 3, "storage_offset");
  if (!offset || offset->kind == ArgKind::None)
    return input.storageOffset;
  return intArgument(call.node, 3, "storage_offset", std::nullopt);
}

/// The offset of a view that starts `start` elements into dimension `dim` of `input`.
/// `clampsPastEnd`: a start past the end is clamped to it (slice; select and narrow raise).
std::optional<SymExpr> startAlong(const ViewCall& call, const Layout& input,
                                  std::optional<SymExpr> dim, std::optional<SymExpr> start,
                                  bool clampsPastEnd) {
  std::optional<size_t> d = dimension(dim, input.sizes.size());
  if (!d || !start)
    return std::nullopt;
  SymContext& sym = call.sym;
  SymExpr base = *input.storageOffset;
  SymExpr size = input.sizes[*d];
  std::optional<int64_t> constantStart = start->constantValue();
  if (constantStart && *constantStart < 0) { // Python-style negative index, clamped as slice does
    std::optional<int64_t> constantSize = size.constantValue();
    if (!constantSize)
      return std::nullopt;
    start = SymExpr::constant(std::max<int64_t>(*constantStart + *constantSize, 0));
  } else if (!atLeast(sym, *start, 0)) {
    return std::nullopt; // a dynamic int may be negative, and then counts from the end
  } else if (clampsPastEnd) {
    std::optional<int> sign = compareSizes(sym, size, *start);
    if (!sign)
      return std::nullopt;
    if (*sign < 0)
      start = size;
  }
  if (*start == SymExpr::constant(0))
    return base;
  if (!input.strides)
    return std::nullopt;
  return sym.add(base, sym.mul(*start, (*input.strides)[*d]));
}

std::optional<SymExpr> sliceOffset(const ViewCall& call, const Layout& input) {
  return startAlong(call, input, intArgument(call.node, 1, "dim", 0),
                    intArgument(call.node, 2, "start", 0), true);
}

std::optional<SymExpr> selectOffset(const ViewCall& call, const Layout& input) {
  return startAlong(call, input, intArgument(call.node, 1, "dim", std::nullopt),
                    intArgument(call.node, 2, "index", std::nullopt), false);
}

std::optional<SymExpr> narrowOffset(const ViewCall& call, const Layout& input) {
  return startAlong(call, input, intArgument(call.node, 1, "dim", std::nullopt),
                    intArgument(call.node, 2, "start", std::nullopt), false);
}

/// diagonal starts `offset` elements along dim2 (dim1 for a negative offset).
std::optional<SymExpr> diagonalOffset(const ViewCall& call, const Layout& input) {
  std::optional<SymExpr> offset = intArgument(call.node, 1, "offset", 0);
  if (!offset || !offset->constantValue())
    return std::nullopt;
  int64_t along = *offset->constantValue();
  std::optional<SymExpr> dim =
      along >= 0 ? intArgument(call.node, 3, "dim2", 1) : intArgument(call.node, 2, "dim1", 0);
  return startAlong(call, input, dim, SymExpr::constant(along >= 0 ? along : -along), false);
}

using S = ViewStart;
/// Sorted by name (viewRule looks names up by binary search).
constexpr ViewRule kViewRules[] = {
    {"_conj", S::Same, nullptr, nullptr},
    {"_neg_view", S::Same, nullptr, nullptr},
    {"_reshape_alias", S::Same, givenStrides, nullptr},
    // A new tensor by its schema; the override table relates it to its argument.
    {"_unsafe_view", S::Unknown, viewStridesRule, nullptr},
    {"adjoint", S::Same, nullptr, nullptr},
    {"alias", S::Same, sameStrides, nullptr},
    {"as_strided", S::Computed, givenStrides, asStridedOffset},
    {"as_strided_", S::Unknown, givenStrides, nullptr},
    {"conj", S::Same, nullptr, nullptr},
    {"contiguous", S::SameIfZero, contiguousRule, nullptr},
    {"detach", S::Same, sameStrides, nullptr},
    {"diagonal", S::Computed, nullptr, diagonalOffset},
    {"empty_strided", S::Unknown, emptyStridedStrides, nullptr},
    {"expand", S::Same, expandStrides, nullptr},
    {"expand_as", S::Same, expandStrides, nullptr},
    {"flatten", S::SameIfZero, reshapeStrides, nullptr},
    {"lift_fresh", S::Unknown, sameStrides, nullptr},
    {"mH", S::Same, nullptr, nullptr},
    {"mT", S::Same, nullptr, nullptr},
    {"movedim", S::Same, nullptr, nullptr},
    {"narrow", S::Computed, sameStrides, narrowOffset},
    {"numpy_T", S::Same, nullptr, nullptr},
    {"permute", S::Same, permuteStrides, nullptr},
    {"positive", S::Same, nullptr, nullptr},
    {"reshape", S::SameIfZero, reshapeStrides, nullptr},
    {"resolve_conj", S::SameIfZero, nullptr, nullptr},
    {"resolve_neg", S::SameIfZero, nullptr, nullptr},
    {"select", S::Computed, selectStrides, selectOffset},
    {"slice", S::Computed, sliceStrides, sliceOffset},
    {"squeeze", S::Same, squeezeStrides, nullptr},
    {"swapaxes", S::Same, transposeStrides, nullptr},
    {"swapdims", S::Same, transposeStrides, nullptr},
    {"t", S::Same, transposeStrides, nullptr},
    {"transpose", S::Same, transposeStrides, nullptr},
    {"unflatten", S::SameIfZero, viewStridesRule, nullptr},
    {"unfold", S::Same, nullptr, nullptr},
    {"unsqueeze", S::Same, unsqueezeStrides, nullptr},
    {"view", S::Same, viewStridesRule, nullptr},
    {"view_as", S::Same, viewStridesRule, nullptr},
    {"view_as_complex", S::Same, nullptr, nullptr},
    {"view_as_real", S::Same, nullptr, nullptr},
};

constexpr bool sortedByName() {
  for (size_t i = 1; i < std::size(kViewRules); ++i)
    if (!(kViewRules[i - 1].name < kViewRules[i].name))
      return false;
  return true;
}
static_assert(sortedByName(), "viewRule looks names up by binary search");

} // namespace

const ViewRule* viewRule(const Target& target) {
  if (target.kind != Target::Kind::Op)
    return nullptr;
  bool primsAsStrided = target.opNamespace == "prims" && target.opName == "as_strided";
  if (target.opNamespace != "aten" && !primsAsStrided)
    return nullptr;
  const ViewRule* end = std::end(kViewRules);
  const ViewRule* found = std::lower_bound(
      std::begin(kViewRules), end, target.opName,
      [](const ViewRule& rule, std::string_view name) { return rule.name < name; });
  return found != end && found->name == target.opName ? found : nullptr;
}

std::optional<SymExpr> viewOffset(const ViewRule& rule, const ViewCall& call, const Layout& input) {
  switch (rule.start) {
  case ViewStart::Same:
    return input.storageOffset;
  case ViewStart::SameIfZero:
    return input.storageOffset == SymExpr::constant(0) ? input.storageOffset : std::nullopt;
  case ViewStart::Computed:
    return rule.offset(call, input);
  case ViewStart::Unknown:
    break;
  }
  return std::nullopt;
}

} // namespace declone::detail
