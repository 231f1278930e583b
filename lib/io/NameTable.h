// The reader's table from node names to nodes: open addressing over one flat array.
#pragma once

#include "declone/ir/Graph.h"

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace declone::io {

/// The reader looks up every argument by name; std::unordered_map's node per entry made that a
/// fifth of the time spent reading a large graph. Keys point into the source text.
class NameTable {
public:
  /// Empties the table, sized for about `expected` names.
  void reset(size_t expected) {
    size_t capacity = 16;
    while (capacity < expected * 2)
      capacity *= 2;
    slots_.assign(capacity, Slot());
    size_ = 0;
  }

  /// Starts loading the slot `name` hashes to. The reader calls this when it meets a new node's
  /// name and checks for redefinition only after the annotation: on a large graph that first
  /// probe of a new name is a cache (and TLB) miss, which the annotation's parsing then hides.
  void prefetch(std::string_view name) const {
    if (!slots_.empty())
      __builtin_prefetch(&slots_[hash(name) & (slots_.size() - 1)]);
  }

  [[nodiscard]] Node* find(std::string_view name) const {
    if (slots_.empty())
      return nullptr;
    size_t mask = slots_.size() - 1;
    for (size_t i = hash(name) & mask;; i = (i + 1) & mask) {
      const Slot& slot = slots_[i];
      if (!slot.node)
        return nullptr;
      if (slot.size == name.size() && std::string_view(slot.data, slot.size) == name)
        return slot.node;
    }
  }

  /// Adds `name`; false (and no change) if it is already there.
  bool insert(std::string_view name, Node* node) {
    if ((size_ + 1) * 2 > slots_.size())
      grow();
    size_t mask = slots_.size() - 1;
    for (size_t i = hash(name) & mask;; i = (i + 1) & mask) {
      Slot& slot = slots_[i];
      if (!slot.node) {
        slot = Slot{name.data(), static_cast<uint32_t>(name.size()), node};
        ++size_;
        return true;
      }
      if (slot.size == name.size() && std::string_view(slot.data, slot.size) == name)
        return false;
    }
  }

private:
  struct Slot {
    const char* data = nullptr;
    uint32_t size = 0;
    Node* node = nullptr;
  };

  static size_t hash(std::string_view name) { return std::hash<std::string_view>()(name); }

  void grow() {
    std::vector<Slot> old = std::move(slots_);
    reset(std::max<size_t>(old.size(), 8));
    for (const Slot& slot : old)
      if (slot.node)
        insert(std::string_view(slot.data, slot.size), slot.node);
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
};

} // namespace declone::io
