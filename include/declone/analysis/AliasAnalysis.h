// Storages (which values share memory) and the ordered reads and writes of each storage.
#pragma once

#include "declone/analysis/Effects.h"

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace declone {

/// Groups tensor values into storages: views and in-place results share their argument's
/// storage, fresh results get new ones, graph inputs are distinct unless an unknown op may have
/// aliased them. Records in program order every read and write of each storage; a graph output
/// is a Return at the output node. Read-only after construction; positions are Node::order().
class AliasAnalysis {
public:
  using StorageId = uint32_t;
  static constexpr StorageId kNoStorage = UINT32_MAX;

  struct Event {
    enum class Kind : uint8_t { Read, Write, Return };
    uint32_t position;
    Kind kind;
    const Node* node;  ///< the node that reads, writes or returns
    const Node* value; ///< the value it accesses (the storage's member it names)
  };

  struct StorageInfo {
    const Node* root = nullptr;           ///< the value that created it (earliest member)
    bool graphInput = false;              ///< contains a placeholder
    bool donated = false;                 ///< every placeholder in it is donated
    bool attribute = false;               ///< contains a get_attr (module state)
    bool returned = false;                ///< some member is a graph output
    const Node* unknownToucher = nullptr; ///< first op without a usable schema touching it
  };

  /// `donated[i]` tells whether placeholder i (in signature order) is donated.
  AliasAnalysis(const Graph& graph, const EffectAnalysis& effects,
                const std::vector<bool>& donated);

  [[nodiscard]] StorageId storageOf(const Node* node) const { return valueStorage_[node->order()]; }
  [[nodiscard]] const StorageInfo& info(StorageId storage) const { return infos_[storage]; }
  [[nodiscard]] std::span<const Event> events(StorageId storage) const {
    return {events_.data() + eventBegin_[storage], events_.data() + eventBegin_[storage + 1]};
  }
  [[nodiscard]] size_t numStorages() const { return infos_.size(); }
  /// The caller sees the final contents: a graph input that is not donated, or module state.
  [[nodiscard]] bool isObservedByCaller(StorageId storage) const {
    const StorageInfo& storageInfo = infos_[storage];
    return (storageInfo.graphInput && !storageInfo.donated) || storageInfo.attribute;
  }

private:
  StorageId find(StorageId id);
  void unite(StorageId a, StorageId b);
  StorageId newStorage(const Node* root);
  /// The storage of `value`, related to its producer's inputs by `relation`.
  StorageId storageFor(const OutputAlias& relation, const Node* value,
                       std::span<const NodeEffects::Access> producerInputs);
  StorageId slotStorage(const Node* container, size_t index, const Node* getitem);
  /// Calls fn for the value's own storage and, for a tuple taken apart by getitem, for the
  /// storages of its elements.
  template <class Fn> void forEachStorageOf(const Node* value, Fn&& fn) const {
    StorageId own = valueStorage_[value->order()];
    if (own != kNoStorage)
      fn(own);
    if (hasSlots_[value->order()])
      for (StorageId slot : slotsOf_.at(value))
        fn(slot);
  }

  const EffectAnalysis& effects_;
  std::vector<StorageId> parent_;
  std::vector<const Node*> roots_;
  std::vector<StorageId> valueStorage_;
  /// Storages of the elements of multi-output nodes that getitem took apart.
  std::unordered_map<uint64_t, StorageId> slots_;
  std::unordered_map<const Node*, std::vector<StorageId>> slotsOf_;
  std::vector<bool> hasSlots_; ///< by order: slotsOf_ has an entry
  std::vector<StorageInfo> infos_;
  std::vector<Event> events_;
  std::vector<uint32_t> eventBegin_;
};

} // namespace declone
