// The reader's table from node names to nodes, on the shared open-addressing table.
#pragma once

#include "FastHash.h"
#include "declone/ir/Graph.h"
#include "declone/support/OpenTable.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace declone::io {

/// The reader looks up every argument by name. std::unordered_map<std::string_view, Node*> in
/// its place made reading and optimizing a 100k-node dump 13-19% slower (issue 32's
/// measurement): a heap node per name, and key compares that read names wherever the dump holds
/// them. Slots here are 8 bytes (a hash tag and an index into the nodes in definition order),
/// so that a million-node graph's table is 16 MB and stays in the last-level cache: the first
/// probe of each new name is otherwise a cache miss.
class NameTable {
public:
  NameTable() : table_(Traits{&nodes_}) {}
  /// The traits refer to nodes_.
  NameTable(const NameTable&) = delete;
  NameTable& operator=(const NameTable&) = delete;

  /// Empties the table, sized for about `expected` names.
  void reset(size_t expected) {
    table_.reset(expected);
    nodes_.clear();
    nodes_.reserve(expected);
  }

  /// Starts loading the slot `name` hashes to. The reader calls this when it meets a new node's
  /// name and checks for redefinition only after the annotation, whose parsing hides the load.
  void prefetch(std::string_view name) const { table_.prefetch(hash(name)); }

  /// The node called `name`, or nullptr.
  [[nodiscard]] Node* find(std::string_view name) const {
    const Slot* slot = table_.find(name, hash(name));
    return slot ? nodes_[slot->index - 1] : nullptr;
  }

  /// Adds `node` under its name; false (and no change) if the name is already there.
  bool insert(Node* node) {
    uint64_t h = hash(node->name());
    return table_
        .insertOrFind(node->name(), h,
                      [&] {
                        nodes_.push_back(node);
                        return Slot{tag(h), static_cast<uint32_t>(nodes_.size())};
                      })
        .second;
  }

private:
  struct Slot {
    uint32_t tag;   ///< high bits of the name's hash: most mismatches end here
    uint32_t index; ///< 1 + position in nodes_; 0 for an empty slot
  };

  static uint64_t hash(std::string_view name) { return fastHash(name); }
  static uint32_t tag(uint64_t hash) { return static_cast<uint32_t>(hash >> 32); }

  struct Traits {
    using Slot = NameTable::Slot;
    const std::vector<Node*>* nodes;

    bool isEmpty(const Slot& slot) const { return slot.index == 0; }
    uint64_t hash(const Slot& slot) const {
      return NameTable::hash((*nodes)[slot.index - 1]->name());
    }
    bool matches(const Slot& slot, std::string_view name, uint64_t h) const {
      return slot.tag == tag(h) && (*nodes)[slot.index - 1]->name() == name;
    }
  };

  std::vector<Node*> nodes_;
  OpenTable<Traits> table_;
};

} // namespace declone::io
