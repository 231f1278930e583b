// Storages (which values share memory) and the ordered reads and writes of each storage.
#pragma once

#include "declone/analysis/Effects.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace declone {

/// Groups tensor values into storages: views and in-place results share their argument's
/// storage, fresh results get new ones, graph inputs are distinct unless an unknown op may have
/// aliased them. Records in program order every read and write of each storage; a graph output
/// is a Return at the output node. Read-only after construction; positions are Node::order().
/// Building it only reads the graph and the effects (no lazy caches, nothing written to the
/// graph's Context): the safe pass builds it while LayoutAnalysis is built on another thread.
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
  /// As above, but only the storages of the `wanted` values are recorded: they have the ids
  /// below numRecorded(), and only they have info() and events(). A pass that asks about a
  /// few values (clone elimination: clones and their sources) so skips most of the events,
  /// the analysis's largest part (24 bytes each, about one per node), and most infos.
  AliasAnalysis(const Graph& graph, const EffectAnalysis& effects, const std::vector<bool>& donated,
                std::span<const Node* const> wanted);

  [[nodiscard]] StorageId storageOf(const Node* node) const { return valueStorage_[node->order()]; }
  /// For recorded storages only (every storage, unless constructed with `wanted`).
  [[nodiscard]] const StorageInfo& info(StorageId storage) const { return infos_[storage]; }
  /// Empty for a storage that is not recorded.
  [[nodiscard]] std::span<const Event> events(StorageId storage) const {
    if (storage >= infos_.size())
      return {};
    return {events_.data() + eventBegin_[storage], events_.data() + eventBegin_[storage + 1]};
  }
  [[nodiscard]] size_t numStorages() const { return numStorages_; }
  /// The recorded storages are those below this id.
  [[nodiscard]] size_t numRecorded() const { return infos_.size(); }
  /// The caller sees the final contents: a graph input that is not donated, or module state.
  /// For recorded storages only.
  [[nodiscard]] bool isObservedByCaller(StorageId storage) const {
    const StorageInfo& storageInfo = infos_[storage];
    return (storageInfo.graphInput && !storageInfo.donated) || storageInfo.attribute;
  }

private:
  /// uint64 -> uint32 by open addressing (linear probing): the few tuple elements getitem takes
  /// apart, without a heap node per entry. Only construction uses it.
  class SlotMap {
  public:
    static constexpr uint64_t kEmpty = UINT64_MAX; ///< no order is UINT32_MAX
    /// The value of `key`, or nullptr.
    [[nodiscard]] uint32_t* find(uint64_t key);
    /// Inserts `key` (which must be absent).
    void insert(uint64_t key, uint32_t value);

  private:
    struct Entry {
      uint64_t key = kEmpty;
      uint32_t value = 0;
    };
    [[nodiscard]] size_t home(uint64_t key) const;
    std::vector<Entry> entries_; ///< a power of two of them
    size_t size_ = 0;
    int shift_ = 64; ///< 64 - log2(entries_.size())
  };
  /// One storage of a multi-output node's elements. The elements of one node form a circular
  /// list; slotHeads_ holds the newest, whose `next` is the oldest.
  struct SlotLink {
    StorageId storage;
    uint32_t next;
  };

  void build(const Graph& graph, const std::vector<bool>& donated,
             const std::span<const Node* const>* wanted);
  StorageId find(StorageId id);
  void unite(StorageId a, StorageId b);
  StorageId newStorage(const Node* root);
  /// The storage of `value`, related to its producer's inputs by `relation`.
  StorageId storageFor(const OutputAlias& relation, const Node* value,
                       std::span<const NodeEffects::Access> producerInputs);
  /// The storage of element `index` of a multi-output node; with no index, of an element of a
  /// list whose position is unknown (a negative index), which every element is tied to.
  StorageId slotStorage(const Node* container, std::optional<size_t> index, const Node* getitem);
  /// The slot key of the element of unknown position (no index is this large).
  static constexpr uint32_t kAnyElement = UINT32_MAX;
  /// Calls fn for the value's own storage and, for a tuple taken apart by getitem, for the
  /// storages of its elements.
  template <class Fn> void forEachStorageOf(const Node* value, Fn&& fn) {
    StorageId own = valueStorage_[value->order()];
    if (own != kNoStorage)
      fn(own);
    if (hasSlots_[value->order()])
      forEachElementStorage(value, fn);
  }
  /// Calls fn for the storages of the elements of a tuple getitem took apart (there are some).
  template <class Fn> void forEachElementStorage(const Node* value, Fn&& fn) {
    // In the order the elements were first taken apart.
    uint32_t newest = *slotHeads_.find(value->order());
    uint32_t link = newest;
    do {
      link = slotLinks_[link].next;
      fn(slotLinks_[link].storage);
    } while (link != newest);
  }

  const EffectAnalysis& effects_;
  std::vector<StorageId> valueStorage_; ///< by order
  size_t numStorages_ = 0;
  std::vector<StorageInfo> infos_; ///< of the recorded storages
  std::vector<Event> events_;
  std::vector<uint32_t> eventBegin_;

  // Construction only; released at its end.
  std::vector<StorageId> parent_;
  std::vector<const Node*> roots_;
  /// Storages of the elements of multi-output nodes that getitem took apart:
  /// (container order << 32 | index) -> storage, and container order -> its newest SlotLink.
  SlotMap slots_;
  SlotMap slotHeads_;
  std::vector<SlotLink> slotLinks_;
  std::vector<bool> hasSlots_; ///< by order: slotHeads_ has an entry
};

} // namespace declone
