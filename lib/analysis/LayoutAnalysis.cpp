// Layout inference: one walk in program order; annotations first, then the view rules, the
// clone memory formats, the stride rules and the oracle.
#include "declone/analysis/LayoutAnalysis.h"

#include "LayoutIndexing.h"
#include "LayoutMetadata.h"
#include "OracleCall.h"
#include "StrideInference.h"
#include "ViewRules.h"
#include "declone/analysis/OpModel.h"

#include <algorithm>
#include <numeric>
#include <unordered_set>

namespace declone {
namespace {

/// PyTorch's infer_dense_strides (TensorIterator's permutation rule; FakeTensor's
/// compute_elementwise_output_strides for symbolic sizes), where the strides order is decided.
std::optional<std::vector<SymExpr>> inferDenseStrides(SymContext& sym,
                                                      std::span<const SymExpr> sizes,
                                                      std::span<const SymExpr> strides) {
  const std::vector<SymExpr> single(strides.begin(), strides.end());
  std::optional<std::vector<size_t>> perm = detail::stridesOrder(sym, sizes, std::span(&single, 1));
  if (!perm)
    return std::nullopt;
  return detail::stridesInOrder(sym, sizes, *perm);
}

} // namespace

std::optional<bool> LayoutAnalysis::isNonOverlappingAndDense(SymContext& sym,
                                                             std::span<const SymExpr> sizes,
                                                             std::span<const SymExpr> strides) {
  // Dimensions of size 0 or 1 do not matter; backed symbolic sizes are at least 2, as PyTorch
  // specializes 0 and 1, but an unbacked one may be either.
  std::vector<size_t> remaining;
  bool mayBeOne = false;
  for (size_t i = 0; i < sizes.size(); ++i) {
    std::optional<int64_t> size = sizes[i].constantValue();
    mayBeOne = mayBeOne || (!size && !detail::atLeast(sym, sizes[i], 2));
    if (!size || *size >= 2)
      remaining.push_back(i);
  }
  if (mayBeOne) // exactly contiguous strides are dense whatever the sizes
    return detail::exactlyContiguous(sym, sizes, strides) ? std::optional<bool>(true)
                                                          : std::nullopt;
  SymExpr required = SymExpr::constant(1);
  while (!remaining.empty()) {
    auto next = std::find_if(remaining.begin(), remaining.end(),
                             [&](size_t dim) { return strides[dim] == required; });
    if (next == remaining.end()) {
      // Not dense when no stride can be the one required, whatever the sizes.
      bool noneCanBe = std::all_of(remaining.begin(), remaining.end(), [&](size_t dim) {
        std::optional<int> sign = detail::compareSizes(sym, strides[dim], required);
        return sign && *sign != 0;
      });
      if (noneCanBe)
        return false;
      return std::nullopt;
    }
    required = sym.mul(required, sizes[*next]);
    remaining.erase(next);
  }
  return true;
}

std::optional<std::vector<SymExpr>>
LayoutAnalysis::cloneStrides(SymContext& sym, const Layout& input, MemoryFormat format) {
  std::span<const SymExpr> sizes = input.sizes;
  if (format != MemoryFormat::Preserve)
    return detail::formatStrides(sym, sizes, format);
  if (!input.strides)
    return std::nullopt;
  // Without elements eager's empty_like follows the strides order and FakeTensor's clone
  // keeps the strides: only exactly contiguous ones are decided.
  bool mayBeEmpty = !std::all_of(sizes.begin(), sizes.end(),
                                 [&](SymExpr size) { return detail::atLeast(sym, size, 1); });
  if (mayBeEmpty && !detail::exactlyContiguous(sym, sizes, *input.strides))
    return std::nullopt;
  std::optional<bool> dense = isNonOverlappingAndDense(sym, sizes, *input.strides);
  if (!dense)
    return std::nullopt;
  if (*dense)
    return std::vector<SymExpr>(input.strides->begin(), input.strides->end());
  return inferDenseStrides(sym, sizes, *input.strides);
}

/// The walk behind LayoutAnalysis: every value's layout, in program order, from the layouts of
/// the values before it.
struct LayoutAnalysis::Impl {
  Impl(const Graph& graph, const EffectAnalysis& effects, LayoutOptions options);

  [[nodiscard]] const Layout* layout(const Node* node) const {
    size_t at = node->order();
    return at < layouts_.size() && layouts_[at] ? &*layouts_[at] : nullptr;
  }
  std::span<const SymExpr> save(const std::vector<SymExpr>& values) const;
  /// The values with SymContext::simplifyForSizes applied; `values` itself when none changes.
  std::span<const SymExpr> simplifyForSizes(std::span<const SymExpr> values) const;

  const Graph& graph_;
  const EffectAnalysis& effects_;
  const LayoutOptions options_;
  SymContext& sym_;
  const detail::InPlaceLayoutChanges inPlaceChanges_;
  /// The ops that change a layout in place (EffectAnalysis::layoutChanges).
  std::unordered_set<const Node*> changesLayouts_;
  /// By Node::order(): whether a clone's layout may rest on the value (the clones and what
  /// they are computed from), for LayoutOptions::oracleOnlyForClones; empty otherwise.
  std::vector<bool> oracleCone_;
  std::vector<std::optional<Layout>> layouts_; ///< by Node::order(); filled by the walk
};

namespace {

/// One value's layout, worked out from the layouts of the values before it (the stride rules
/// read them through ArgumentLayouts). It gathers what the layouts it reads rest on.
class LayoutStep final : public detail::ArgumentLayouts {
public:
  LayoutStep(const LayoutAnalysis::Impl& impl, const Node* node) : impl_(impl), node_(node) {}

  [[nodiscard]] std::optional<Layout> run();
  /// The strides of the value whose annotation prints none: assumed for a graph input (with
  /// assumeDenseInputs), else inferred from the op that made it.
  std::optional<std::span<const SymExpr>> inferredStrides(std::span<const SymExpr> sizes);

private:
  /// The layout of a value before this one. Unless `forBits`, the value's in-place layout
  /// change (if any) passes to this layout.
  const Layout* input(const Node* node, bool forBits = false);
  /// The rules' (and the oracle call's) view of input(): notes the first value read whose
  /// strides are unknown, which unknown strides here are then blamed on.
  const Layout* layoutOf(const Node* node) override {
    const Layout* layout = input(node);
    if (layout && !layout->strides && !readUnknown_)
      readUnknown_ = node;
    return layout;
  }
  /// The stride rules' answer for a call (StrideInference), else the oracle's, saved.
  std::optional<std::span<const SymExpr>> inferredFromRules(std::span<const SymExpr> sizes);
  /// What the oracle would be asked for this value: the call (of a getitem, the call before
  /// it) with static layouts on the CPU, and the element taken; nullopt when it cannot run it.
  struct OracleQuery {
    OracleCall call;
    std::optional<int64_t> element;
  };
  std::optional<OracleQuery> oracleQuery();
  /// What LayoutOptions::oracle gives for the query.
  std::optional<std::vector<SymExpr>> stridesFromOracle(const OracleQuery& query,
                                                        std::span<const SymExpr> sizes);
  /// The conjugate and negative bits of the value (see ViewBit).
  detail::ViewBits viewBits(DType dtype);
  std::optional<SymExpr> inferOffset();
  std::optional<SymExpr> viewOffset();
  std::optional<SymExpr> splitElementOffset();
  /// The strides of a getitem whose annotation has none, where the element's origin settles
  /// them: a copy auto_functionalized(_v2) returns, or basic indexing of a tensor.
  std::optional<std::span<const SymExpr>> elementStrides();
  /// `x[index]` of a tensor x with basic indexing (a view), as LayoutIndexing works it out;
  /// nullopt for any other node, and when x's layout is not known.
  std::optional<detail::IndexedLayout> tensorIndexLayout();
  /// The argument whose copy element `index` of auto_functionalized(_v2) `producer` is (it
  /// has that argument's layout), or nullptr.
  const Node* functionalizedCopySource(const Node* producer, int64_t index) const;

  const LayoutAnalysis::Impl& impl_;
  const Node* node_;
  /// Whether a layout this one was derived from assumes dense inputs.
  bool usedAssumption_ = false;
  /// Whether this layout, or one it was derived from, ran an op in the oracle.
  bool usedOracle_ = false;
  /// The in-place change of a value this layout was derived from.
  const LayoutChange* inherited_ = nullptr;
  /// The first value a rule read whose strides are unknown.
  const Node* readUnknown_ = nullptr;
  /// Why inferredStrides() found none (see Layout::unknownStrides).
  UnknownStrides unknown_ = UnknownStrides::Other;
  const Node* unknownBecause_ = nullptr;
  const Node* unknownThrough_ = nullptr;
  std::nullopt_t unknown(UnknownStrides why, const Node* because) {
    unknown_ = why;
    unknownBecause_ = because;
    unknownThrough_ = nullptr;
    return std::nullopt;
  }
  /// The strides derive from those of `value`, which are unknown: its reason is theirs.
  std::nullopt_t unknownInput(const Node* value) {
    const Layout* layout = impl_.layout(value);
    if (!layout || value->order() >= node_->order())
      return unknown(UnknownStrides::Other, nullptr);
    unknown_ = layout->unknownStrides;
    unknownBecause_ = layout->unknownBecause;
    unknownThrough_ = layout->unknownThrough ? layout->unknownThrough : value;
    return std::nullopt;
  }
};

} // namespace

LayoutAnalysis::Impl::Impl(const Graph& graph, const EffectAnalysis& effects, LayoutOptions options)
    : graph_(graph), effects_(effects), options_(options), sym_(graph.context().sym()),
      inPlaceChanges_(effects) {
  graph.numberNodes();
  for (const LayoutChange& change : effects.layoutChanges())
    changesLayouts_.insert(change.op);
  if (options.oracle && options.oracleOnlyForClones) {
    // Inputs come before their users: one backward pass closes the set.
    std::vector<const Node*> nodes(graph.begin(), graph.end());
    oracleCone_.assign(graph.orderBound(), false);
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it)
      if (isClone(*it) || oracleCone_[(*it)->order()]) {
        oracleCone_[(*it)->order()] = true;
        (*it)->forEachInput([&](const Node* input) { oracleCone_[input->order()] = true; });
      }
  }
  layouts_.resize(graph.orderBound());
  for (const Node* node : graph)
    layouts_[node->order()] = LayoutStep(*this, node).run();
}

LayoutAnalysis::LayoutAnalysis(const Graph& graph, const EffectAnalysis& effects,
                               LayoutOptions options)
    : impl_(std::make_unique<Impl>(graph, effects, options)) {}

LayoutAnalysis::LayoutAnalysis(LayoutAnalysis&&) noexcept = default;
LayoutAnalysis& LayoutAnalysis::operator=(LayoutAnalysis&&) noexcept = default;
LayoutAnalysis::~LayoutAnalysis() = default;

const Layout* LayoutAnalysis::layout(const Node* node) const {
  return impl_->layout(node);
}

std::optional<std::vector<SymExpr>> LayoutAnalysis::stridesFromInputs(const Node* node) const {
  if (!node->isCall() || node->type().kind != TypeAnnotation::Kind::Tensor)
    return std::nullopt;
  std::optional<std::span<const SymExpr>> strides =
      LayoutStep(*impl_, node).inferredStrides(impl_->simplifyForSizes(node->type().tensor->sizes));
  if (!strides || strides->size() != node->type().tensor->sizes.size())
    return std::nullopt;
  return std::vector<SymExpr>(strides->begin(), strides->end());
}

const Layout* LayoutStep::input(const Node* node, bool forBits) {
  // A value at or after this one has no layout yet (a malformed graph).
  if (node->order() >= node_->order())
    return nullptr;
  const Layout* layout = impl_.layout(node);
  // An offset or strides worked out from a layout that changes in place are no better than
  // it. The bits are: no in-place op sets one.
  if (layout && layout->changedInPlaceBy && !forBits && !inherited_)
    inherited_ = impl_.inPlaceChanges_.find(layout->changedValue);
  if (layout && layout->assumesDenseInputs && !forBits)
    usedAssumption_ = true;
  if (layout && layout->stridesRun && !forBits)
    usedOracle_ = true;
  return layout;
}

std::optional<Layout> LayoutStep::run() {
  const Node* node = node_;
  if (node->type().kind != TypeAnnotation::Kind::Tensor)
    return std::nullopt;
  const TensorType& type = *node->type().tensor;
  SymContext& sym = impl_.sym_;
  Layout layout;
  layout.dtype = type.dtype;
  layout.device = type.device;
  // PyTorch prints a size or stride as `Max(1, s0)` in one place and `s0` in another; they are
  // one value, and layouts compare by their canonical expressions.
  layout.sizes = impl_.simplifyForSizes(type.sizes);
  if (type.strides)
    layout.strides = impl_.simplifyForSizes(*type.strides);
  if (type.storageOffset)
    layout.storageOffset = sym.simplifyForSizes(*type.storageOffset);
  if (!layout.storageOffset)
    layout.storageOffset = inferOffset();
  detail::ViewBits bits = viewBits(type.dtype);
  layout.conj = bits.conj;
  layout.neg = bits.neg;
  if (!layout.strides && node->isCall() && node->target()->isOperator("getitem"))
    layout.strides = elementStrides();
  // clone.out returns its out tensor, whose strides are its own: only a clone that allocates
  // follows the memory_format rules.
  if (!layout.strides && isClone(node) && !node->args().empty() && node->args()[0].isNode()) {
    if (const Layout* source = input(node->args()[0].node())) {
      MemoryFormat format = MemoryFormat::Preserve;
      if (const Arg* arg = node->kwarg("memory_format"); arg && arg->kind == ArgKind::MemoryFormat)
        format = arg->memoryFormat();
      if (std::optional<std::vector<SymExpr>> strides =
              LayoutAnalysis::cloneStrides(sym, *source, format))
        layout.strides = impl_.save(*strides);
    }
  }
  if (!layout.strides) {
    layout.strides = inferredStrides(layout.sizes);
    layout.stridesInferred = layout.strides.has_value();
  } else if (!type.strides) {
    layout.stridesInferred = true; // a getitem's or a clone's, worked out above
  }
  // An inferred layout must have the annotated rank (a rule reading a malformed graph, a
  // permute whose annotation disagrees with its input's): else it is unknown.
  if (!type.strides && layout.strides && layout.strides->size() != layout.sizes.size()) {
    layout.strides.reset();
    layout.stridesInferred = false;
    unknown(UnknownStrides::Other, nullptr);
  }
  if (!layout.strides) {
    layout.unknownStrides = unknown_;
    layout.unknownBecause = unknownBecause_;
    layout.unknownThrough = unknownThrough_;
  }
  layout.assumesDenseInputs = usedAssumption_;
  layout.stridesRun = usedOracle_;
  const LayoutChange* change = impl_.inPlaceChanges_.find(node);
  if (!change)
    change = inherited_;
  if (change) {
    layout.changedInPlaceBy = change->op;
    layout.changedValue = impl_.inPlaceChanges_.find(node) ? node : change->value;
  }
  return layout;
}

std::optional<std::span<const SymExpr>>
LayoutStep::inferredStrides(std::span<const SymExpr> sizes) {
  const Node* node = node_;
  SymContext& sym = impl_.sym_;
  // A tensor without dimensions has no strides to know (dumps print `f32[]` for `f32[][]`).
  if (sizes.empty())
    return std::span<const SymExpr>();
  if (node->kind() == Node::Kind::Placeholder || node->kind() == Node::Kind::GetAttr) {
    if (!impl_.options_.assumeDenseInputs)
      return unknown(UnknownStrides::NotPrinted, node);
    usedAssumption_ = true;
    return impl_.save(detail::contiguousStrides(sym, sizes));
  }
  if (!node->isCall())
    return unknown(UnknownStrides::Other, nullptr);
  // An in-place or out= op returns the very tensor it wrote: its strides (an op that changes
  // them in place marks the layout, see inherited_).
  // Unless the op is one that changes that tensor's layout (as_strided_, t_, a resizing out=):
  // then only as_strided_'s arguments say what it becomes.
  if (impl_.changesLayouts_.count(node) && node->target()->opName != "as_strided_")
    return unknown(UnknownStrides::ChangedInPlace, node);
  if (impl_.changesLayouts_.count(node))
    return inferredFromRules(sizes);
  // lift_fresh_copy copies a constant, a get_attr that a stride-less dump does not annotate at
  // all: assumed dense, the constant's copy is contiguous in the copy's own sizes.
  const Target& target = *node->target();
  if (impl_.options_.assumeDenseInputs && target.kind == Target::Kind::Op &&
      target.opNamespace == "aten" && target.opName == "lift_fresh_copy" &&
      node->args().size() == 1 && node->args()[0].isNode() &&
      node->args()[0].node()->kind() == Node::Kind::GetAttr &&
      node->args()[0].node()->type().kind != TypeAnnotation::Kind::Tensor) {
    usedAssumption_ = true;
    return impl_.save(detail::contiguousStrides(sym, sizes));
  }
  if (const Node* same = detail::sameTensorAs(impl_.effects_, node)) {
    const Layout* layout = input(same);
    if (!layout || !layout->strides)
      return unknownInput(same);
    return layout->strides;
  }
  return inferredFromRules(sizes);
}

std::optional<std::span<const SymExpr>>
LayoutStep::inferredFromRules(std::span<const SymExpr> sizes) {
  const Node* node = node_;
  std::optional<std::vector<SymExpr>> strides;
  if (node->target()->isOperator("getitem") && node->args().size() == 2 &&
      node->args()[0].isNode() && node->args()[0].node()->isCall() &&
      node->args()[1].kind == ArgKind::Int)
    strides = detail::inferElementStrides(impl_.sym_, *node->args()[0].node(),
                                          node->args()[1].integer, sizes, *this);
  else
    strides = detail::inferStrides(impl_.sym_, *node, sizes, *this);
  if (strides)
    return impl_.simplifyForSizes(impl_.save(*strides));
  // An element of a call's tuple or list is the call's to make.
  const Node* call = node;
  if (node->target()->isOperator("getitem") && !node->args().empty() && node->args()[0].isNode() &&
      impl_.effects_.hasOutputs(node->args()[0].node()))
    call = node->args()[0].node();
  // Unknown strides a rule read are why: knowing them may settle these.
  if (const Node* read = readUnknown_)
    return unknownInput(read);
  const LayoutOptions& options = impl_.options_;
  bool wanted = impl_.oracleCone_.empty() || impl_.oracleCone_[node->order()];
  if (options.oracle && !wanted)
    return unknown(UnknownStrides::NoRule, call);
  std::optional<OracleQuery> query = oracleQuery();
  if (!query) // the oracle needs static layouts: blame an unknown one it would have read
    return readUnknown_ ? unknownInput(readUnknown_) : unknown(UnknownStrides::NoRule, call);
  if (!options.oracle)
    return unknown(UnknownStrides::NoRuleTryOracle, call);
  strides = stridesFromOracle(*query, sizes);
  if (!strides)
    return unknown(UnknownStrides::OracleGaveNone, call);
  return impl_.simplifyForSizes(impl_.save(*strides));
}

std::optional<LayoutStep::OracleQuery> LayoutStep::oracleQuery() {
  const Node* node = node_;
  if (node->type().tensor->device != "cpu") // see LayoutOracle
    return std::nullopt;
  // A getitem takes its element of what the call before it returns.
  const Node* call = node;
  std::optional<int64_t> element;
  if (node->target()->isOperator("getitem")) {
    if (node->args().size() != 2 || !node->args()[0].isNode() ||
        node->args()[1].kind != ArgKind::Int)
      return std::nullopt;
    call = node->args()[0].node();
    element = node->args()[1].integer;
  }
  std::optional<OracleCall> query = detail::oracleCall(impl_.graph_.context(), *call, *this);
  if (!query)
    return std::nullopt;
  return OracleQuery{std::move(*query), element};
}

std::optional<std::vector<SymExpr>> LayoutStep::stridesFromOracle(const OracleQuery& query,
                                                                  std::span<const SymExpr> sizes) {
  std::optional<OracleResult> result = impl_.options_.oracle->run(query.call);
  if (!result || result->sequence != query.element.has_value())
    return std::nullopt;
  auto count = static_cast<int64_t>(result->results.size());
  int64_t index = query.element.value_or(0);
  if (index < 0) // Python's rule: counts from the end
    index += count;
  if (index < 0 || index >= count || !result->results[static_cast<size_t>(index)])
    return std::nullopt;
  std::optional<std::vector<SymExpr>> strides =
      detail::oracleStrides(*result->results[static_cast<size_t>(index)], sizes);
  usedOracle_ = usedOracle_ || strides.has_value();
  return strides;
}

std::span<const SymExpr>
LayoutAnalysis::Impl::simplifyForSizes(std::span<const SymExpr> values) const {
  // Most annotations have nothing to simplify: they are kept, not copied.
  for (size_t i = 0; i < values.size(); ++i) {
    if (sym_.simplifyForSizes(values[i]) == values[i])
      continue;
    std::vector<SymExpr> simplified(values.begin(), values.end());
    for (size_t j = i; j < values.size(); ++j)
      simplified[j] = sym_.simplifyForSizes(values[j]);
    return save(simplified);
  }
  return values;
}

detail::ViewBits LayoutStep::viewBits(DType dtype) {
  const Node* node = node_;
  const EffectAnalysis& effects_ = impl_.effects_;
  if (isClone(node))
    return {}; // what a clone is for
  const TensorType& type = *node->type().tensor;
  if (type.conj && type.neg) // read from a live tensor
    return {*type.conj ? ViewBit::Set : ViewBit::Clear, *type.neg ? ViewBit::Set : ViewBit::Clear};
  OutputAlias relation;
  if (node->isCall()) {
    relation = effects_.result(node);
    const Arg* container = node->args().empty() ? nullptr : &node->args()[0];
    if (node->target()->isOperator("getitem") && node->args().size() == 2 && container->isNode() &&
        effects_.hasOutputs(container->node())) {
      // Every element of a list relates alike, whatever its position.
      relation =
          node->args()[1].kind == ArgKind::Int
              ? effects_.output(
                    container->node(),
                    effects_.elementIndex(container->node(), node->args()[1].integer).value_or(0))
              : OutputAlias{OutputAlias::Kind::Unknown, nullptr};
    }
  } else {
    relation.kind = OutputAlias::Kind::Fresh; // graph inputs: see Layout::conj
  }
  if (relation.kind != OutputAlias::Kind::Aliases || !relation.input)
    return detail::nonAliasViewBits(relation.kind, dtype);
  const Layout* source = input(relation.input, /*forBits=*/true);
  if (!source)
    return detail::nonAliasViewBits(OutputAlias::Kind::Unknown, dtype);
  const detail::ViewRule* rule = detail::viewRule(*node->target());
  bool alwaysView =
      node->target()->opNamespace == "aten" && rule &&
      (rule->start == detail::ViewStart::Same || rule->start == detail::ViewStart::Computed);
  return detail::aliasViewBits(effects_, node, relation.input, *source, alwaysView);
}

std::span<const SymExpr> LayoutAnalysis::Impl::save(const std::vector<SymExpr>& values) const {
  std::span<SymExpr> out = graph_.context().allocate<SymExpr>(values.size());
  std::copy(values.begin(), values.end(), out.begin());
  return out;
}

std::optional<SymExpr> LayoutStep::inferOffset() {
  const Node* node = node_;
  const EffectAnalysis& effects_ = impl_.effects_;
  switch (node->kind()) {
  case Node::Kind::Placeholder:
  case Node::Kind::GetAttr:
    return SymExpr::constant(0); // graph inputs start at 0 unless annotated
  case Node::Kind::Output:
    return std::nullopt;
  case Node::Kind::Call:
    break;
  }
  if (isClone(node))
    return SymExpr::constant(0);
  if (node->target()->isOperator("getitem") && node->args().size() == 2 &&
      node->args()[0].isNode()) {
    if (effects_.hasOutputs(node->args()[0].node()))
      return splitElementOffset();
    if (std::optional<detail::IndexedLayout> indexed = tensorIndexLayout())
      return indexed->storageOffset;
  }
  OutputAlias result = effects_.result(node);
  switch (result.kind) {
  case OutputAlias::Kind::Fresh:
    return SymExpr::constant(0);
  case OutputAlias::Kind::Aliases: {
    const OpSchema* schema = effects_.schema(node);
    // The schema declares a new tensor and only the override table relates the result to an
    // argument (_unsafe_view, dropout in eval, type_as): it is the argument, a view of it at its
    // offset, or a new tensor, so its offset is known only where those agree, at 0 (the audit
    // records each entry's result offset: 0 for inputs at 0).
    if (schema && schema->returns.size() == 1 && schema->returnIsFresh(0)) {
      const Layout* input = this->input(result.input);
      if (input && input->storageOffset && *input->storageOffset == SymExpr::constant(0))
        return SymExpr::constant(0);
      return std::nullopt;
    }
    // An in-place or out= op returns the very tensor it wrote (clone.out too: never a fresh
    // tensor at 0). A result that only the override table relates to an argument is handled above.
    if (detail::sameTensorAs(effects_, node) == result.input) {
      const Layout* input = this->input(result.input);
      return input ? input->storageOffset : std::nullopt;
    }
    return viewOffset();
  }
  default:
    return std::nullopt;
  }
}

std::optional<SymExpr> LayoutStep::viewOffset() {
  const Node* node = node_;
  const detail::ViewRule* rule = detail::viewRule(*node->target());
  if (!rule || node->args().empty() || !node->args()[0].isNode())
    return std::nullopt;
  const Layout* input = this->input(node->args()[0].node());
  if (!input || !input->storageOffset)
    return std::nullopt;
  return detail::viewOffset(*rule, {impl_.sym_, *node, node->type().tensor->sizes, *this}, *input);
}

const Node* LayoutStep::functionalizedCopySource(const Node* producer, int64_t index) const {
  // The copies are made with clone_preserve_strides: each keeps its argument's strides and
  // storage offset; one that reinplacing left out is the argument itself (FunctionalizedOutputs).
  // auto_functionalized_v2's copies are of the bases, not of the views op mutates.
  std::optional<FunctionalizedOutputs> outputs =
      functionalizedOutputs(producer, impl_.effects_.schemas());
  if (!outputs)
    return nullptr;
  auto results = static_cast<int64_t>(outputs->results);
  auto copies = static_cast<int64_t>(outputs->copies.size());
  if (index < 0) // Python's rule: counts from the end of the tuple
    index += results + copies;
  if (index < results || index >= results + copies)
    return nullptr; // one of op's own results, or outside the tuple
  const Arg* argument = outputs->copies[static_cast<size_t>(index - results)].argument;
  return argument && argument->isNode() ? argument->node() : nullptr;
}

std::optional<std::span<const SymExpr>> LayoutStep::elementStrides() {
  const Node* getitem = node_;
  if (getitem->args().size() != 2 || !getitem->args()[0].isNode())
    return std::nullopt;
  const Node* producer = getitem->args()[0].node();
  if (producer->isCall() && producer->target()->isHigherOrder() &&
      getitem->args()[1].kind == ArgKind::Int) {
    const Node* source = functionalizedCopySource(producer, getitem->args()[1].integer);
    const Layout* layout = source ? input(source) : nullptr;
    return layout ? layout->strides : std::nullopt;
  }
  if (std::optional<detail::IndexedLayout> indexed = tensorIndexLayout();
      indexed && indexed->strides)
    return impl_.save(*indexed->strides);
  return std::nullopt;
}

std::optional<detail::IndexedLayout> LayoutStep::tensorIndexLayout() {
  const Node* node = node_;
  if (!node->target()->isOperator("getitem") || node->args().size() != 2 ||
      !node->args()[0].isNode() || node->type().kind != TypeAnnotation::Kind::Tensor)
    return std::nullopt;
  const Node* container = node->args()[0].node();
  OutputAlias result = impl_.effects_.result(node);
  if (impl_.effects_.hasOutputs(container) || result.kind != OutputAlias::Kind::Aliases ||
      result.input != container)
    return std::nullopt;
  const Layout* input = this->input(container);
  if (!input)
    return std::nullopt;
  return detail::indexedLayout(impl_.sym_, *input, node->args()[1], node->type().tensor->sizes);
}

std::optional<SymExpr> LayoutStep::splitElementOffset() {
  const Node* getitem = node_;
  const EffectAnalysis& effects_ = impl_.effects_;
  SymContext& sym_ = impl_.sym_;
  const Node* producer = getitem->args()[0].node();
  if (getitem->args()[1].kind != ArgKind::Int)
    return std::nullopt;
  int64_t index = getitem->args()[1].integer;
  if (producer->isCall() && producer->target()->isHigherOrder()) {
    const Node* source = functionalizedCopySource(producer, index);
    const Layout* layout = source ? this->input(source) : nullptr;
    return layout ? layout->storageOffset : std::nullopt;
  }
  // An element of an out= op's tuple (max.dim_max's values) is its out argument.
  if (const Node* out = detail::sameTensorAs(effects_, getitem)) {
    const Layout* input = this->input(out);
    return input ? input->storageOffset : std::nullopt;
  }
  // Every element of a list relates alike, whatever its position.
  OutputAlias relation =
      effects_.output(producer, effects_.elementIndex(producer, index).value_or(0));
  if (relation.kind == OutputAlias::Kind::Fresh)
    return SymExpr::constant(0);
  if (relation.kind != OutputAlias::Kind::Aliases || !producer->isCall() ||
      producer->target()->opNamespace != "aten" || producer->args().empty() ||
      !producer->args()[0].isNode())
    return std::nullopt;
  const Layout* input = this->input(producer->args()[0].node());
  if (!input || !input->storageOffset)
    return std::nullopt;
  // The split ops return lists: a negative index counts from the end of the list, whose length
  // `count()` works out for each op; unknown when it is not a constant or the index is still
  // negative (Python raises IndexError).
  auto position = [&](auto&& count) -> std::optional<int64_t> {
    if (index >= 0)
      return index;
    std::optional<SymExpr> length = count();
    std::optional<int64_t> n = length ? length->constantValue() : std::nullopt;
    if (!n || index + *n < 0)
      return std::nullopt;
    return index + *n;
  };
  std::string_view name = producer->target()->opName;
  std::optional<size_t> d;
  SymExpr start;
  if (name == "split" || name == "unsafe_split") {
    d = detail::dimension(detail::intArgument(*producer, 2, "dim", 0), input->sizes.size());
    std::optional<SymExpr> splitSize =
        detail::intArgument(*producer, 1, "split_size", std::nullopt);
    if (!splitSize || !d)
      return std::nullopt;
    std::optional<int64_t> i = position([&] { return sym_.ceilDiv(input->sizes[*d], *splitSize); });
    if (!i)
      return std::nullopt;
    start = sym_.mul(SymExpr::constant(*i), *splitSize);
  } else if (name == "split_with_sizes" || name == "unsafe_split_with_sizes") {
    d = detail::dimension(detail::intArgument(*producer, 2, "dim", 0), input->sizes.size());
    const Arg* sizes =
        producer->args().size() > 1 ? &producer->args()[1] : producer->kwarg("split_sizes");
    if (!sizes || sizes->kind != ArgKind::List)
      return std::nullopt;
    std::optional<int64_t> i =
        position([&] { return SymExpr::constant(static_cast<int64_t>(sizes->count)); });
    if (!i || *i > static_cast<int64_t>(sizes->count))
      return std::nullopt;
    for (int64_t k = 0; k < *i; ++k) {
      const Arg& piece = sizes->elements[k];
      if (piece.kind == ArgKind::Int)
        start = sym_.add(start, SymExpr::constant(piece.integer));
      else if (piece.isNode() && piece.node()->type().kind == TypeAnnotation::Kind::Sym)
        start = sym_.add(start, piece.node()->type().sym);
      else
        return std::nullopt;
    }
  } else if (name == "unbind") {
    d = detail::dimension(detail::intArgument(*producer, 1, "dim", 0), input->sizes.size());
    std::optional<int64_t> i = d ? position([&] { return input->sizes[*d]; }) : std::nullopt;
    if (!i)
      return std::nullopt;
    start = SymExpr::constant(*i);
  } else if (name == "chunk") {
    d = detail::dimension(detail::intArgument(*producer, 2, "dim", 0), input->sizes.size());
    std::optional<SymExpr> chunks = detail::intArgument(*producer, 1, "chunks", std::nullopt);
    if (!chunks || !d)
      return std::nullopt;
    // chunk makes pieces of ceil(size / chunks) and may return fewer than `chunks` of them.
    SymExpr chunkSize = sym_.ceilDiv(input->sizes[*d], *chunks);
    std::optional<int64_t> i = position([&] { return sym_.ceilDiv(input->sizes[*d], chunkSize); });
    if (!i)
      return std::nullopt;
    start = sym_.mul(SymExpr::constant(*i), chunkSize);
  } else {
    return std::nullopt;
  }
  if (!d)
    return std::nullopt;
  if (start == SymExpr::constant(0))
    return input->storageOffset;
  if (!input->strides)
    return std::nullopt;
  return sym_.add(*input->storageOffset, sym_.mul(start, (*input->strides)[*d]));
}

} // namespace declone
