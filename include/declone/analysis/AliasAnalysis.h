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
  /// below numRecorded(), and only they have info() and events(): a pass that asks about a few
  /// values (clone elimination: clones and their sources) skips the events of all others.
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
  class Builder; // construction's scratch (union-find, element storages) lives only there
  friend class Builder;

  std::vector<StorageId> valueStorage_; ///< by order
  size_t numStorages_ = 0;
  std::vector<StorageInfo> infos_; ///< of the recorded storages
  std::vector<Event> events_;
  std::vector<uint32_t> eventBegin_;
};

} // namespace declone
