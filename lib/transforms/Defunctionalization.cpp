// Defunctionalization: each functionalized mutating call whose copies DESIGN.md section 4b
// proves unneeded becomes the mutating call, over storages updated as calls are rewritten.
#include "declone/transforms/Defunctionalization.h"

#include "CloneEliminationImpl.h"
#include "CopyGeometry.h"
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

class Defunctionalizer {
public:
  /// `nested`: a subgraph's, whose inputs belong to its caller and may be one tensor passed
  /// twice.
  Defunctionalizer(Graph& graph, const DefunctionalizationOptions& options,
                   const SchemaRegistry& schemas, const SubgraphTable* subgraphs, bool nested,
                   DefunctionalizationResult& result)
      : graph_(graph), schemas_(schemas),
        effects_(graph, schemas, EffectAnalysis::countReferences(graph), subgraphs),
        alias_(graph, effects_, options.donated),
        layouts_(graph, effects_, detail::passLayoutOptions(options.layout)), result_(result),
        nested_(nested) {
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
    // The larger list takes in the smaller: a chain of n rewrites moves O(n log n) ids.
    if (members(into).size() < members(from).size())
      std::swap(into, from);
    std::vector<StorageId> moved(members(from).begin(), members(from).end());
    members_.erase(from);
    std::vector<StorageId>& joined = members_[into];
    if (joined.empty())
      joined.push_back(into);
    joined.insert(joined.end(), moved.begin(), moved.end());
    link_[from] = into;
  }
  /// What the rules know of a storage as rewrites so far have merged it.
  detail::StorageFlags merged(StorageId root) const {
    detail::StorageFlags flags;
    for (StorageId id : members(root))
      flags.absorb(detail::StorageFlags::of(alias_.info(id)));
    return flags;
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
  bool isWriteBack(const Event& event, const Node* value, std::span<const Node* const> elements);
  /// (v2) Why a view the call rebuilds with as_strided may reach outside its base, or empty.
  [[nodiscard]] std::string viewOutsideBase(const FunctionalCall& call) const;
  Verdict check(const FunctionalCall& call, const FunctionalCall::Copy& copy,
                std::span<Node* const> chain);
  void remark(const FunctionalCall& call, const FunctionalCall::Copy& copy, const Verdict& verdict);

  Graph& graph_;
  const SchemaRegistry& schemas_;
  EffectAnalysis effects_;
  const AliasAnalysis alias_;
  const LayoutAnalysis layouts_;
  DefunctionalizationResult& result_;
  bool nested_;
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
/// of the value onto itself; also through views (a KV cache written as bytes and copied back
/// as floats): the destination covers the bytes the op writes, and the source, a view of the
/// copy, is the destination's view of it.
bool Defunctionalizer::isWriteBack(const Event& event, const Node* value,
                                   std::span<const Node* const> elements) {
  const Node* node = event.node;
  if (event.kind != Event::Kind::Write || !node->isCall() ||
      !node->target()->isOp("aten", "copy_") || node->args().size() < 2 ||
      !node->args()[0].isNode() || !node->args()[1].isNode())
    return false;
  const Node* destination = node->args()[0].node();
  const Node* source = node->args()[1].node();
  if (destination == value && std::find(elements.begin(), elements.end(), source) != elements.end())
    return true;
  StorageId copied = storage(source);
  bool ofTheCopy = std::any_of(elements.begin(), elements.end(),
                               [&](const Node* element) { return storage(element) == copied; });
  return ofTheCopy && storage(destination) == storage(value) &&
         (destination == value ||
          detail::sameBytes(layouts_.layout(destination), layouts_.layout(value))) &&
         detail::sameView(layouts_.layout(destination), layouts_.layout(source));
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
        !detail::isScatteredRegion(step, layouts_.layout(base), layouts_.layout(copy->value)))
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
  detail::StorageFlags sourceState = merged(source);
  // A kernel writes memory: through a view with the negative or conjugate bit it would write
  // the bits' inverse of what the copy (which resolves them) holds.
  if (const Layout* layout = layouts_.layout(copy.value);
      layout && (layout->neg != ViewBit::Clear || layout->conj != ViewBit::Clear))
    return std::pair(Reason::NotRewritable,
                     name + " may have its negative or conjugate bit set: written in place it "
                            "would not hold what its copy holds");

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
  // A subgraph's inputs may be one tensor passed twice: a write-back proves nothing there.
  bool writtenBack =
      !after.empty() && writeBack(after.front()) && !(nested_ && sourceState.graphInput);
  if (sourceState.observedByCaller() && !writtenBack) {
    std::string root(alias_.info(source).root->name());
    std::string what = sourceState.graphInput ? "a graph input that is not donated"
                                              : "module state the caller sees";
    return std::pair(Reason::InputMutation,
                     (root == name ? name + " is " + what : name + " views " + root + ", " + what) +
                         (after.empty() ? std::string() : "; " + eventText(after.front())));
  }

  // The tensor object itself is the caller's: a layout change of the value or its copy after
  // the call (set_, resize_, t_) would reach it.
  if (sourceState.graphInput || sourceState.attribute)
    for (const LayoutChange& change : effects_.layoutChanges()) {
      if (change.op->order() <= position)
        continue;
      StorageId changed = storage(change.value);
      if (changed == source || std::find(results.begin(), results.end(), changed) != results.end())
        return std::pair(Reason::InputMutation, describe(change.op) + " changes the layout of " +
                                                    std::string(change.value->name()) +
                                                    " in place, which would be " + name);
    }

  // Written in place, the tensor would change under the op's other arguments.
  for (const auto& [argument, operand] : call.operands) {
    if ((argument == copy.name && operand == copy.value) || storage(operand) != source)
      continue;
    if (operand == copy.value ||
        !detail::provablyDisjoint(layouts_.layout(copy.value), layouts_.layout(operand)))
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
                           std::string(alias_.info(source).root->name()));
    if (sourceState.returned)
      return std::pair(Reason::OutputAlias,
                       name + " and its copy are both returned and would share storage");
  }
  return std::nullopt;
}

void Defunctionalizer::remark(const FunctionalCall& call, const FunctionalCall::Copy& copy,
                              const Verdict& verdict) {
  Remark remark;
  remark.node = std::string(call.node->name());
  remark.line = call.node->line();
  remark.copy = copy.name;
  remark.bytes =
      copy.value ? detail::copyBytes(layouts_.layout(copy.value)) : std::optional<uint64_t>();
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

std::string Defunctionalizer::viewOutsideBase(const FunctionalCall& call) const {
  if (call.kind != FunctionalCall::Kind::V2)
    return {};
  // as_strided's offset counts from the storage's start: the view may reach elements of the
  // storage that are not its base's, which the copy (of the base's extent) never showed.
  for (const KwArg& kwarg : call.node->kwargs()) {
    if (!kwarg.name.ends_with("_storage_offset"))
      continue;
    std::string prefix(kwarg.name.substr(0, kwarg.name.size() - sizeof("_storage_offset") + 1));
    const Arg* index = call.node->kwarg(prefix + "_base_index");
    const Arg* size = call.node->kwarg(prefix + "_size");
    const Arg* stride = call.node->kwarg(prefix + "_stride");
    if (!index || index->kind != ArgKind::Int || !size || !stride)
      continue; // viewReplay says so
    auto constants = [](const Arg& list) {
      std::vector<SymExpr> values;
      for (const Arg& element : list.children())
        if (element.kind == ArgKind::Int)
          values.push_back(SymExpr::constant(element.integer));
      return values.size() == list.children().size() ? values : std::vector<SymExpr>{SymExpr()};
    };
    std::vector<SymExpr> sizes = constants(*size), strides = constants(*stride);
    const Node* base = call.copies[size_t(index->integer)].value;
    if (kwarg.value.kind != ArgKind::Int || sizes.size() != size->children().size() ||
        strides.size() != stride->children().size() ||
        !detail::withinBase(layouts_.layout(base), sizes, strides,
                            SymExpr::constant(kwarg.value.integer)))
      return prefix + "'s as_strided view is not provably within its base " +
             std::string(base->name());
  }
  return {};
}

bool Defunctionalizer::decide(const FunctionalCall& call, std::span<Node* const> chain) {
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
  std::string outside =
      call.notRewritable.empty() && call.viewReplay.empty() ? viewOutsideBase(call) : std::string();
  std::vector<Verdict> verdicts;
  // Copies of one storage whose elements are returned: written in place, those outputs would
  // share it.
  std::vector<StorageId> returnedSources;
  for (const FunctionalCall::Copy* copy : copies) {
    if (!call.notRewritable.empty())
      verdicts.emplace_back(std::pair(CopyKeepReason::NotRewritable, call.notRewritable));
    else if (!call.viewReplay.empty() || !outside.empty())
      verdicts.emplace_back(std::pair(CopyKeepReason::ViewReplay,
                                      call.viewReplay.empty() ? outside : call.viewReplay));
    else
      verdicts.push_back(check(call, *copy, chain));
    if (verdicts.back() || !chain.empty())
      continue;
    StorageId source = storage(copy->value);
    bool returned = std::any_of(copy->results.begin(), copy->results.end(), [&](const Node* e) {
      StorageId id = storage(e);
      return id != AliasAnalysis::kNoStorage && merged(id).returned;
    });
    if (!returned)
      continue;
    if (std::find(returnedSources.begin(), returnedSources.end(), source) != returnedSources.end())
      verdicts.back() =
          std::pair(CopyKeepReason::OutputAlias,
                    "its copy and another copy of the call on the storage of " +
                        std::string(copy->value->name()) + " are returned and would share it");
    returnedSources.push_back(source);
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

namespace {

/// Rounds of the pass on one graph: a call kept because a later call's result is written back
/// to its input is freed once that later call is rewritten, and a round after decides it again.
constexpr int kMaxRounds = 8;

DefunctionalizationResult runRounds(Graph& graph, const DefunctionalizationOptions& options,
                                    const SchemaRegistry& schemas, const SubgraphTable* subgraphs,
                                    bool nested) {
  DefunctionalizationResult total;
  if (!hasFunctionalCalls(graph))
    return total;
  // Remarks in the order of the calls in the graph as given.
  std::unordered_map<std::string_view, size_t> position;
  for (const Node* node : graph)
    if (node->isCall() && isFunctionalHigherOrder(*node->target()))
      position.emplace(node->name(), position.size());
  std::vector<Remark> remarks;
  for (int round = 0; round < kMaxRounds; ++round) {
    DefunctionalizationResult pass;
    Defunctionalizer(graph, options, schemas, subgraphs, nested, pass).run();
    // Removed copies are final; kept ones are decided again in the next round.
    std::erase_if(remarks, [](const Remark& r) { return r.decision == Remark::Decision::Kept; });
    std::move(pass.remarks.begin(), pass.remarks.end(), std::back_inserter(remarks));
    std::move(pass.rewritten.begin(), pass.rewritten.end(), std::back_inserter(total.rewritten));
    total.changed = total.changed || pass.changed;
    bool anyKept = std::any_of(remarks.begin(), remarks.end(), [](const Remark& r) {
      return r.decision == Remark::Decision::Kept;
    });
    if (!pass.changed || !anyKept)
      break;
  }
  std::stable_sort(remarks.begin(), remarks.end(), [&](const Remark& a, const Remark& b) {
    return position.at(a.node) < position.at(b.node);
  });
  DefunctionalizationStats& stats = total.stats;
  stats.calls = position.size();
  stats.rewritten = total.rewritten.size();
  for (const Remark& remark : remarks) {
    ++stats.copies;
    if (remark.decision == Remark::Decision::Kept) {
      for (size_t i = 0; i < kNumCopyKeepReasons; ++i)
        if (reasonCode(static_cast<CopyKeepReason>(i)) == *remark.reason)
          ++stats.kept[i];
      continue;
    }
    ++stats.avoided;
    if (remark.bytes)
      stats.bytesAvoided += *remark.bytes;
    else
      ++stats.avoidedSymbolic;
  }
  if (options.collectRemarks)
    total.remarks = std::move(remarks);
  return total;
}

DefunctionalizationResult runOnModule(GraphModule& module,
                                      const DefunctionalizationOptions& options, bool nested) {
  const SchemaRegistry& schemas = options.schemas ? *options.schemas : SchemaRegistry::builtin();
  DefunctionalizationResult total;
  if (module.children.empty() || !hasFunctionalCalls(module.graph)) {
    total = runRounds(module.graph, options, schemas, nullptr, nested);
  } else {
    // The bodies are summarised as given: their own rewrites never write their inputs anew.
    SubgraphTable subgraphs(module, schemas);
    total = runRounds(module.graph, options, schemas, &subgraphs, nested);
  }
  if (!options.includeSubgraphs)
    return total;
  DefunctionalizationOptions inner = options;
  inner.donated.clear(); // a subgraph's inputs belong to its caller
  for (auto& child : module.children) {
    DefunctionalizationResult result = runOnModule(*child, inner, true);
    total.changed = total.changed || result.changed;
    total.stats += result.stats;
    std::move(result.remarks.begin(), result.remarks.end(), std::back_inserter(total.remarks));
    std::move(result.rewritten.begin(), result.rewritten.end(),
              std::back_inserter(total.rewritten));
  }
  return total;
}

} // namespace

DefunctionalizationResult defunctionalize(Graph& graph, const DefunctionalizationOptions& options) {
  const SchemaRegistry& schemas = options.schemas ? *options.schemas : SchemaRegistry::builtin();
  return runRounds(graph, options, schemas, nullptr, false);
}

DefunctionalizationResult defunctionalize(GraphModule& module,
                                          const DefunctionalizationOptions& options) {
  return runOnModule(module, options, false);
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
