// The safe mode: every rule of DESIGN.md section 4, over storages updated as clones are removed.
#include "CloneEliminationImpl.h"
#include "declone/analysis/AliasAnalysis.h"

#include <algorithm>

namespace declone::detail {
namespace {

using Event = AliasAnalysis::Event;
using StorageId = AliasAnalysis::StorageId;

/// What the rules need to know of one storage of the program as rewritten so far. Removing a
/// clone merges its storage into its source's, so later decisions see the rewritten program.
struct StorageState {
  std::vector<Event> events; ///< sorted by position
  const Node* root = nullptr;
  const Node* unknownToucher = nullptr;
  bool observedByCaller = false; ///< a graph input that is not donated, or module state
  bool graphInput = false;
  bool returned = false;
};

class SafeEliminator {
public:
  SafeEliminator(Graph& graph, const CloneEliminationOptions& options,
                 const SchemaRegistry& schemas, CloneEliminationResult& result)
      : graph_(graph), effects_(graph, schemas), alias_(graph, effects_, options.donated),
        layouts_(graph, effects_), log_(graph, result) {
    states_.resize(alias_.numStorages());
    parent_.resize(alias_.numStorages());
    for (StorageId id = 0; id < alias_.numStorages(); ++id) {
      const AliasAnalysis::StorageInfo& info = alias_.info(id);
      StorageState& state = states_[id];
      std::span<const Event> events = alias_.events(id);
      state.events.assign(events.begin(), events.end());
      state.root = info.root;
      state.unknownToucher = info.unknownToucher;
      state.observedByCaller = alias_.isObservedByCaller(id);
      state.graphInput = info.graphInput;
      state.returned = info.returned;
      parent_[id] = id;
    }
  }

  void run() {
    std::vector<Node*> clones;
    for (Node* node : graph_)
      if (isClone(node))
        clones.push_back(node);
    for (Node* clone : clones)
      decide(clone);
  }

private:
  StorageId find(StorageId id) {
    while (parent_[id] != id) {
      parent_[id] = parent_[parent_[id]];
      id = parent_[id];
    }
    return id;
  }
  StorageId storage(const Node* node) {
    StorageId id = alias_.storageOf(node);
    return id == AliasAnalysis::kNoStorage ? id : find(id);
  }

  void decide(Node* clone);
  void mergeInto(StorageId source, StorageId clone);
  static const Event* firstAtOrAfter(const StorageState& state, uint32_t position, bool writesOnly);
  std::string describeEvent(const Event& event) const;

  Graph& graph_;
  EffectAnalysis effects_;
  AliasAnalysis alias_;
  LayoutAnalysis layouts_;
  DecisionLog log_;
  std::vector<StorageState> states_;
  std::vector<StorageId> parent_;
};

const Event* SafeEliminator::firstAtOrAfter(const StorageState& state, uint32_t position,
                                            bool writesOnly) {
  auto it = std::lower_bound(state.events.begin(), state.events.end(), position,
                             [](const Event& event, uint32_t at) { return event.position < at; });
  for (; it != state.events.end(); ++it)
    if (!writesOnly || it->kind == Event::Kind::Write)
      return &*it;
  return nullptr;
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
  StorageState& into = states_[source];
  StorageState& from = states_[clone];
  // Merge the smaller list into the larger, so that many removals stay O(n log n) overall.
  if (into.events.size() < from.events.size())
    std::swap(into.events, from.events);
  std::vector<Event> merged;
  merged.reserve(into.events.size() + from.events.size());
  std::merge(into.events.begin(), into.events.end(), from.events.begin(), from.events.end(),
             std::back_inserter(merged),
             [](const Event& a, const Event& b) { return a.position < b.position; });
  into.events = std::move(merged);
  from.events.clear();
  from.events.shrink_to_fit();
  if (!into.unknownToucher)
    into.unknownToucher = from.unknownToucher;
  into.observedByCaller = into.observedByCaller || from.observedByCaller;
  into.graphInput = into.graphInput || from.graphInput;
  into.returned = into.returned || from.returned;
  parent_[clone] = source;
}

void SafeEliminator::decide(Node* clone) {
  if (clone->args().empty() || !clone->args()[0].isNode())
    return log_.keep(clone, KeepReason::UnknownEffects, "the clone's input is not a node");
  Node* source = clone->args()[0].node();
  if (!clone->hasUses())
    return log_.remove(clone, source, "no users");

  // 1. Layout.
  LayoutVerdict layout = compareLayouts(graph_.context().sym(), clone, layouts_.layout(clone),
                                        source, layouts_.layout(source), false);
  if (layout.reason)
    return log_.keep(clone, *layout.reason, std::move(layout.detail));

  StorageId cloneStorage = storage(clone);
  StorageId sourceStorage = storage(source);
  if (cloneStorage == AliasAnalysis::kNoStorage || sourceStorage == AliasAnalysis::kNoStorage ||
      cloneStorage == sourceStorage)
    return log_.keep(clone, KeepReason::UnknownEffects,
                     "cannot tell the storages of " + std::string(clone->name()) + " and " +
                         std::string(source->name()) + " apart");
  const StorageState& cloneState = states_[cloneStorage];
  const StorageState& sourceState = states_[sourceStorage];

  // 2. Ops without a usable schema may do anything to either storage.
  for (const StorageState* state : {&sourceState, &cloneState}) {
    if (const Node* toucher = state->unknownToucher) {
      const std::string& why = effects_.effects(toucher).unknownReason;
      return log_.keep(clone, KeepReason::UnknownEffects,
                       describe(toucher) + " touches " +
                           std::string(state == &cloneState ? clone->name() : source->name()) +
                           (why.empty() ? "" : ": " + why));
    }
  }

  uint32_t position = clone->order();
  const Event* cloneWrite = firstAtOrAfter(cloneState, position + 1, true);

  // 3. A write to the clone would become a write to a graph input the caller still sees.
  if (cloneWrite && sourceState.observedByCaller)
    return log_.keep(clone, KeepReason::InputMutation,
                     describeEvent(*cloneWrite) + "; " + std::string(source->name()) +
                         (sourceState.graphInput ? " is a graph input that is not donated"
                                                 : " is module state the caller sees"));

  // 4. After the clone is written, the source's storage must be dead.
  if (cloneWrite)
    if (const Event* later = firstAtOrAfter(sourceState, cloneWrite->position, false))
      return log_.keep(clone, KeepReason::SourceReadAfterWrite,
                       describeEvent(*cloneWrite) + ", then " + describeEvent(*later));

  // 5. After the source is written, the clone's storage must be dead.
  if (const Event* sourceWrite = firstAtOrAfter(sourceState, position + 1, true))
    if (const Event* later = firstAtOrAfter(cloneState, sourceWrite->position, false))
      return log_.keep(clone, KeepReason::CloneReadAfterSourceWrite,
                       describeEvent(*sourceWrite) + " after the clone, then " +
                           describeEvent(*later));

  // 6. No new aliasing between outputs and inputs or between two outputs.
  if (cloneState.returned) {
    if (sourceState.observedByCaller)
      return log_.keep(clone, KeepReason::OutputAlias,
                       std::string(clone->name()) + " is returned and would alias " +
                           (sourceState.graphInput ? "graph input " : "module state ") +
                           std::string(sourceState.root->name()));
    if (sourceState.returned)
      return log_.keep(clone, KeepReason::OutputAlias,
                       std::string(clone->name()) + " and " + std::string(source->name()) +
                           " are both returned and would share storage");
  }

  log_.remove(clone, source);
  mergeInto(sourceStorage, cloneStorage);
}

} // namespace

CloneEliminationResult runSafe(Graph& graph, const CloneEliminationOptions& options,
                               const SchemaRegistry& schemas) {
  CloneEliminationResult result;
  SafeEliminator(graph, options, schemas, result).run();
  return result;
}

} // namespace declone::detail
