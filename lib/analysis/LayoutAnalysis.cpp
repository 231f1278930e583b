// Layout inference: annotations first, then view-op storage offsets and clone memory formats.
#include "declone/analysis/LayoutAnalysis.h"

#include "LayoutIndexing.h"
#include "LayoutMetadata.h"
#include "OracleCall.h"
#include "StrideInference.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

namespace declone {
namespace {

/// View ops whose result starts where their input starts.
constexpr std::string_view kSameOffsetViews[] = {
    "view",     "_reshape_alias", "permute",   "transpose",    "t",
    "numpy_T",  "expand",         "expand_as", "squeeze",      "unsqueeze",
    "alias",    "detach",         "view_as",   "unfold",       "movedim",
    "swapaxes", "swapdims",       "mT",        "mH",           "adjoint",
    "_conj",    "conj",           "_neg_view", "view_as_real", "view_as_complex",
    "positive",
};
/// View ops whose result starts elsewhere in their input's storage (viewOffset works it out).
constexpr std::string_view kOffsetViews[] = {"slice", "select", "narrow", "diagonal", "as_strided"};
/// Ops that return a view when they can and a copy otherwise: the offset is the input's when
/// that is 0 (a copy starts at 0 too), else unknown.
constexpr std::string_view kMaybeViews[] = {"reshape",    "flatten",      "unflatten",
                                            "contiguous", "resolve_conj", "resolve_neg"};

/// A constant dimension index with Python's negative indexing, checked against the rank.
std::optional<size_t> normalizeDim(std::optional<SymExpr> dim, size_t rank) {
  if (!dim || !dim->constantValue())
    return std::nullopt;
  int64_t d = *dim->constantValue();
  if (d < 0)
    d += static_cast<int64_t>(rank);
  if (d < 0 || d >= static_cast<int64_t>(rank))
    return std::nullopt;
  return static_cast<size_t>(d);
}

bool contains(std::span<const std::string_view> names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

bool isAtenOp(const Node* node, std::string_view name) {
  return node->isCall() && node->target()->isOp("aten", name);
}

/// aten.clone.default, which allocates: not clone.out, which returns its out tensor.
bool isAllocatingClone(const Node* node) {
  return isAtenOp(node, "clone") &&
         (node->target()->overload.empty() || node->target()->overload == "default");
}

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

void appendSymList(const SymContext& sym, std::span<const SymExpr> values, std::string& out) {
  out += '[';
  for (size_t i = 0; i < values.size(); ++i) {
    if (i)
      out += ", ";
    sym.print(values[i], out);
  }
  out += ']';
}

std::string formatSymList(const SymContext& sym, std::span<const SymExpr> values) {
  std::string out;
  appendSymList(sym, values, out);
  return out;
}

std::string inferenceBasis(const Layout& layout) {
  std::string out = "strides inferred";
  if (layout.assumesDenseInputs)
    out += ", assuming dense inputs";
  if (layout.stridesRun)
    out += ", ops run under FakeTensor";
  return out;
}

std::string formatLayout(const SymContext& sym, const Layout& layout) {
  std::string out(abbreviation(layout.dtype));
  appendSymList(sym, layout.sizes, out);
  if (layout.strides)
    appendSymList(sym, *layout.strides, out);
  else
    out += "[?]";
  out += layout.device;
  out += '@';
  if (layout.storageOffset)
    sym.print(*layout.storageOffset, out);
  else
    out += '?';
  for (auto [bit, name] : {std::pair(layout.conj, " conj"), std::pair(layout.neg, " neg")}) {
    if (bit != ViewBit::Clear)
      out += name;
    if (bit == ViewBit::Unknown)
      out += '?';
  }
  if (layout.stridesInferred)
    out += " (" + inferenceBasis(layout) + ")";
  if (layout.changedInPlaceBy) {
    out += " changed in place by ";
    out += layout.changedInPlaceBy->name();
  }
  return out;
}

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

/// The memo and the walk behind LayoutAnalysis: layouts are computed on first query, each after
/// those it depends on.
struct LayoutAnalysis::Impl final : detail::ArgumentLayouts {
  Impl(const Graph& graph, const EffectAnalysis& effects, LayoutOptions options);

  const Layout* layout(const Node* node) const;
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
  /// The layout of a value the layout being computed depends on. Unless `forBits`, the value's
  /// in-place layout change (if any) passes to the layout being computed.
  const Layout* input(const Node* node, bool forBits = false) const;
  /// The stride rules' view of input().
  const Layout* layoutOf(const Node* node) const override { return input(node); }
  /// The strides of a value whose annotation prints none: assumed for a graph input (with
  /// assumeDenseInputs), else inferred from the op that made it.
  std::optional<std::span<const SymExpr>> inferredStrides(const Node* node,
                                                          std::span<const SymExpr> sizes) const;
  /// The stride rules' answer for a call (StrideInference), else the oracle's, saved.
  std::optional<std::span<const SymExpr>> inferredFromRules(const Node* node,
                                                            std::span<const SymExpr> sizes) const;
  /// What LayoutOptions::oracle gives a call, or a getitem of one, with static layouts.
  std::optional<std::vector<SymExpr>> stridesFromOracle(const Node* node,
                                                        std::span<const SymExpr> sizes) const;
  /// The conjugate and negative bits of a value (see ViewBit).
  detail::ViewBits viewBits(const Node* node, DType dtype) const;
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
  /// The strides of a getitem whose annotation has none, where the element's origin settles
  /// them: a copy auto_functionalized(_v2) returns, or basic indexing of a tensor.
  std::optional<std::span<const SymExpr>> elementStrides(const Node* getitem) const;
  /// `x[index]` of a tensor x with basic indexing (a view), as LayoutIndexing works it out;
  /// nullopt for any other node, and when x's layout is not known yet.
  std::optional<detail::IndexedLayout> tensorIndexLayout(const Node* node) const;
  /// The argument whose copy element `index` of auto_functionalized(_v2) `producer` is (it
  /// has that argument's layout), or nullptr.
  const Node* functionalizedCopySource(const Node* producer, int64_t index) const;
  std::optional<SymExpr> intArgument(const Node* node, size_t index, std::string_view name,
                                     std::optional<int64_t> fallback) const;
  std::span<const SymExpr> save(const std::vector<SymExpr>& values) const;
  /// The values with SymContext::simplifyForSizes applied; `values` itself when none changes.
  std::span<const SymExpr> simplifyForSizes(std::span<const SymExpr> values) const;
  /// Computes the layouts of a clone and of its source, if `node` is a clone of a node.
  void precomputeClone(const Node* node) const;

  const Graph& graph_;
  const EffectAnalysis& effects_;
  const LayoutOptions options_;
  /// Whether a layout the one being computed was derived from assumes dense inputs.
  mutable bool usedAssumption_ = false;
  /// Whether the layout being computed, or one it was derived from, ran an op in the oracle.
  mutable bool usedOracle_ = false;
  SymContext& sym_;
  const detail::InPlaceLayoutChanges inPlaceChanges_;
  /// The ops that change a layout in place (EffectAnalysis::layoutChanges).
  std::unordered_set<const Node*> changesLayouts_;
  /// The in-place change of a value the layout being computed was derived from.
  mutable const LayoutChange* inherited_ = nullptr;
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

LayoutAnalysis::Impl::Impl(const Graph& graph, const EffectAnalysis& effects, LayoutOptions options)
    : graph_(graph), effects_(effects), options_(options), sym_(graph.context().sym()),
      inPlaceChanges_(effects) {
  graph.numberNodes();
  memo_.assign(graph.orderBound(), kNotComputed);
  for (const LayoutChange& change : effects.layoutChanges())
    changesLayouts_.insert(change.op);
}

LayoutAnalysis::LayoutAnalysis(const Graph& graph, const EffectAnalysis& effects,
                               LayoutOptions options)
    : impl_(std::make_unique<Impl>(graph, effects, options)) {
  for (const Node* node : graph)
    impl_->precomputeClone(node);
}

LayoutAnalysis::LayoutAnalysis(const Graph& graph, const EffectAnalysis& effects,
                               std::span<Node* const> clones, LayoutOptions options)
    : impl_(std::make_unique<Impl>(graph, effects, options)) {
  // A layout depends only on the graph and on which values come before which, not on the
  // order layouts are computed in: these are the layouts the walk above would compute.
  for (const Node* node : clones)
    impl_->precomputeClone(node);
}

LayoutAnalysis::LayoutAnalysis(LayoutAnalysis&&) noexcept = default;
LayoutAnalysis& LayoutAnalysis::operator=(LayoutAnalysis&&) noexcept = default;
LayoutAnalysis::~LayoutAnalysis() = default;

void LayoutAnalysis::Impl::precomputeClone(const Node* node) const {
  if (!isAtenOp(node, "clone") || node->args().empty() || !node->args()[0].isNode())
    return;
  (void)layout(node);
  (void)layout(node->args()[0].node());
}

const Layout* LayoutAnalysis::layout(const Node* node) const {
  return impl_->layout(node);
}

std::optional<std::vector<SymExpr>> LayoutAnalysis::stridesFromInputs(const Node* node) const {
  if (!node->isCall() || node->type().kind != TypeAnnotation::Kind::Tensor)
    return std::nullopt;
  // Compute what the rules will ask for first, then ask with this node as the one computed.
  const Impl& impl = *impl_;
  node->forEachInput([&](const Node* input) { (void)impl.layout(input); });
  if (node->target()->isOperator("getitem") && !node->args().empty() && node->args()[0].isNode())
    node->args()[0].node()->forEachInput([&](const Node* input) { (void)impl.layout(input); });
  impl.computing_ = node;
  impl.missing_ = nullptr;
  std::optional<std::span<const SymExpr>> strides =
      impl.inferredStrides(node, impl.simplifyForSizes(node->type().tensor->sizes));
  bool complete = impl.missing_ == nullptr;
  impl.computing_ = nullptr;
  impl.missing_ = nullptr;
  if (!strides || !complete || strides->size() != node->type().tensor->sizes.size())
    return std::nullopt;
  return std::vector<SymExpr>(strides->begin(), strides->end());
}

const Layout* LayoutAnalysis::Impl::layout(const Node* node) const {
  if (memo_[node->order()] == kNotComputed)
    computeWithInputs(node);
  return memoised(node);
}

void LayoutAnalysis::Impl::computeWithInputs(const Node* node) const {
  // An explicit stack rather than recursion: a chain of views can be as long as the graph.
  // Every dependency comes earlier in program order, so the stack only grows downwards. The
  // stack is kept from call to call (a clone and its source are asked for one after the
  // other, tens of thousands of times), unless a long chain made it large.
  std::vector<const Node*>& stack = stack_;
  stack.assign(1, node);
  while (!stack.empty()) {
    const Node* next = stack.back();
    if (memo_[next->order()] != kNotComputed) {
      stack.pop_back();
      continue;
    }
    computing_ = next;
    missing_ = nullptr;
    std::optional<Layout> result = compute(next);
    computing_ = nullptr;
    if (missing_) {
      stack.push_back(missing_);
      continue;
    }
    stack.pop_back();
    if (result) {
      memo_[next->order()] = add(*result) + kFirstLayout;
    } else {
      memo_[next->order()] = kNoLayout;
    }
  }
  if (stack.capacity() > 1024)
    stack = {};
}

uint32_t LayoutAnalysis::Impl::add(const Layout& layout) const {
  if (numLayouts_ % kChunkSize == 0)
    chunks_.push_back(std::make_unique<Layout[]>(kChunkSize));
  chunks_.back()[numLayouts_ % kChunkSize] = layout;
  return numLayouts_++;
}

const Layout* LayoutAnalysis::Impl::input(const Node* node, bool forBits) const {
  // Answer as a walk in program order would, where a value at or after the one being computed
  // has no layout yet: a layout must not depend on the order queries come in.
  if (node->order() >= computing_->order())
    return nullptr;
  if (memo_[node->order()] == kNotComputed) {
    if (!missing_)
      missing_ = node;
    return nullptr;
  }
  const Layout* layout = memoised(node);
  // An offset or strides worked out from a layout that changes in place are no better than
  // it. The bits are: no in-place op sets one.
  if (layout && layout->changedInPlaceBy && !forBits && !inherited_)
    inherited_ = inPlaceChanges_.find(layout->changedValue);
  if (layout && layout->assumesDenseInputs && !forBits)
    usedAssumption_ = true;
  if (layout && layout->stridesRun && !forBits)
    usedOracle_ = true;
  return layout;
}

std::optional<Layout> LayoutAnalysis::Impl::compute(const Node* node) const {
  if (node->type().kind != TypeAnnotation::Kind::Tensor)
    return std::nullopt;
  const TensorType& type = *node->type().tensor;
  inherited_ = nullptr;
  usedAssumption_ = false;
  usedOracle_ = false;
  Layout layout;
  layout.dtype = type.dtype;
  layout.device = type.device;
  // PyTorch prints a size or stride as `Max(1, s0)` in one place and `s0` in another; they are
  // one value, and layouts compare by their canonical expressions.
  layout.sizes = simplifyForSizes(type.sizes);
  if (type.strides)
    layout.strides = simplifyForSizes(*type.strides);
  if (type.storageOffset)
    layout.storageOffset = sym_.simplifyForSizes(*type.storageOffset);
  if (!layout.storageOffset)
    layout.storageOffset = inferOffset(node);
  detail::ViewBits bits = viewBits(node, type.dtype);
  layout.conj = bits.conj;
  layout.neg = bits.neg;
  if (missing_)
    return std::nullopt;
  if (!layout.strides && node->isCall() && node->target()->isOperator("getitem"))
    layout.strides = elementStrides(node);
  if (missing_)
    return std::nullopt;
  // clone.out returns its out tensor, whose strides are its own: only a clone that allocates
  // follows the memory_format rules.
  if (!layout.strides && isAllocatingClone(node) && !node->args().empty() &&
      node->args()[0].isNode()) {
    if (const Layout* source = input(node->args()[0].node())) {
      MemoryFormat format = MemoryFormat::Preserve;
      if (const Arg* arg = node->kwarg("memory_format"); arg && arg->kind == ArgKind::MemoryFormat)
        format = arg->memoryFormat();
      if (std::optional<std::vector<SymExpr>> strides = cloneStrides(sym_, *source, format))
        layout.strides = save(*strides);
    }
  }
  if (!layout.strides) {
    layout.strides = inferredStrides(node, layout.sizes);
    if (missing_)
      return std::nullopt;
    layout.stridesInferred = layout.strides.has_value();
  } else if (!type.strides) {
    layout.stridesInferred = true; // a getitem's or a clone's, worked out above
  }
  // An inferred layout must have the annotated rank (a rule reading a malformed graph, a
  // permute whose annotation disagrees with its input's): else it is unknown.
  if (!type.strides && layout.strides && layout.strides->size() != layout.sizes.size()) {
    layout.strides.reset();
    layout.stridesInferred = false;
  }
  layout.assumesDenseInputs = usedAssumption_;
  layout.stridesRun = usedOracle_;
  const LayoutChange* change = inPlaceChanges_.find(node);
  if (!change)
    change = inherited_;
  if (change) {
    layout.changedInPlaceBy = change->op;
    layout.changedValue = inPlaceChanges_.find(node) ? node : change->value;
  }
  return layout;
}

std::optional<std::span<const SymExpr>>
LayoutAnalysis::Impl::inferredStrides(const Node* node, std::span<const SymExpr> sizes) const {
  // A tensor without dimensions has no strides to know (dumps print `f32[]` for `f32[][]`).
  if (sizes.empty())
    return std::span<const SymExpr>();
  if (node->kind() == Node::Kind::Placeholder || node->kind() == Node::Kind::GetAttr) {
    if (!options_.assumeDenseInputs)
      return std::nullopt;
    usedAssumption_ = true;
    return save(detail::contiguousStrides(sym_, sizes));
  }
  if (!node->isCall())
    return std::nullopt;
  // An in-place or out= op returns the very tensor it wrote: its strides (an op that changes
  // them in place marks the layout, see inherited_).
  // Unless the op is one that changes that tensor's layout (as_strided_, t_, a resizing out=):
  // then only as_strided_'s arguments say what it becomes.
  if (changesLayouts_.count(node))
    return node->target()->opName == "as_strided_" ? inferredFromRules(node, sizes) : std::nullopt;
  // lift_fresh_copy copies a constant, a get_attr that a stride-less dump does not annotate at
  // all: assumed dense, the constant's copy is contiguous in the copy's own sizes.
  const Target& target = *node->target();
  if (options_.assumeDenseInputs && target.kind == Target::Kind::Op &&
      target.opNamespace == "aten" && target.opName == "lift_fresh_copy" &&
      node->args().size() == 1 && node->args()[0].isNode() &&
      node->args()[0].node()->kind() == Node::Kind::GetAttr &&
      node->args()[0].node()->type().kind != TypeAnnotation::Kind::Tensor) {
    usedAssumption_ = true;
    return save(detail::contiguousStrides(sym_, sizes));
  }
  if (const Node* same = detail::sameTensorAs(effects_, node)) {
    const Layout* layout = input(same);
    if (!layout || !layout->strides)
      return std::nullopt;
    return layout->strides;
  }
  return inferredFromRules(node, sizes);
}

std::optional<std::span<const SymExpr>>
LayoutAnalysis::Impl::inferredFromRules(const Node* node, std::span<const SymExpr> sizes) const {
  std::optional<std::vector<SymExpr>> strides;
  if (node->target()->isOperator("getitem") && node->args().size() == 2 &&
      node->args()[0].isNode() && node->args()[0].node()->isCall() &&
      node->args()[1].kind == ArgKind::Int)
    strides = detail::inferElementStrides(sym_, *node->args()[0].node(), node->args()[1].integer,
                                          sizes, *this);
  else
    strides = detail::inferStrides(sym_, *node, sizes, *this);
  if (!strides && options_.oracle && !missing_)
    strides = stridesFromOracle(node, sizes);
  if (!strides)
    return std::nullopt;
  return simplifyForSizes(save(*strides));
}

std::optional<std::vector<SymExpr>>
LayoutAnalysis::Impl::stridesFromOracle(const Node* node, std::span<const SymExpr> sizes) const {
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
  std::optional<OracleCall> query = detail::oracleCall(graph_.context(), *call, *this);
  if (missing_ || !query)
    return std::nullopt;
  std::optional<OracleResult> result = options_.oracle->run(*query);
  if (!result || result->sequence != element.has_value())
    return std::nullopt;
  auto count = static_cast<int64_t>(result->results.size());
  int64_t index = element.value_or(0);
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

detail::ViewBits LayoutAnalysis::Impl::viewBits(const Node* node, DType dtype) const {
  if (isAllocatingClone(node))
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
  if (!source) // unknown, or not computed yet (missing_ says which)
    return detail::nonAliasViewBits(OutputAlias::Kind::Unknown, dtype);
  bool alwaysView = node->target()->kind == Target::Kind::Op &&
                    node->target()->opNamespace == "aten" &&
                    (viewKind(*node->target()) == ViewKind::SameOffset ||
                     contains(kOffsetViews, node->target()->opName));
  return detail::aliasViewBits(effects_, node, relation.input, *source, alwaysView);
}

std::span<const SymExpr> LayoutAnalysis::Impl::save(const std::vector<SymExpr>& values) const {
  std::span<SymExpr> out = graph_.context().allocate<SymExpr>(values.size());
  std::copy(values.begin(), values.end(), out.begin());
  return out;
}

std::optional<SymExpr> LayoutAnalysis::Impl::intArgument(const Node* node, size_t index,
                                                         std::string_view name,
                                                         std::optional<int64_t> fallback) const {
  const Arg* arg = index < node->args().size() ? &node->args()[index] : node->kwarg(name);
  if (!arg || arg->kind == ArgKind::None)
    return fallback ? std::optional<SymExpr>(SymExpr::constant(*fallback)) : std::nullopt;
  if (arg->kind == ArgKind::Int)
    return SymExpr::constant(arg->integer);
  if (arg->isNode() && arg->node()->type().kind == TypeAnnotation::Kind::Sym)
    return arg->node()->type().sym;
  return std::nullopt;
}

std::optional<SymExpr> LayoutAnalysis::Impl::inferOffset(const Node* node) const {
  switch (node->kind()) {
  case Node::Kind::Placeholder:
  case Node::Kind::GetAttr:
    return SymExpr::constant(0); // graph inputs start at 0 unless annotated
  case Node::Kind::Output:
    return std::nullopt;
  case Node::Kind::Call:
    break;
  }
  if (isAllocatingClone(node))
    return SymExpr::constant(0);
  if (node->target()->isOperator("getitem") && node->args().size() == 2 &&
      node->args()[0].isNode()) {
    if (effects_.hasOutputs(node->args()[0].node()))
      return splitElementOffset(node);
    if (std::optional<detail::IndexedLayout> indexed = tensorIndexLayout(node))
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
    return viewOffset(node);
  }
  default:
    return std::nullopt;
  }
}

LayoutAnalysis::Impl::ViewKind LayoutAnalysis::Impl::viewKind(const Target& target) const {
  // A graph has a few dozen targets and hundreds of thousands of views: classify each target
  // once instead of comparing its name with every entry of the lists.
  if (&target == lastViewTarget_)
    return lastViewKind_;
  auto [it, inserted] = viewKinds_.try_emplace(&target, ViewKind::Other);
  if (inserted) {
    if (contains(kSameOffsetViews, target.opName))
      it->second = ViewKind::SameOffset;
    else if (contains(kMaybeViews, target.opName))
      it->second = ViewKind::MaybeView;
  }
  lastViewTarget_ = &target;
  lastViewKind_ = it->second;
  return it->second;
}

std::optional<SymExpr> LayoutAnalysis::Impl::viewOffset(const Node* node) const {
  const Target& target = *node->target();
  // prims.as_strided is the one prims view whose offset is an argument (the others' are unknown).
  bool primsAsStrided = target.opNamespace == "prims" && target.opName == "as_strided";
  if (target.kind != Target::Kind::Op || (target.opNamespace != "aten" && !primsAsStrided) ||
      node->args().empty() || !node->args()[0].isNode())
    return std::nullopt;
  const Layout* input = this->input(node->args()[0].node());
  if (!input || !input->storageOffset)
    return std::nullopt;
  std::string_view name = node->target()->opName;
  SymExpr base = *input->storageOffset;
  ViewKind kind = viewKind(*node->target());
  if (kind == ViewKind::SameOffset)
    return base;
  if (kind == ViewKind::MaybeView)
    return base == SymExpr::constant(0) ? std::optional<SymExpr>(base) : std::nullopt;
  if (name == "as_strided") {
    // An absent or None storage_offset keeps the input's; one that cannot be read is unknown.
    const Arg* offset = node->args().size() > 3 ? &node->args()[3] : node->kwarg("storage_offset");
    if (!offset || offset->kind == ArgKind::None)
      return base;
    return intArgument(node, 3, "storage_offset", std::nullopt);
  }

  // Views that start `start` elements into dimension `dim`.
  std::optional<SymExpr> dim, start;
  if (name == "slice") {
    dim = intArgument(node, 1, "dim", 0);
    start = intArgument(node, 2, "start", 0);
  } else if (name == "select") {
    dim = intArgument(node, 1, "dim", std::nullopt);
    start = intArgument(node, 2, "index", std::nullopt);
  } else if (name == "narrow") {
    dim = intArgument(node, 1, "dim", std::nullopt);
    start = intArgument(node, 2, "start", std::nullopt);
  } else if (name == "diagonal") {
    std::optional<SymExpr> offset = intArgument(node, 1, "offset", 0);
    std::optional<SymExpr> dim1 = intArgument(node, 2, "dim1", 0);
    std::optional<SymExpr> dim2 = intArgument(node, 3, "dim2", 1);
    if (!offset || !offset->constantValue())
      return std::nullopt;
    int64_t diagonalOffset = *offset->constantValue();
    dim = diagonalOffset >= 0 ? dim2 : dim1;
    start = SymExpr::constant(diagonalOffset >= 0 ? diagonalOffset : -diagonalOffset);
  } else {
    return std::nullopt;
  }
  std::optional<size_t> d = normalizeDim(dim, input->sizes.size());
  if (!d || !start)
    return std::nullopt;
  SymExpr size = input->sizes[*d];
  std::optional<int64_t> constantStart = start->constantValue();
  if (constantStart && *constantStart < 0) { // Python-style negative index, clamped as slice does
    std::optional<int64_t> constantSize = size.constantValue();
    if (!constantSize)
      return std::nullopt;
    start = SymExpr::constant(std::max<int64_t>(*constantStart + *constantSize, 0));
  } else if (!detail::atLeast(sym_, *start, 0)) {
    return std::nullopt; // a dynamic int may be negative, and then counts from the end
  } else if (name == "slice") {
    // A start past the end is clamped to it (select and narrow raise instead).
    std::optional<int> sign = detail::compareSizes(sym_, size, *start);
    if (!sign)
      return std::nullopt;
    if (*sign < 0)
      start = size;
  }
  if (*start == SymExpr::constant(0))
    return base;
  if (!input->strides)
    return std::nullopt;
  return sym_.add(base, sym_.mul(*start, (*input->strides)[*d]));
}

const Node* LayoutAnalysis::Impl::functionalizedCopySource(const Node* producer,
                                                           int64_t index) const {
  // The copies are made with clone_preserve_strides: each keeps its argument's strides and
  // storage offset; one that reinplacing left out is the argument itself (FunctionalizedOutputs).
  // auto_functionalized_v2's copies are of the bases, not of the views op mutates.
  std::optional<FunctionalizedOutputs> outputs =
      functionalizedOutputs(producer, effects_.schemas());
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

std::optional<std::span<const SymExpr>>
LayoutAnalysis::Impl::elementStrides(const Node* getitem) const {
  if (getitem->args().size() != 2 || !getitem->args()[0].isNode())
    return std::nullopt;
  const Node* producer = getitem->args()[0].node();
  if (producer->isCall() && producer->target()->isHigherOrder() &&
      getitem->args()[1].kind == ArgKind::Int) {
    const Node* source = functionalizedCopySource(producer, getitem->args()[1].integer);
    const Layout* layout = source ? input(source) : nullptr;
    return layout ? layout->strides : std::nullopt;
  }
  if (std::optional<detail::IndexedLayout> indexed = tensorIndexLayout(getitem);
      indexed && indexed->strides)
    return save(*indexed->strides);
  return std::nullopt;
}

std::optional<detail::IndexedLayout>
LayoutAnalysis::Impl::tensorIndexLayout(const Node* node) const {
  if (!node->target()->isOperator("getitem") || node->args().size() != 2 ||
      !node->args()[0].isNode() || node->type().kind != TypeAnnotation::Kind::Tensor)
    return std::nullopt;
  const Node* container = node->args()[0].node();
  OutputAlias result = effects_.result(node);
  if (effects_.hasOutputs(container) || result.kind != OutputAlias::Kind::Aliases ||
      result.input != container)
    return std::nullopt;
  const Layout* input = this->input(container);
  if (!input)
    return std::nullopt;
  return detail::indexedLayout(sym_, *input, node->args()[1], node->type().tensor->sizes);
}

std::optional<SymExpr> LayoutAnalysis::Impl::splitElementOffset(const Node* getitem) const {
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
    d = normalizeDim(intArgument(producer, 2, "dim", 0), input->sizes.size());
    std::optional<SymExpr> splitSize = intArgument(producer, 1, "split_size", std::nullopt);
    if (!splitSize || !d)
      return std::nullopt;
    std::optional<int64_t> i = position([&] { return sym_.ceilDiv(input->sizes[*d], *splitSize); });
    if (!i)
      return std::nullopt;
    start = sym_.mul(SymExpr::constant(*i), *splitSize);
  } else if (name == "split_with_sizes" || name == "unsafe_split_with_sizes") {
    d = normalizeDim(intArgument(producer, 2, "dim", 0), input->sizes.size());
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
    d = normalizeDim(intArgument(producer, 1, "dim", 0), input->sizes.size());
    std::optional<int64_t> i = d ? position([&] { return input->sizes[*d]; }) : std::nullopt;
    if (!i)
      return std::nullopt;
    start = SymExpr::constant(*i);
  } else if (name == "chunk") {
    d = normalizeDim(intArgument(producer, 2, "dim", 0), input->sizes.size());
    std::optional<SymExpr> chunks = intArgument(producer, 1, "chunks", std::nullopt);
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
