// Union-find over tensor values into storages, then per-storage event lists in program order.
#include "declone/analysis/AliasAnalysis.h"

#include <numeric>

namespace declone {

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
      forEachStorageOf(access.value, [&](StorageId input) { unite(storage, input); });
    return storage;
  }
  }
  return kNoStorage;
}

AliasAnalysis::StorageId AliasAnalysis::slotStorage(const Node* container, size_t index,
                                                    const Node* getitem) {
  uint64_t key = (uint64_t(container->order()) << 32) | uint32_t(index);
  auto found = slots_.find(key);
  if (found != slots_.end())
    return found->second;
  StorageId storage =
      storageFor(effects_.output(container, index), getitem, effects_.effects(container).accesses);
  slots_.emplace(key, storage);
  if (storage != kNoStorage) {
    slotsOf_[container].push_back(storage);
    hasSlots_[container->order()] = true;
  }
  return storage;
}

AliasAnalysis::AliasAnalysis(const Graph& graph, const EffectAnalysis& effects,
                             const std::vector<bool>& donated)
    : effects_(effects) {
  graph.numberNodes();
  valueStorage_.assign(graph.orderBound(), kNoStorage);
  hasSlots_.assign(graph.orderBound(), false);

  // 1. Which values share a storage.
  std::vector<const Node*> placeholders;
  for (const Node* node : graph) {
    const NodeEffects& nodeEffects = effects.effects(node);
    if (node->isPlaceholder())
      placeholders.push_back(node);
    // `False[1]` parses too: only a getitem of a node's element is an element's storage.
    if (node->isCall() && node->target()->isOperator("getitem") && node->args().size() == 2 &&
        node->args()[0].isNode() && !effects.effects(node->args()[0].node()).outputs.empty() &&
        node->args()[1].kind == ArgKind::Int) {
      valueStorage_[node->order()] =
          slotStorage(node->args()[0].node(), static_cast<size_t>(node->args()[1].integer), node);
      continue;
    }
    valueStorage_[node->order()] = storageFor(nodeEffects.result, node, nodeEffects.accesses);
  }

  // 2. Dense ids for the classes, and what each class holds.
  std::vector<StorageId> dense(parent_.size(), kNoStorage);
  for (StorageId id = 0; id < parent_.size(); ++id) {
    StorageId representative = find(id);
    if (dense[representative] == kNoStorage) {
      dense[representative] = static_cast<StorageId>(infos_.size());
      infos_.emplace_back();
      infos_.back().root = roots_[representative];
    }
    dense[id] = dense[representative];
  }
  for (StorageId& storage : valueStorage_)
    if (storage != kNoStorage)
      storage = dense[storage];
  for (auto& [key, storage] : slots_)
    if (storage != kNoStorage)
      storage = dense[storage];
  for (auto& [node, storages] : slotsOf_)
    for (StorageId& storage : storages)
      storage = dense[storage];
  std::vector<bool> allDonated(infos_.size(), true);
  for (size_t i = 0; i < placeholders.size(); ++i) {
    StorageId storage = valueStorage_[placeholders[i]->order()];
    if (storage == kNoStorage)
      continue;
    infos_[storage].graphInput = true;
    allDonated[storage] = allDonated[storage] && i < donated.size() && donated[i];
  }
  for (StorageId storage = 0; storage < infos_.size(); ++storage)
    infos_[storage].donated = infos_[storage].graphInput && allDonated[storage];

  // 3. Events, grouped by storage in program order: one pass counts them per storage, a second
  // puts each in place (a counting sort without a temporary list of every event).
  eventBegin_.assign(infos_.size() + 1, 0);
  for (const Node* node : graph) {
    if (node->kind() == Node::Kind::GetAttr) {
      StorageId storage = valueStorage_[node->order()];
      if (storage != kNoStorage)
        infos_[storage].attribute = true;
    }
    NodeEffects nodeEffects = effects.effects(node);
    for (const NodeEffects::Access& access : nodeEffects.accesses) {
      forEachStorageOf(access.value, [&](StorageId storage) {
        ++eventBegin_[storage + 1];
        if (!nodeEffects.known && !infos_[storage].unknownToucher)
          infos_[storage].unknownToucher = node;
        if (node->isOutput())
          infos_[storage].returned = true;
      });
    }
  }
  std::partial_sum(eventBegin_.begin(), eventBegin_.end(), eventBegin_.begin());
  events_.resize(eventBegin_.back());
  std::vector<uint32_t> cursor(eventBegin_.begin(), eventBegin_.end() - 1);
  for (const Node* node : graph) {
    for (const NodeEffects::Access& access : effects.effects(node).accesses) {
      Event::Kind kind = node->isOutput() ? Event::Kind::Return
                         : access.write   ? Event::Kind::Write
                                          : Event::Kind::Read;
      forEachStorageOf(access.value, [&](StorageId storage) {
        events_[cursor[storage]++] = {node->order(), kind, node, access.value};
      });
    }
  }
  // Only construction needs the union-find.
  parent_ = {};
  roots_ = {};
}

} // namespace declone
