// Defunctionalization: each functionalized mutating call whose copies DESIGN.md section 4b
// proves unneeded becomes the mutating call, over storages updated as calls are rewritten.
#include "declone/transforms/Defunctionalization.h"

#include "CloneEliminationImpl.h"
#include "FunctionalCall.h"
#include "declone/analysis/AliasAnalysis.h"
#include "declone/analysis/SubgraphEffects.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace declone {

std::string_view reasonCode(CopyKeepReason reason) {
  switch (reason) {
  case CopyKeepReason::NotRewritable:
    return "not-rewritable";
  case CopyKeepReason::ViewReplay:
    return "view-replay";
  case CopyKeepReason::UnknownEffects:
    return "unknown-effects";
  case CopyKeepReason::InputMutation:
    return "input-mutation";
  case CopyKeepReason::ArgumentOverlap:
    return "argument-overlap";
  case CopyKeepReason::SourceReadAfterWrite:
    return "source-read-after-write";
  case CopyKeepReason::OutputAlias:
    return "output-alias";
  case CopyKeepReason::CallKept:
    return "call-kept";
  }
  return "unknown";
}

std::string_view orderName(PassOrder order) {
  return order == PassOrder::ClonesFirst ? "clones-first" : "copies-first";
}

std::optional<PassOrder> parseOrder(std::string_view name) {
  if (name == "clones-first")
    return PassOrder::ClonesFirst;
  if (name == "copies-first")
    return PassOrder::CopiesFirst;
  return std::nullopt;
}

DefunctionalizationStats&
DefunctionalizationStats::operator+=(const DefunctionalizationStats& other) {
  calls += other.calls;
  rewritten += other.rewritten;
  copies += other.copies;
  avoided += other.avoided;
  for (size_t i = 0; i < kNumCopyKeepReasons; ++i)
    kept[i] += other.kept[i];
  bytesAvoided += other.bytesAvoided;
  avoidedSymbolic += other.avoidedSymbolic;
  return *this;
}

namespace {

using detail::describe;
using detail::FunctionalCall;
using Event = AliasAnalysis::Event;
using StorageId = AliasAnalysis::StorageId;

/// A layout's offset and its (size, stride) pairs of size above one, when all are static.
struct StaticExtent {
  int64_t offset = 0;
  std::vector<std::pair<int64_t, int64_t>> dims;
  bool empty = false;
};

std::optional<StaticExtent> staticExtent(const Layout* layout) {
  if (!layout || !layout->strides || !layout->storageOffset || layout->changedInPlaceBy)
    return std::nullopt;
  StaticExtent extent;
  std::optional<int64_t> offset = layout->storageOffset->constantValue();
  if (!offset)
    return std::nullopt;
  extent.offset = *offset;
  for (size_t i = 0; i < layout->sizes.size(); ++i) {
    std::optional<int64_t> size = layout->sizes[i].constantValue();
    std::optional<int64_t> stride = (*layout->strides)[i].constantValue();
    if (!size || !stride || *stride < 0)
      return std::nullopt;
    if (*size == 0)
      extent.empty = true;
    if (*size > 1)
      extent.dims.emplace_back(*size, *stride);
  }
  return extent;
}

/// Bytes clone_preserve_strides copies: the storage up to the tensor's last element.
std::optional<uint64_t> copyBytes(const Node* value, const LayoutAnalysis& layouts) {
  const Layout* layout = layouts.layout(value);
  if (!layout)
    return std::nullopt;
  if (std::optional<StaticExtent> extent = staticExtent(layout)) {
    if (extent->empty)
      return 0;
    int64_t last = extent->offset;
    for (auto [size, stride] : extent->dims)
      last += (size - 1) * stride;
    return static_cast<uint64_t>(last + 1) * elementSize(layout->dtype);
  }
  uint64_t elements = 1;
  for (SymExpr size : layout->sizes) {
    std::optional<int64_t> constant = size.constantValue();
    if (!constant || *constant < 0)
      return std::nullopt;
    elements *= static_cast<uint64_t>(*constant);
  }
  return elements * elementSize(layout->dtype);
}

/// Whether two tensors provably share no element: their address ranges are disjoint, or every
/// address of each is a multiple of a common M plus a residue, and the residues are disjoint
/// (q and k, column slices of one matrix).
bool provablyDisjoint(const Layout* a, const Layout* b) {
  std::optional<StaticExtent> x = staticExtent(a), y = staticExtent(b);
  if (!x || !y || a->dtype != b->dtype)
    return false;
  if (x->empty || y->empty)
    return true;
  auto last = [](const StaticExtent& e) {
    int64_t end = e.offset;
    for (auto [size, stride] : e.dims)
      end += (size - 1) * stride;
    return end;
  };
  if (last(*x) < y->offset || last(*y) < x->offset)
    return true;
  // The innermost dimension of each (smallest stride) gives a run of residues; the others must
  // step by multiples of M.
  auto inner = [](const StaticExtent& e) {
    return std::min_element(e.dims.begin(), e.dims.end(),
                            [](auto p, auto q) { return p.second < q.second; });
  };
  auto xi = inner(*x), yi = inner(*y);
  int64_t modulus = 0;
  for (const StaticExtent* e : {&*x, &*y})
    for (auto it = e->dims.begin(); it != e->dims.end(); ++it)
      if (it != (e == &*x ? xi : yi))
        modulus = std::gcd(modulus, it->second);
  if (modulus <= 0)
    return false;
  auto residues = [&](const StaticExtent& e,
                      auto it) -> std::optional<std::pair<int64_t, int64_t>> {
    int64_t start = e.offset % modulus;
    int64_t end = start + (it == e.dims.end() ? 0 : (it->first - 1) * it->second);
    if (end >= modulus)
      return std::nullopt;
    return std::pair(start, end);
  };
  auto rx = residues(*x, xi), ry = residues(*y, yi);
  return rx && ry && (rx->second < ry->first || ry->second < rx->first);
}

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

/// Whether `view` is exactly the elements `slice_scatter(base, _, dim, start, end, step)` (the
/// call `step`) writes: the slice of `base` it describes, by static layouts.
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
  for (size_t i = 0; i < base->sizes.size(); ++i) {
    std::optional<int64_t> expected =
        i == d ? std::optional<int64_t>(last - first) : base->sizes[i].constantValue();
    std::optional<int64_t> actual = view->sizes[i].constantValue();
    if (!expected || expected != actual)
      return false;
    if (*actual > 1 && (*base->strides)[i] != (*view->strides)[i])
      return false;
  }
  return true;
}

class Defunctionalizer {
public:
  Defunctionalizer(Graph& graph, const DefunctionalizationOptions& options,
                   const SchemaRegistry& schemas, const SubgraphTable* subgraphs,
                   DefunctionalizationResult& result)
      : graph_(graph), schemas_(schemas),
        effects_(graph, schemas, EffectAnalysis::countReferences(graph), subgraphs),
        alias_(graph, effects_, options.donated),
        layouts_(graph, effects_, detail::passLayoutOptions(options.layout)), result_(result),
        collectRemarks_(options.collectRemarks) {
    link_.resize(alias_.numStorages());
    std::iota(link_.begin(), link_.end(), StorageId(0));
  }

  void run() {
    std::vector<std::pair<Node*, std::vector<Node*>>> rewrites;
    for (Node* node : graph_)
      if (std::optional<FunctionalCall> call = detail::parseFunctionalCall(node, schemas_)) {
        std::vector<Node*> chain = writtenBackChain(*call);
        if (decide(*call, chain))
          rewrites.emplace_back(node, std::move(chain));
      }
    if (rewrites.empty())
      return;
    // The analyses are of the graph as given; each rewrite is made on the graph as rewritten so
    // far, whose earlier rewrites replaced the elements this call may take as arguments.
    detail::NameSource names(graph_);
    for (const auto& [node, chain] : rewrites) {
      result_.rewritten.emplace_back(node->name());
      detail::rewriteFunctionalCall(graph_, *detail::parseFunctionalCall(node, schemas_), names,
                                    chain);
    }
    result_.changed = true;
  }

private:
  /// What the rules know of a storage of the program as rewritten so far: a rewrite makes each
  /// copy's element the value it copied, merging their storages.
  struct Merged {
    bool graphInput = false, donated = false, attribute = false, returned = false;
    const Node* unknownToucher = nullptr;
    [[nodiscard]] bool observedByCaller() const { return (graphInput && !donated) || attribute; }
  };
  using Verdict = std::optional<std::pair<CopyKeepReason, std::string>>;

  StorageId find(StorageId id) {
    while (link_[id] != id)
      id = link_[id] = link_[link_[id]];
    return id;
  }
  StorageId storage(const Node* value) {
    StorageId id = alias_.storageOf(value);
    return id == AliasAnalysis::kNoStorage ? id : find(id);
  }
  /// The analysis's storages a merged storage is made of.
  std::span<const StorageId> members(const StorageId& root) const {
    auto it = members_.find(root);
    return it == members_.end() ? std::span<const StorageId>(&root, 1)
                                : std::span<const StorageId>(it->second);
  }
  void merge(StorageId into, StorageId from) {
    into = find(into);
    from = find(from);
    if (into == from)
      return;
    std::vector<StorageId> joined(members(into).begin(), members(into).end());
    joined.insert(joined.end(), members(from).begin(), members(from).end());
    members_.erase(from);
    members_[into] = std::move(joined);
    link_[from] = into;
  }
  Merged merged(StorageId root) const {
    Merged state;
    for (StorageId id : members(root)) {
      const AliasAnalysis::StorageInfo& info = alias_.info(id);
      state.donated = state.graphInput && info.graphInput ? state.donated && info.donated
                      : state.graphInput                  ? state.donated
                                                          : info.donated;
      state.graphInput = state.graphInput || info.graphInput;
      state.attribute = state.attribute || info.attribute;
      state.returned = state.returned || info.returned;
      if (!state.unknownToucher)
        state.unknownToucher = info.unknownToucher;
    }
    return state;
  }
  /// The accesses of a (merged) storage after `position`, in program order.
  std::vector<Event> eventsAfter(StorageId root, uint32_t position) const {
    std::vector<Event> events;
    for (StorageId id : members(root))
      for (const Event& event : alias_.events(id))
        if (event.position > position)
          events.push_back(event);
    std::stable_sort(events.begin(), events.end(),
                     [](const Event& a, const Event& b) { return a.position < b.position; });
    return events;
  }

  /// The call's scatter-back chain (detail::scatterChain) when each step writes back exactly
  /// the view its copy is of, into the one base they all view; else empty.
  std::vector<Node*> writtenBackChain(const FunctionalCall& call) const;
  bool decide(const FunctionalCall& call, std::span<Node* const> chain);
  Verdict check(const FunctionalCall& call, const FunctionalCall::Copy& copy,
                std::span<Node* const> chain);
  void remark(const FunctionalCall& call, const FunctionalCall::Copy& copy, const Verdict& verdict);

  Graph& graph_;
  const SchemaRegistry& schemas_;
  EffectAnalysis effects_;
  const AliasAnalysis alias_;
  const LayoutAnalysis layouts_;
  DefunctionalizationResult& result_;
  bool collectRemarks_;
  std::vector<StorageId> link_; ///< union-find over storages merged by rewrites
  /// The members of each merged storage, by root (a storage no rewrite merged is its own).
  std::unordered_map<StorageId, std::vector<StorageId>> members_;
};

std::string eventText(const Event& event) {
  std::string value(event.value->name());
  switch (event.kind) {
  case Event::Kind::Return:
    return value + " is returned";
  case Event::Kind::Write:
    return describe(event.node) + " writes " + value;
  case Event::Kind::Read:
    break;
  }
  return describe(event.node) + " reads " + value;
}

/// AOTAutograd's write-back of a mutated input: `copy_(value, element)` with an element of the
/// copy of `value` (or the end of its scatter-back chain), which the rewrite turns into a copy
/// of the value onto itself.
bool isWriteBack(const Event& event, const Node* value, std::span<const Node* const> elements) {
  const Node* node = event.node;
  if (event.kind != Event::Kind::Write || !node->isCall() ||
      !node->target()->isOp("aten", "copy_") || node->args().size() < 2 ||
      !node->args()[0].isNode() || node->args()[0].node() != value || !node->args()[1].isNode())
    return false;
  return std::find(elements.begin(), elements.end(), node->args()[1].node()) != elements.end();
}

std::vector<Node*> Defunctionalizer::writtenBackChain(const FunctionalCall& call) const {
  std::vector<Node*> chain = detail::scatterChain(call);
  if (chain.empty())
    return chain;
  const Node* base = chain.front()->args()[0].node();
  for (const Node* step : chain) {
    const Node* element = step->args()[1].node();
    auto copy = std::find_if(call.copies.begin(), call.copies.end(), [&](const auto& copy) {
      return !copy.results.empty() && copy.results[0] == element;
    });
    if (copy == call.copies.end() || alias_.storageOf(copy->value) != alias_.storageOf(base) ||
        !isScatteredRegion(step, layouts_.layout(base), layouts_.layout(copy->value)))
      return {};
  }
  return chain;
}

Defunctionalizer::Verdict Defunctionalizer::check(const FunctionalCall& call,
                                                  const FunctionalCall::Copy& copy,
                                                  std::span<Node* const> chain) {
  using Reason = CopyKeepReason;
  std::string name(copy.value->name());
  StorageId source = storage(copy.value);
  if (source == AliasAnalysis::kNoStorage)
    return std::pair(Reason::UnknownEffects, name + " is not a tensor the analysis follows");
  // What the rewrite makes the value: the copy's elements, or the end of the scatter-back chain
  // (whose steps then read the base in place of the elements, and are gone).
  std::vector<const Node*> elements(copy.results.begin(), copy.results.end());
  if (!chain.empty())
    elements.assign(1, chain.back());
  std::vector<StorageId> results;
  for (const Node* element : elements)
    if (StorageId id = storage(element); id != AliasAnalysis::kNoStorage)
      results.push_back(id);
  Merged sourceState = merged(source);

  // Unknown effects.
  for (StorageId id : results)
    if (id == source)
      return std::pair(Reason::UnknownEffects, "cannot tell " + name + " and its copy apart");
  for (StorageId id : [&] {
         auto all = results;
         all.push_back(source);
         return all;
       }()) {
    if (const Node* toucher = merged(id).unknownToucher) {
      std::string_view why = effects_.effects(toucher).unknownReason;
      return std::pair(Reason::UnknownEffects, describe(toucher) + " touches " +
                                                   (id == source ? name : "its copy") +
                                                   (why.empty() ? "" : ": " + std::string(why)));
    }
  }

  // A graph input the caller sees may be written only where the graph writes it back anyway.
  uint32_t position = call.node->order();
  std::vector<Event> after = eventsAfter(source, position);
  std::erase_if(after, [&](const Event& event) {
    return std::find(chain.begin(), chain.end(), event.node) != chain.end();
  });
  const Node* written = chain.empty() ? copy.value : chain.front()->args()[0].node();
  auto writeBack = [&](const Event& event) { return isWriteBack(event, written, elements); };
  bool writtenBack = !after.empty() && writeBack(after.front());
  if (sourceState.observedByCaller() && !writtenBack)
    return std::pair(Reason::InputMutation,
                     name +
                         (sourceState.graphInput ? " is a graph input that is not donated"
                                                 : " is module state the caller sees") +
                         (after.empty() ? std::string() : "; " + eventText(after.front())));

  // Written in place, the tensor would change under the op's other arguments.
  for (const auto& [argument, operand] : call.operands) {
    if ((argument == copy.name && operand == copy.value) || storage(operand) != source)
      continue;
    if (operand == copy.value ||
        !provablyDisjoint(layouts_.layout(copy.value), layouts_.layout(operand)))
      return std::pair(
          Reason::ArgumentOverlap,
          "the call also passes " + std::string(operand->name()) + " as '" + argument +
              "', which " +
              (operand == copy.value ? "is " + name : "may share memory with " + name));
  }

  // After the call the old contents must be dead, but for the write-back.
  if (!writtenBack && !after.empty())
    return std::pair(Reason::SourceReadAfterWrite, eventText(after.front()) + " after the call");
  if (writtenBack) {
    for (const Event& event : after)
      if (event.kind == Event::Kind::Write && !writeBack(event))
        return std::pair(Reason::SourceReadAfterWrite,
                         eventText(event) + " after the write-back " + describe(after[0].node));
    for (StorageId id : results)
      for (const Event& event : eventsAfter(id, after.front().position))
        if (event.kind == Event::Kind::Write)
          return std::pair(Reason::SourceReadAfterWrite,
                           eventText(event) + " after the write-back " + describe(after[0].node));
  }

  // No graph output may gain an alias.
  for (StorageId id : results) {
    if (!merged(id).returned)
      continue;
    if (sourceState.observedByCaller())
      return std::pair(Reason::OutputAlias,
                       "its copy is returned and would alias " +
                           std::string(sourceState.graphInput ? "graph input " : "module state ") +
                           name);
    if (sourceState.returned)
      return std::pair(Reason::OutputAlias,
                       name + " and its copy are both returned and would share storage");
  }
  return std::nullopt;
}

void Defunctionalizer::remark(const FunctionalCall& call, const FunctionalCall::Copy& copy,
                              const Verdict& verdict) {
  std::optional<uint64_t> bytes =
      copy.value ? copyBytes(copy.value, layouts_) : std::optional<uint64_t>();
  ++result_.stats.copies;
  if (verdict) {
    ++result_.stats.kept[static_cast<size_t>(verdict->first)];
  } else {
    ++result_.stats.avoided;
    if (bytes)
      result_.stats.bytesAvoided += *bytes;
    else
      ++result_.stats.avoidedSymbolic;
  }
  if (!collectRemarks_)
    return;
  Remark remark;
  remark.node = std::string(call.node->name());
  remark.line = call.node->line();
  remark.copy = copy.name;
  remark.bytes = bytes;
  remark.decision = verdict ? Remark::Decision::Kept : Remark::Decision::Removed;
  if (verdict) {
    remark.reason = std::string(reasonCode(verdict->first));
    remark.detail = verdict->second;
  } else {
    remark.detail = "written in place";
    if (copy.value)
      remark.detail += ": " + std::string(copy.value->name());
  }
  result_.remarks.push_back(std::move(remark));
}

bool Defunctionalizer::decide(const FunctionalCall& call, std::span<Node* const> chain) {
  ++result_.stats.calls;
  std::vector<const FunctionalCall::Copy*> copies;
  for (const FunctionalCall::Copy& copy : call.copies)
    if (copy.value && !copy.inPlace)
      copies.push_back(&copy);
  if (!call.notRewritable.empty() && copies.empty()) {
    // Which copies the call makes is not known (no schema): one remark says why.
    FunctionalCall::Copy unknown;
    unknown.name = "*";
    remark(call, unknown, std::pair(CopyKeepReason::NotRewritable, call.notRewritable));
    return false;
  }
  if (copies.empty())
    return false; // nothing is copied: the call is as good as the mutating one
  std::vector<Verdict> verdicts;
  for (const FunctionalCall::Copy* copy : copies) {
    if (!call.notRewritable.empty())
      verdicts.emplace_back(std::pair(CopyKeepReason::NotRewritable, call.notRewritable));
    else if (!call.viewReplay.empty())
      verdicts.emplace_back(std::pair(CopyKeepReason::ViewReplay, call.viewReplay));
    else
      verdicts.push_back(check(call, *copy, chain));
  }
  auto blocking = std::find_if(verdicts.begin(), verdicts.end(),
                               [](const Verdict& verdict) { return verdict.has_value(); });
  if (blocking != verdicts.end()) {
    const FunctionalCall::Copy& first = *copies[size_t(blocking - verdicts.begin())];
    for (size_t i = 0; i < copies.size(); ++i)
      remark(call, *copies[i],
             verdicts[i]
                 ? verdicts[i]
                 : Verdict(std::pair(CopyKeepReason::CallKept,
                                     "the copy of '" + first.name + "' must stay [" +
                                         std::string(reasonCode((*blocking)->first)) + "]")));
    return false;
  }
  for (const FunctionalCall::Copy* copy : copies) {
    remark(call, *copy, std::nullopt);
    StorageId source = storage(copy->value);
    for (const Node* element : copy->results)
      if (StorageId id = storage(element); id != AliasAnalysis::kNoStorage)
        merge(source, id);
    if (StorageId end = chain.empty() ? AliasAnalysis::kNoStorage : storage(chain.back());
        end != AliasAnalysis::kNoStorage)
      merge(source, end);
  }
  ++result_.stats.rewritten;
  return true;
}

/// Whether the graph has a call for the pass to decide: most graphs have none, and the
/// analyses cost a walk each.
bool hasFunctionalCalls(const Graph& graph) {
  return std::any_of(graph.begin(), graph.end(), [](const Node* node) {
    return node->isCall() && isFunctionalHigherOrder(*node->target());
  });
}

} // namespace

DefunctionalizationResult defunctionalize(Graph& graph, const DefunctionalizationOptions& options) {
  const SchemaRegistry& schemas = options.schemas ? *options.schemas : SchemaRegistry::builtin();
  DefunctionalizationResult result;
  if (hasFunctionalCalls(graph))
    Defunctionalizer(graph, options, schemas, nullptr, result).run();
  return result;
}

DefunctionalizationResult defunctionalize(GraphModule& module,
                                          const DefunctionalizationOptions& options) {
  const SchemaRegistry& schemas = options.schemas ? *options.schemas : SchemaRegistry::builtin();
  DefunctionalizationResult total;
  if (!hasFunctionalCalls(module.graph)) {
    // Nothing to decide here; the subgraphs below may have calls.
  } else if (!module.children.empty()) {
    SubgraphTable subgraphs(module, schemas);
    Defunctionalizer(module.graph, options, schemas, &subgraphs, total).run();
  } else {
    Defunctionalizer(module.graph, options, schemas, nullptr, total).run();
  }
  if (!options.includeSubgraphs)
    return total;
  DefunctionalizationOptions nested = options;
  nested.donated.clear(); // a subgraph's inputs belong to its caller
  for (auto& child : module.children) {
    DefunctionalizationResult result = defunctionalize(*child, nested);
    total.changed = total.changed || result.changed;
    total.stats += result.stats;
    std::move(result.remarks.begin(), result.remarks.end(), std::back_inserter(total.remarks));
    std::move(result.rewritten.begin(), result.rewritten.end(),
              std::back_inserter(total.rewritten));
  }
  return total;
}

DefunctionalizationOptions defunctionalizationOptions(const CloneEliminationOptions& options) {
  DefunctionalizationOptions copies;
  copies.donated = options.donated;
  copies.schemas = options.schemas;
  copies.collectRemarks = options.collectRemarks;
  copies.includeSubgraphs = options.includeSubgraphs;
  copies.layout = options.layout;
  return copies;
}

CopyEliminationResult eliminateCopies(GraphModule& module, const CloneEliminationOptions& options,
                                      PassOrder order) {
  CopyEliminationResult result;
  if (order == PassOrder::ClonesFirst)
    result.clones = eliminateClones(module, options);
  result.copies = defunctionalize(module, defunctionalizationOptions(options));
  if (order == PassOrder::CopiesFirst)
    result.clones = eliminateClones(module, options);
  return result;
}

} // namespace declone
