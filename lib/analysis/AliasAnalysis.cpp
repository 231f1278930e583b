// Union-find over tensor values into storages, then per-storage event lists in program order.
#include "declone/analysis/AliasAnalysis.h"

#include <algorithm>
#include <bit>
#include <numeric>

namespace declone {

size_t AliasAnalysis::SlotMap::home(uint64_t key) const {
  // Fibonacci hashing: the top bits of the product depend on every bit of the key.
  return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_);
}

uint32_t* AliasAnalysis::SlotMap::find(uint64_t key) {
  if (entries_.empty())
    return nullptr;
  for (size_t at = home(key);; at = (at + 1) & (entries_.size() - 1)) {
    if (entries_[at].key == key)
      return &entries_[at].value;
    if (entries_[at].key == kEmpty)
      return nullptr;
  }
}

void AliasAnalysis::SlotMap::insert(uint64_t key, uint32_t value) {
  if (2 * (size_ + 1) > entries_.size()) { // keep the load at most 1/2
    std::vector<Entry> old = std::move(entries_);
    entries_.assign(std::max<size_t>(16, 2 * old.size()), Entry{});
    shift_ = 64 - std::countr_zero(entries_.size());
    size_ = 0;
    for (const Entry& entry : old)
      if (entry.key != kEmpty)
        insert(entry.key, entry.value);
  }
  size_t at = home(key);
  while (entries_[at].key != kEmpty)
    at = (at + 1) & (entries_.size() - 1);
  entries_[at] = {key, value};
  ++size_;
}

AliasAnalysis::StorageId AliasAnalysis::find(StorageId id) {
  while (parent_[id] != id) {
    parent_[id] = parent_[parent_[id]];
    id = parent_[id];
  }
  return id;
}

void AliasAnalysis::unite(StorageId a, StorageId b) {
  a = find(a);
  b = find(b);
  if (a == b)
    return;
  // Keep the older storage as the representative so its root is the earliest member.
  if (a > b)
    std::swap(a, b);
  parent_[b] = a;
}

AliasAnalysis::StorageId AliasAnalysis::newStorage(const Node* root) {
  StorageId id = static_cast<StorageId>(parent_.size());
  parent_.push_back(id);
  roots_.push_back(root);
  return id;
}

AliasAnalysis::StorageId
AliasAnalysis::storageFor(const OutputAlias& relation, const Node* value,
                          std::span<const NodeEffects::Access> producerInputs) {
  switch (relation.kind) {
  case OutputAlias::Kind::NotTensor:
    return kNoStorage;
  case OutputAlias::Kind::Fresh:
    return newStorage(value);
  case OutputAlias::Kind::Aliases: {
    StorageId storage = valueStorage_[relation.input->order()];
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

AliasAnalysis::StorageId AliasAnalysis::slotStorage(const Node* container,
                                                    std::optional<size_t> index,
                                                    const Node* getitem) {
  uint64_t slots = uint64_t(container->order()) << 32;
  uint64_t key = slots | (index ? uint32_t(*index) : kAnyElement);
  if (const uint32_t* found = slots_.find(key))
    return *found;
  StorageId storage = storageFor(effects_.output(container, index.value_or(0)), getitem,
                                 effects_.accesses(container));
  slots_.insert(key, storage);
  if (storage == kNoStorage)
    return storage;
  // An element whose position is unknown may be any other element, taken apart before or after.
  if (!index) {
    if (hasSlots_[container->order()])
      forEachElementStorage(container, [&](StorageId element) { unite(storage, element); });
  } else if (const uint32_t* any = slots_.find(slots | kAnyElement); any && *any != kNoStorage) {
    unite(storage, *any);
  }
  auto link = static_cast<uint32_t>(slotLinks_.size());
  if (uint32_t* newest = slotHeads_.find(container->order())) {
    slotLinks_.push_back({storage, slotLinks_[*newest].next});
    slotLinks_[*newest].next = link;
    *newest = link;
  } else {
    slotLinks_.push_back({storage, link});
    slotHeads_.insert(container->order(), link);
  }
  hasSlots_[container->order()] = true;
  return storage;
}

AliasAnalysis::AliasAnalysis(const Graph& graph, const EffectAnalysis& effects,
                             const std::vector<bool>& donated)
    : effects_(effects) {
  build(graph, donated, nullptr);
}

AliasAnalysis::AliasAnalysis(const Graph& graph, const EffectAnalysis& effects,
                             const std::vector<bool>& donated, std::span<const Node* const> wanted)
    : effects_(effects) {
  build(graph, donated, &wanted);
}

void AliasAnalysis::build(const Graph& graph, const std::vector<bool>& donated,
                          const std::span<const Node* const>* wanted) {
  const EffectAnalysis& effects = effects_;
  graph.numberNodes();
  valueStorage_.assign(graph.orderBound(), kNoStorage);
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
      valueStorage_[node->order()] =
          slotStorage(container, effects.elementIndex(container, node->args()[1].integer), node);
      continue;
    }
    valueStorage_[node->order()] = storageFor(effects.result(node), node, effects.accesses(node));
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
      if (StorageId storage = valueStorage_[value->order()]; storage != kNoStorage)
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
  numStorages_ = numClasses;
  infos_.resize(numRecorded);
  StorageId nextRecorded = 0;
  StorageId nextOther = numRecorded;
  for (StorageId id = 0; id < parent_.size(); ++id) {
    StorageId parent = parent_[id];
    if (parent != id) {
      parent_[id] = parent_[parent];
    } else if (!wanted || recordedClass[id]) {
      infos_[nextRecorded].root = roots_[id];
      parent_[id] = nextRecorded++;
    } else {
      parent_[id] = nextOther++;
    }
  }
  recordedClass = {};
  const std::vector<StorageId>& dense = parent_;
  roots_ = {};
  for (StorageId& storage : valueStorage_)
    if (storage != kNoStorage)
      storage = dense[storage];
  for (SlotLink& link : slotLinks_)
    link.storage = dense[link.storage];
  parent_ = {};
  // (slots_ still holds pre-dense ids; only slotLinks_ is read from here on.)
  auto isRecorded = [&](StorageId storage) { return storage < numRecorded; };

  std::vector<bool> allDonated(infos_.size(), true);
  for (size_t i = 0; i < placeholders.size(); ++i) {
    StorageId storage = valueStorage_[placeholders[i]->order()];
    if (storage == kNoStorage || !isRecorded(storage))
      continue;
    infos_[storage].graphInput = true;
    allDonated[storage] = allDonated[storage] && i < donated.size() && donated[i];
  }
  for (StorageId storage = 0; storage < infos_.size(); ++storage)
    infos_[storage].donated = infos_[storage].graphInput && allDonated[storage];
  allDonated = {};

  // 3. Events, grouped by storage in program order: one pass counts them per storage, a second
  // puts each in place (a counting sort without a temporary list of every event). The second
  // pass advances eventBegin_[s] from the start of s to its end, which is the start of s + 1;
  // shifting by one place then gives the starts back without a cursor array.
  // When only some storages are recorded, the first pass also lists the nodes that have
  // events, and the second visits only those.
  bool allRecorded = numRecorded == numClasses;
  std::vector<const Node*> eventNodes;
  eventBegin_.assign(infos_.size() + 1, 0);
  for (const Node* node : graph) {
    if (node->kind() == Node::Kind::GetAttr) {
      StorageId storage = valueStorage_[node->order()];
      if (storage != kNoStorage && isRecorded(storage))
        infos_[storage].attribute = true;
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
        ++eventBegin_[storage + 1];
        StorageInfo& info = infos_[storage];
        if (!known && !info.unknownToucher)
          info.unknownToucher = node;
        if (output)
          info.returned = true;
      });
    }
    if (hasEvents && !allRecorded)
      eventNodes.push_back(node);
  }
  std::partial_sum(eventBegin_.begin(), eventBegin_.end(), eventBegin_.begin());
  events_.resize(eventBegin_.back());
  auto placeEvents = [&](const Node* node) {
    for (const NodeEffects::Access& access : effects.accesses(node)) {
      Event::Kind kind = node->isOutput() ? Event::Kind::Return
                         : access.write() ? Event::Kind::Write
                                          : Event::Kind::Read;
      forEachStorageOf(access.value(), [&](StorageId storage) {
        if (isRecorded(storage))
          events_[eventBegin_[storage]++] = {node->order(), kind, node, access.value()};
      });
    }
  };
  if (allRecorded)
    for (const Node* node : graph)
      placeEvents(node);
  else
    for (const Node* node : eventNodes)
      placeEvents(node);
  std::copy_backward(eventBegin_.begin(), eventBegin_.end() - 1, eventBegin_.end());
  eventBegin_[0] = 0;

  // Only construction needs the element storages.
  slots_ = {};
  slotHeads_ = {};
  slotLinks_ = {};
  hasSlots_ = {};
}

} // namespace declone
