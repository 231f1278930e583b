// The reader's cache of parsed annotations, keyed by their spelling: open addressing, one array.
#pragma once

#include "declone/ir/Types.h"

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace declone::io {

/// Dumps repeat a few thousand distinct annotations over a million nodes. Parsing each spelling
/// once and sharing the TensorType (immutable once made) took a sixth of the reading time and
/// about 150 bytes per node of sizes and strides off a generated graph.
class AnnotationCache {
public:
  /// The annotation parsed from `spelling` before, or nullptr.
  [[nodiscard]] const TypeAnnotation* find(std::string_view spelling) const {
    if (slots_.empty())
      return nullptr;
    size_t h = hash(spelling);
    size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      const Slot& slot = slots_[i];
      if (slot.index == kEmpty)
        return nullptr;
      // The tag settles most mismatches without touching the annotation (a cache miss).
      if (slot.tag != tag(h))
        continue;
      const TypeAnnotation* type = types_[slot.index];
      if (type->spelling == spelling)
        return type;
    }
  }

  /// Remembers `type` under its spelling. Both must outlive the cache: nodes share the
  /// annotation rather than copy it (arena storage; the spelling points into the source).
  void insert(const TypeAnnotation* type) {
    if ((types_.size() + 1) * 2 > slots_.size())
      grow();
    place(type->spelling, static_cast<uint32_t>(types_.size()));
    types_.push_back(type);
  }

private:
  static constexpr uint32_t kEmpty = UINT32_MAX;
  struct Slot {
    uint32_t tag = 0; ///< high bits of the spelling's hash
    uint32_t index = kEmpty;
  };

  static size_t hash(std::string_view text) { return std::hash<std::string_view>()(text); }
  static uint32_t tag(size_t hash) { return static_cast<uint32_t>(hash >> 32); }

  void place(std::string_view spelling, uint32_t index) {
    size_t h = hash(spelling);
    size_t mask = slots_.size() - 1;
    size_t i = h & mask;
    while (slots_[i].index != kEmpty)
      i = (i + 1) & mask;
    slots_[i] = Slot{tag(h), index};
  }

  void grow() {
    slots_.assign(std::max<size_t>(64, slots_.size() * 2), Slot());
    for (uint32_t i = 0; i < types_.size(); ++i)
      place(types_[i]->spelling, i);
  }

  std::vector<Slot> slots_;
  std::vector<const TypeAnnotation*> types_;
};

} // namespace declone::io
