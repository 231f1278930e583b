// The safe mode: every rule of DESIGN.md section 4, over storages updated as clones are removed.
#include "CloneEliminationImpl.h"
#include "declone/analysis/AliasAnalysis.h"

#include <algorithm>
#include <memory>
#include <set>
#include <utility>

namespace declone::detail {
namespace {

using Event = AliasAnalysis::Event;
using StorageId = AliasAnalysis::StorageId;

struct ByPosition {
  bool operator()(const Event& a, const Event& b) const { return a.position < b.position; }
};

/// Events ordered by position: a sorted run the analysis (or the eliminator) owns, plus what
/// removed clones merged in. Merging moves the smaller set into the larger, so each event moves
/// O(log n) times and a million clones of one input stay O(n log^2 n) in all. The run is viewed,
/// not copied, and the merged part is only allocated by a merge: a storage costs a few words.
class EventSet {
public:
  EventSet() = default;
  explicit EventSet(std::span<const Event> sorted) : base_(sorted) {}

  [[nodiscard]] size_t size() const { return base_.size() + (extra_ ? extra_->size() : 0); }

  /// The first event at or after `position` (of any kind), or null.
  [[nodiscard]] const Event* firstAtOrAfter(uint32_t position) const {
    auto inBase = std::lower_bound(base_.begin(), base_.end(), position,
                                   [](const Event& e, uint32_t at) { return e.position < at; });
    const Event* a = inBase == base_.end() ? nullptr : &*inBase;
    if (!extra_)
      return a;
    Event probe{position, Event::Kind::Read, nullptr, nullptr};
    auto inExtra = extra_->lower_bound(probe);
    const Event* b = inExtra == extra_->end() ? nullptr : &*inExtra;
    if (!a || (b && b->position < a->position))
      return b;
    return a;
  }

  /// Calls `visit` with every event at or after `position`, in order of position.
  template <class Visit> void forEachFrom(uint32_t position, Visit&& visit) const {
    auto base = std::lower_bound(base_.begin(), base_.end(), position,
                                 [](const Event& e, uint32_t at) { return e.position < at; });
    if (!extra_) {
      std::for_each(base, base_.end(), visit);
      return;
    }
    std::vector<Event> merged(base, base_.end());
    merged.insert(merged.end(),
                  extra_->lower_bound(Event{position, Event::Kind::Read, nullptr, nullptr}),
                  extra_->end());
    std::stable_sort(merged.begin(), merged.end(), ByPosition());
    std::for_each(merged.begin(), merged.end(), visit);
  }

  void absorb(EventSet&& other) {
    if (other.size() > size())
      std::swap(*this, other);
    if (other.size() == 0)
      return;
    if (!extra_)
      extra_ = std::make_unique<std::multiset<Event, ByPosition>>();
    extra_->insert(other.base_.begin(), other.base_.end());
    if (other.extra_)
      extra_->insert(other.extra_->begin(), other.extra_->end());
    other.base_ = {};
    other.extra_.reset();
  }

private:
  std::span<const Event> base_;
  std::unique_ptr<std::multiset<Event, ByPosition>> extra_;
};

/// What the rules need to know of one storage of the program as rewritten so far. Removing a
/// clone merges its storage into its source's, so later decisions see the rewritten program.
/// (The storage's root value is the analysis's: a merge keeps the source's.)
struct StorageState : StorageFlags {
  EventSet events; ///< every access
  EventSet writes; ///< the writes among them
};

/// What one walk of the graph finds before the analyses start: on a large graph each walk
/// is a pass over some hundred MB of nodes, so the analyses are handed these instead of
/// walking again.
struct GraphScan {
  std::vector<Node*> clones; ///< isClone(), in program order
  size_t references = 0;     ///< node references in arguments (EffectAnalysis's bound)
};

GraphScan scanGraph(const Graph& graph) {
  GraphScan scan;
  for (Node* node : graph) {
    node->forEachInput([&](const Node*) { ++scan.references; });
    if (isClone(node))
      scan.clones.push_back(node);
  }
  // The list lives as long as the pass: give back what its doublings left unused.
  scan.clones.shrink_to_fit();
  return scan;
}

/// The values whose storages the rules ask about: the clones and their sources. Removing a
/// clone makes its source the source of the clones that used it, which is one of these too.
std::vector<const Node*> clonesAndSources(std::span<Node* const> clones) {
  std::vector<const Node*> values;
  values.reserve(2 * clones.size());
  for (const Node* clone : clones) {
    values.push_back(clone);
    if (!clone->args().empty() && clone->args()[0].isNode())
      values.push_back(clone->args()[0].node());
  }
  return values;
}

class SafeEliminator {
public:
  SafeEliminator(Graph& graph, const CloneEliminationOptions& options,
                 const SchemaRegistry& schemas, const SubgraphTable* subgraphs,
                 CloneEliminationResult& result)
      : SafeEliminator(scanGraph(graph), graph, options, schemas, subgraphs, result) {}

  void run() {
    rewriter_.reserve(clones_.size());
    for (Node* clone : clones_)
      decide(clone);
  }

private:
  SafeEliminator(GraphScan&& scan, Graph& graph, const CloneEliminationOptions& options,
                 const SchemaRegistry& schemas, const SubgraphTable* subgraphs,
                 CloneEliminationResult& result)
      : graph_(graph), clones_(std::move(scan.clones)),
        effects_(graph, schemas, scan.references, subgraphs),
        // Facts number storages over the whole graph, as a user reading them expects.
        alias_(options.collectFacts
                   ? AliasAnalysis(graph, effects_, options.donated)
                   : AliasAnalysis(graph, effects_, options.donated, clonesAndSources(clones_))),
        layouts_(graph, effects_, passLayoutOptions(options.layout)),
        rewriter_(graph, result, options.collectRemarks), collectFacts_(options.collectFacts) {
    // Clones and their sources have recorded storages, and merges only join those.
    link_.assign(alias_.numRecorded(), kNoState);
    // Only the storages of clones and their sources have events, and each gets a state at
    // most once (a merged storage is never looked up again), so these reservations are never
    // outgrown: the states view writes_, and decide() holds references into states_. Reserved
    // but untouched capacity costs address space, not memory.
    size_t writes = 0;
    for (StorageId id = 0; id < alias_.numRecorded(); ++id)
      for (const Event& event : alias_.events(id))
        writes += event.kind == Event::Kind::Write;
    writes_.reserve(writes);
    states_.reserve(std::min<size_t>(2 * clones_.size(), alias_.numRecorded()));
  }

  /// link_ entries: a storage merged into another holds that storage's id; a storage that is
  /// still its own root holds kNoState, or kHasState | the index of its state in states_.
  /// Storage ids stay below 2^31 (there is at most one per node).
  static constexpr uint32_t kHasState = 0x80000000u;
  static constexpr uint32_t kNoState = UINT32_MAX;
  [[nodiscard]] static bool isRoot(uint32_t link) { return link >= kHasState; }

  StorageId find(StorageId id) {
    while (!isRoot(link_[id])) {
      StorageId parent = link_[id];
      if (!isRoot(link_[parent]))
        link_[id] = link_[parent]; // path halving
      id = link_[id];
    }
    return id;
  }
  /// The state of a root storage, made from the analysis on first use: only the storages of
  /// clones and their sources ever need one, so a state per storage would mostly be wasted.
  StorageState& state(StorageId id) {
    if (link_[id] != kNoState)
      return states_[link_[id] & ~kHasState];
    link_[id] = kHasState | static_cast<uint32_t>(states_.size());
    const AliasAnalysis::StorageInfo& info = alias_.info(id);
    StorageState& state = states_.emplace_back();
    state.events = EventSet(alias_.events(id));
    size_t writesBegin = writes_.size();
    for (const Event& event : alias_.events(id))
      if (event.kind == Event::Kind::Write)
        writes_.push_back(event);
    state.writes = EventSet(
        std::span<const Event>(writes_.data() + writesBegin, writes_.size() - writesBegin));
    static_cast<StorageFlags&>(state) = StorageFlags::of(info);
    return state;
  }
  StorageId storage(const Node* node) {
    StorageId id = alias_.storageOf(node);
    return id == AliasAnalysis::kNoStorage ? id : find(id);
  }

  void decide(Node* clone);
  /// The facts decide() is about to rest on, from the storages as merged so far.
  DecisionFacts facts(const Node* clone);
  StorageFacts mergedStorage(const Node* value);
  void mergeInto(StorageId source, StorageId clone);
  static const Event* firstAtOrAfter(const StorageState& state, uint32_t position, bool writesOnly);
  std::string describeEvent(const Event& event) const;
  /// `; it comes from X (line N): no schema for ...` when a layout is unknown because the value
  /// comes, through views and getitem, from an op declone has no schema for; else empty.
  std::string schemalessProducer(const Node* value) const;

  Graph& graph_;
  std::vector<Node*> clones_; ///< see GraphScan
  EffectAnalysis effects_;
  const AliasAnalysis alias_;
  const LayoutAnalysis layouts_;
  CloneRewriter rewriter_;
  std::vector<Event> writes_;        ///< what the states' write sets view
  std::vector<StorageState> states_; ///< of root storages, in order of first use
  std::vector<uint32_t> link_;       ///< by storage: see kHasState
  bool collectFacts_;
};

StorageFacts SafeEliminator::mergedStorage(const Node* value) {
  StorageId id = storage(value);
  StorageFacts facts;
  facts.id = id;
  if (id == AliasAnalysis::kNoStorage)
    return facts;
  const StorageState& merged = state(id);
  facts.root = alias_.info(id).root;
  facts.graphInput = merged.graphInput;
  facts.donated = merged.donated;
  facts.attribute = merged.attribute;
  facts.returned = merged.returned;
  facts.unknownToucher = merged.unknownToucher;
  return facts;
}

DecisionFacts SafeEliminator::facts(const Node* clone) {
  return decisionFacts(graph_.context().sym(), layouts_, clone,
                       [&](const Node* value, const EventVisitor& visit) {
                         StorageFacts storage = mergedStorage(value);
                         if (storage.id != AliasAnalysis::kNoStorage)
                           state(storage.id).events.forEachFrom(clone->order() + 1, visit);
                         return storage;
                       });
}

std::string SafeEliminator::schemalessProducer(const Node* value) const {
  // A few steps up the first-argument chain: getitem of a custom op's tuple, a view of it.
  for (int step = 0; step < 8 && value && value->isCall(); ++step) {
    std::string_view why = effects_.effects(value).unknownReason;
    if (why.starts_with("no schema"))
      return "; it comes from " + describe(value) + ": " + std::string(why);
    if (value->args().empty() || !value->args()[0].isNode())
      break;
    value = value->args()[0].node();
  }
  return {};
}

std::string SafeEliminator::describeEvent(const Event& event) const {
  switch (event.kind) {
  case Event::Kind::Return:
    return std::string(event.value->name()) + " is returned";
  case Event::Kind::Write:
    return describe(event.node) + " writes " + std::string(event.value->name());
  case Event::Kind::Read:
    break;
  }
  return describe(event.node) + " reads " + std::string(event.value->name());
}

void SafeEliminator::mergeInto(StorageId source, StorageId clone) {
  StorageState& into = state(source);
  StorageState& from = state(clone);
  into.events.absorb(std::move(from.events));
  into.writes.absorb(std::move(from.writes));
  into.absorb(from);
  // `clone` is no longer a root: no decision will look its state up again (absorb emptied it).
  link_[clone] = source;
}

void SafeEliminator::decide(Node* clone) {
  if (collectFacts_)
    rewriter_.recordFacts(facts(clone));
  // Details of kept clones are built only when remarks are collected (keepLazily).
  if (clone->args().empty())
    return rewriter_.keep(clone, KeepReason::UnknownEffects, "the clone has no positional input");
  if (!clone->args()[0].isNode())
    return rewriter_.keep(clone, KeepReason::UnknownEffects, "the clone's input is not a node");
  Node* source = clone->args()[0].node();
  if (!clone->hasUses())
    return rewriter_.remove(clone, source, "no users");

  // 1. Layout.
  LayoutVerdict layout =
      compareLayouts(graph_.context().sym(), clone, layouts_.layout(clone), source,
                     layouts_.layout(source), false, rewriter_.collectsRemarks());
  if (layout.reason) {
    if (*layout.reason == KeepReason::LayoutUnknown && rewriter_.collectsRemarks())
      layout.detail += schemalessProducer(source);
    return rewriter_.keep(clone, *layout.reason, std::move(layout.detail));
  }

  StorageId cloneStorage = storage(clone);
  StorageId sourceStorage = storage(source);
  if (cloneStorage == AliasAnalysis::kNoStorage || sourceStorage == AliasAnalysis::kNoStorage)
    return rewriter_.keepLazily(clone, KeepReason::UnknownEffects, [&] {
      return "cannot tell the storages of " + std::string(clone->name()) + " and " +
             std::string(source->name()) + " apart: " +
             std::string(sourceStorage == AliasAnalysis::kNoStorage ? source->name()
                                                                    : clone->name()) +
             " is not a tensor";
    });
  if (cloneStorage == sourceStorage)
    return rewriter_.keepLazily(clone, KeepReason::UnknownEffects, [&] {
      return "cannot tell the storages of " + std::string(clone->name()) + " and " +
             std::string(source->name()) + " apart: they may be the same";
    });
  const StorageState& cloneState = state(cloneStorage);
  const StorageState& sourceState = state(sourceStorage);

  // 2. Ops without a usable schema may do anything to either storage.
  for (const StorageState* state : {&sourceState, &cloneState}) {
    if (const Node* toucher = state->unknownToucher) {
      return rewriter_.keepLazily(clone, KeepReason::UnknownEffects, [&] {
        std::string_view why = effects_.effects(toucher).unknownReason;
        return describe(toucher) + " touches " +
               std::string(state == &cloneState ? clone->name() : source->name()) +
               (why.empty() ? "" : ": " + std::string(why));
      });
    }
  }

  uint32_t position = clone->order();
  const Event* cloneWrite = cloneState.writes.firstAtOrAfter(position + 1);

  // 3. A write to the clone would become a write to a graph input the caller still sees.
  if (cloneWrite && sourceState.observedByCaller())
    return rewriter_.keepLazily(clone, KeepReason::InputMutation, [&] {
      return describeEvent(*cloneWrite) + "; " + std::string(source->name()) +
             (sourceState.graphInput ? " is a graph input that is not donated"
                                     : " is module state the caller sees");
    });

  // 4. After the clone is written, the source's storage must be dead.
  if (cloneWrite)
    if (const Event* later = sourceState.events.firstAtOrAfter(cloneWrite->position))
      return rewriter_.keepLazily(clone, KeepReason::SourceReadAfterWrite, [&] {
        return describeEvent(*cloneWrite) + ", then " + describeEvent(*later);
      });

  // 5. After the source is written, the clone's storage must be dead.
  if (const Event* sourceWrite = sourceState.writes.firstAtOrAfter(position + 1))
    if (const Event* later = cloneState.events.firstAtOrAfter(sourceWrite->position))
      return rewriter_.keepLazily(clone, KeepReason::CloneReadAfterSourceWrite, [&] {
        return describeEvent(*sourceWrite) + " after the clone, then " + describeEvent(*later);
      });

  // 6. No new aliasing between outputs and inputs or between two outputs.
  if (cloneState.returned) {
    if (sourceState.observedByCaller())
      return rewriter_.keepLazily(clone, KeepReason::OutputAlias, [&] {
        return std::string(clone->name()) + " is returned and would alias " +
               (sourceState.graphInput ? "graph input " : "module state ") +
               std::string(alias_.info(sourceStorage).root->name());
      });
    if (sourceState.returned)
      return rewriter_.keepLazily(clone, KeepReason::OutputAlias, [&] {
        return std::string(clone->name()) + " and " + std::string(source->name()) +
               " are both returned and would share storage";
      });
  }

  rewriter_.remove(clone, source, std::move(layout.detail));
  mergeInto(sourceStorage, cloneStorage);
}

} // namespace

CloneEliminationResult runSafe(Graph& graph, const CloneEliminationOptions& options,
                               const SchemaRegistry& schemas, const SubgraphTable* subgraphs) {
  CloneEliminationResult result;
  SafeEliminator(graph, options, schemas, subgraphs, result).run();
  return result;
}

} // namespace declone::detail
