// Union-find over tensor values into storages, then per-storage event lists in program order.
#include "declone/analysis/AliasAnalysis.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace declone {

/// Builds an AliasAnalysis's results; holds what only construction needs.
class AliasAnalysis::Builder {
public:
  Builder(AliasAnalysis& result, const EffectAnalysis& effects)
      : result_(result), effects_(effects) {}

  void build(const Graph& graph, const std::vector<bool>& donated,
             const std::span<const Node* const>* wanted);

private:
  /// uint64 -> uint32, for the few tuple elements getitem takes apart.
  using SlotMap = std::unordered_map<uint64_t, uint32_t>;
  /// One storage of a multi-output node's elements. The elements of one node form a circular
  /// list; slotHeads_ holds the newest, whose `next` is the oldest.
  struct SlotLink {
    StorageId storage;
    uint32_t next;
  };
  /// The slot key of the element of unknown position (no index is this large).
  static constexpr uint32_t kAnyElement = UINT32_MAX;

  /// Calls fn for the value's own storage and, for a tuple taken apart by getitem, for the
  /// storages of its elements.
  template <class Fn> void forEachStorageOf(const Node* value, Fn&& fn) {
    StorageId own = result_.valueStorage_[value->order()];
    if (own != kNoStorage)
      fn(own);
    if (hasSlots_[value->order()])
      forEachElementStorage(value, fn);
  }
  /// Calls fn for the storages of the elements of a tuple getitem took apart (there are some).
  template <class Fn> void forEachElementStorage(const Node* value, Fn&& fn) {
    // In the order the elements were first taken apart.
    uint32_t newest = slotHeads_.find(value->order())->second;
    uint32_t link = newest;
    do {
      link = slotLinks_[link].next;
      fn(slotLinks_[link].storage);
    } while (link != newest);
  }

  StorageId find(StorageId id) {
    while (parent_[id] != id) {
      parent_[id] = parent_[parent_[id]];
      id = parent_[id];
    }
    return id;
  }

  void unite(StorageId a, StorageId b) {
    a = find(a);
    b = find(b);
    if (a == b)
      return;
    // Keep the older storage as the representative so its root is the earliest member.
    if (a > b)
      std::swap(a, b);
    parent_[b] = a;
  }

  StorageId newStorage(const Node* root) {
    StorageId id = static_cast<StorageId>(parent_.size());
    parent_.push_back(id);
    roots_.push_back(root);
    return id;
  }

  StorageId storageFor(const OutputAlias& relation, const Node* value,
                       std::span<const NodeEffects::Access> producerInputs) {
    switch (relation.kind) {
    case OutputAlias::Kind::NotTensor:
      return kNoStorage;
    case OutputAlias::Kind::Fresh:
      return newStorage(value);
    case OutputAlias::Kind::Aliases: {
      StorageId storage = result_.valueStorage_[relation.input->order()];
      return storage == kNoStorage ? newStorage(value) : storage;
    }
    case OutputAlias::Kind::Unknown: {
      // May alias any input: one storage with all of them.
      StorageId storage = newStorage(value);
      for (const NodeEffects::Access& access : producerInputs)
        forEachStorageOf(access.value(), [&](StorageId input) { unite(storage, input); });
      return storage;
    }
    }
    return kNoStorage;
  }

  /// The storage of element `index` of a multi-output node; with no index, of an element of a
  /// list whose position is unknown (a negative index), which every element is tied to.
  StorageId slotStorage(const Node* container, std::optional<size_t> index, const Node* getitem) {
    uint64_t slots = uint64_t(container->order()) << 32;
    // Indices past any tuple share one key below kAnyElement: all of them name no element.
    uint64_t key = slots | (index ? static_cast<uint32_t>(std::min<size_t>(*index, kAnyElement - 1))
                                  : kAnyElement);
    if (auto found = slots_.find(key); found != slots_.end())
      return found->second;
    StorageId storage = storageFor(effects_.output(container, index.value_or(0)), getitem,
                                   effects_.accesses(container));
    slots_.emplace(key, storage);
    if (storage == kNoStorage)
      return storage;
    // An element whose position is unknown may be any other element, taken apart before or after.
    if (!index) {
      if (hasSlots_[container->order()])
        forEachElementStorage(container, [&](StorageId element) { unite(storage, element); });
    } else if (auto any = slots_.find(slots | kAnyElement);
               any != slots_.end() && any->second != kNoStorage) {
      unite(storage, any->second);
    }
    auto link = static_cast<uint32_t>(slotLinks_.size());
    if (auto newest = slotHeads_.find(container->order()); newest != slotHeads_.end()) {
      slotLinks_.push_back({storage, slotLinks_[newest->second].next});
      slotLinks_[newest->second].next = link;
      newest->second = link;
    } else {
      slotLinks_.push_back({storage, link});
      slotHeads_.emplace(container->order(), link);
    }
    hasSlots_[container->order()] = true;
    return storage;
  }

  AliasAnalysis& result_;
  const EffectAnalysis& effects_;
  std::vector<StorageId> parent_;
  std::vector<const Node*> roots_;
  /// Storages of the elements of multi-output nodes that getitem took apart:
  /// (container order << 32 | index) -> storage, and container order -> its newest SlotLink.
  SlotMap slots_;
  SlotMap slotHeads_;
  std::vector<SlotLink> slotLinks_;
  std::vector<bool> hasSlots_; ///< by order: slotHeads_ has an entry
};

AliasAnalysis::AliasAnalysis(const Graph& graph, const EffectAnalysis& effects,
                             const std::vector<bool>& donated) {
  Builder(*this, effects).build(graph, donated, nullptr);
}

AliasAnalysis::AliasAnalysis(const Graph& graph, const EffectAnalysis& effects,
                             const std::vector<bool>& donated,
                             std::span<const Node* const> wanted) {
  Builder(*this, effects).build(graph, donated, &wanted);
}

void AliasAnalysis::Builder::build(const Graph& graph, const std::vector<bool>& donated,
                                   const std::span<const Node* const>* wanted) {
  const EffectAnalysis& effects = effects_;
  graph.numberNodes();
  result_.valueStorage_.assign(graph.orderBound(), kNoStorage);
  hasSlots_.assign(graph.orderBound(), false);

  // 1. Which values share a storage.
  std::vector<const Node*> placeholders;
  for (const Node* node : graph) {
    if (node->isPlaceholder())
      placeholders.push_back(node);
    // `False[1]` parses too: only a getitem of a node's element is an element's storage. The
    // cheap tests come first; the target's name is compared last. The target's kind comes
    // before the arguments: targets are few and stay in cache, while looking at the first
    // argument's producer is a chain of loads that misses it on large graphs, and almost
    // every call is an op.
    if (node->isCall() && node->target()->kind == Target::Kind::Function &&
        node->args().size() == 2 && node->args()[0].isNode() &&
        effects.hasOutputs(node->args()[0].node()) && node->args()[1].kind == ArgKind::Int &&
        node->target()->isOperator("getitem")) {
      const Node* container = node->args()[0].node();
      result_.valueStorage_[node->order()] =
          slotStorage(container, effects.elementIndex(container, node->args()[1].integer), node);
      continue;
    }
    result_.valueStorage_[node->order()] =
        storageFor(effects.result(node), node, effects.accesses(node));
  }

  // 2. Dense ids for the classes: first those of the wanted values (all, without `wanted`),
  // which get infos and events, then the others, each group in order of their oldest member.
  // The dense ids overwrite parent_ in place: a parent is always an older id, so in increasing
  // order an id's parent already holds the dense id of their class, and an id that is its own
  // parent starts a class.
  std::vector<bool> recordedClass; // by representative, with `wanted`
  if (wanted) {
    recordedClass.assign(parent_.size(), false);
    for (const Node* value : *wanted)
      if (StorageId storage = result_.valueStorage_[value->order()]; storage != kNoStorage)
        recordedClass[find(storage)] = true;
  }
  StorageId numRecorded = 0;
  StorageId numClasses = 0;
  for (StorageId id = 0; id < parent_.size(); ++id) {
    if (parent_[id] == id) {
      ++numClasses;
      numRecorded += !wanted || recordedClass[id];
    }
  }
  result_.numStorages_ = numClasses;
  result_.infos_.resize(numRecorded);
  StorageId nextRecorded = 0;
  StorageId nextOther = numRecorded;
  for (StorageId id = 0; id < parent_.size(); ++id) {
    StorageId parent = parent_[id];
    if (parent != id) {
      parent_[id] = parent_[parent];
    } else if (!wanted || recordedClass[id]) {
      result_.infos_[nextRecorded].root = roots_[id];
      parent_[id] = nextRecorded++;
    } else {
      parent_[id] = nextOther++;
    }
  }
  recordedClass = {};
  const std::vector<StorageId>& dense = parent_;
  roots_ = {};
  for (StorageId& storage : result_.valueStorage_)
    if (storage != kNoStorage)
      storage = dense[storage];
  for (SlotLink& link : slotLinks_)
    link.storage = dense[link.storage];
  parent_ = {};
  // (slots_ still holds pre-dense ids; only slotLinks_ is read from here on.)
  auto isRecorded = [&](StorageId storage) { return storage < numRecorded; };

  std::vector<bool> allDonated(result_.infos_.size(), true);
  for (size_t i = 0; i < placeholders.size(); ++i) {
    StorageId storage = result_.valueStorage_[placeholders[i]->order()];
    if (storage == kNoStorage || !isRecorded(storage))
      continue;
    result_.infos_[storage].graphInput = true;
    allDonated[storage] = allDonated[storage] && i < donated.size() && donated[i];
  }
  for (StorageId storage = 0; storage < result_.infos_.size(); ++storage)
    result_.infos_[storage].donated = result_.infos_[storage].graphInput && allDonated[storage];
  allDonated = {};

  // 3. Events, grouped by storage in program order: one pass counts them per storage, a second
  // puts each in place (a counting sort without a temporary list of every event). The second
  // pass advances result_.eventBegin_[s] from the start of s to its end, which is the start of s +
  // 1; shifting by one place then gives the starts back without a cursor array. When only some
  // storages are recorded, the first pass also lists the nodes that have events, and the second
  // visits only those.
  bool allRecorded = numRecorded == numClasses;
  std::vector<const Node*> eventNodes;
  result_.eventBegin_.assign(result_.infos_.size() + 1, 0);
  for (const Node* node : graph) {
    if (node->kind() == Node::Kind::GetAttr) {
      StorageId storage = result_.valueStorage_[node->order()];
      if (storage != kNoStorage && isRecorded(storage))
        result_.infos_[storage].attribute = true;
    }
    std::span<const NodeEffects::Access> accesses = effects.accesses(node);
    if (accesses.empty())
      continue;
    bool known = effects.known(node);
    bool output = node->isOutput();
    bool hasEvents = false;
    for (const NodeEffects::Access& access : accesses) {
      forEachStorageOf(access.value(), [&](StorageId storage) {
        if (!isRecorded(storage))
          return;
        hasEvents = true;
        ++result_.eventBegin_[storage + 1];
        StorageInfo& info = result_.infos_[storage];
        if (!known && !info.unknownToucher)
          info.unknownToucher = node;
        if (output)
          info.returned = true;
      });
    }
    if (hasEvents && !allRecorded)
      eventNodes.push_back(node);
  }
  std::partial_sum(result_.eventBegin_.begin(), result_.eventBegin_.end(),
                   result_.eventBegin_.begin());
  result_.events_.resize(result_.eventBegin_.back());
  auto placeEvents = [&](const Node* node) {
    for (const NodeEffects::Access& access : effects.accesses(node)) {
      Event::Kind kind = node->isOutput() ? Event::Kind::Return
                         : access.write() ? Event::Kind::Write
                                          : Event::Kind::Read;
      forEachStorageOf(access.value(), [&](StorageId storage) {
        if (isRecorded(storage))
          result_.events_[result_.eventBegin_[storage]++] = {node->order(), kind, node,
                                                             access.value()};
      });
    }
  };
  if (allRecorded)
    for (const Node* node : graph)
      placeEvents(node);
  else
    for (const Node* node : eventNodes)
      placeEvents(node);
  std::copy_backward(result_.eventBegin_.begin(), result_.eventBegin_.end() - 1,
                     result_.eventBegin_.end());
  result_.eventBegin_[0] = 0;
}

} // namespace declone
