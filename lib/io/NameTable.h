// The reader's table from node names to nodes: open addressing over one flat array.
#pragma once

#include "FastHash.h"
#include "declone/ir/Graph.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace declone::io {

/// The reader looks up every argument by name; std::unordered_map's node per entry made that a
/// fifth of the time spent reading a large graph. Slots are 8 bytes (a hash tag and an index
/// into the nodes in definition order) so that a million-node graph's table is 16 MB and stays
/// in the last-level cache: the first probe of each new name is otherwise a cache miss.
class NameTable {
public:
  /// Empties the table, sized for about `expected` names.
  void reset(size_t expected) {
    size_t capacity = 16;
    while (capacity < expected * 2)
      capacity *= 2;
    slots_.assign(capacity, Slot{});
    nodes_.clear();
    nodes_.reserve(expected);
  }

  /// The hash every lookup of `name` needs: the reader computes it once per new node and
  /// passes it to prefetch(), find() and insert() rather than hashing the name three times.
  static uint64_t hash(std::string_view name) { return fastHash(name); }

  /// Starts loading the slot `name` hashes to. The reader calls this when it meets a new node's
  /// name and checks for redefinition only after the annotation, whose parsing hides the load.
  void prefetch(uint64_t h) const {
    // Unconditional, in integer arithmetic: g++ 12 drops a __builtin_prefetch guarded by
    // `if (!slots_.empty())` (the prefetch this replaced was never emitted). A prefetch never
    // faults, so the meaningless address an empty table gives is harmless.
    uintptr_t slot =
        reinterpret_cast<uintptr_t>(slots_.data()) + (h & (slots_.size() - 1)) * sizeof(Slot);
    __builtin_prefetch(reinterpret_cast<const void*>(slot));
  }
  void prefetch(std::string_view name) const { prefetch(hash(name)); }

  [[nodiscard]] Node* find(std::string_view name) const { return find(name, hash(name)); }
  /// find() for a name whose hash() the caller has.
  [[nodiscard]] Node* find(std::string_view name, uint64_t h) const {
    if (slots_.empty())
      return nullptr;
    size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      const Slot& slot = slots_[i];
      if (slot.index == 0)
        return nullptr;
      if (slot.tag == tag(h)) {
        Node* node = nodes_[slot.index - 1];
        if (node->name() == name)
          return node;
      }
    }
  }

  /// Adds `node` under its name; false (and no change) if the name is already there.
  bool insert(Node* node) { return insert(node, hash(node->name())); }
  /// insert() for a node whose name's hash() the caller has.
  bool insert(Node* node, uint64_t h) {
    if ((nodes_.size() + 1) * 2 > slots_.size())
      grow();
    std::string_view name = node->name();
    size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      Slot& slot = slots_[i];
      if (slot.index == 0) {
        nodes_.push_back(node);
        slot = Slot{tag(h), static_cast<uint32_t>(nodes_.size())};
        return true;
      }
      if (slot.tag == tag(h) && nodes_[slot.index - 1]->name() == name)
        return false;
    }
  }

private:
  struct Slot {
    uint32_t tag = 0;   ///< high bits of the name's hash: most mismatches end here
    uint32_t index = 0; ///< 1 + position in nodes_; 0 for an empty slot
  };

  static uint32_t tag(uint64_t hash) { return static_cast<uint32_t>(hash >> 32); }

  void grow() {
    std::vector<Node*> nodes = std::move(nodes_);
    reset(std::max<size_t>(slots_.size(), 8));
    for (Node* node : nodes)
      insert(node);
  }

  std::vector<Slot> slots_; ///< a value-initialised Slot is empty
  std::vector<Node*> nodes_;
};

} // namespace declone::io
